/**
 * The template-driven local mode (STACK_SOURCE=template): reads the synthesized
 * CloudFormation template in cdk.out, synthesizing it first (offline, in-process, as
 * `cdk synth` does: infra/assembly.ts, which writes the `aws:asset:path` metadata) when
 * it is missing or older than the sources, and turns it into the
 * {@link StackDescription} the local gateway serves.
 * Environment values and IAM resources written as CloudFormation references (Ref,
 * Fn::GetAtt, Fn::Join, Fn::Sub, …) are resolved against the local resources: the
 * dynalite table, the local queue and the local secrets.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SUPPORT_FUNCTIONS } from '../../shared/routes';
import { ROOT } from '../../infra/bundles';
import type { FunctionDescription, GatewayResponseDescription, GatewayResponseType, MethodThrottle, RouteDescription, StackDescription } from './description';

export const CDK_OUT = join(ROOT, 'cdk.out');
/** `npm run sam-env`'s synthesis (`-c samLocal=true`), beside the deployable one. */
export const SAM_CDK_OUT = join(ROOT, 'cdk.out.sam');
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_PARTITION = 'aws';

/**
 * What decides the template: a change here makes cdk.out stale. The bundles' own
 * settings too (infra/bundles.ts BUILD_SETTINGS: tsconfig.json, package.json), since the
 * assets are copies of the bundles.
 */
const SOURCES = ['infra', 'functions', 'shared', 'cdk.json', 'package.json', 'package-lock.json', 'tsconfig.json', 'docs/openapi.json'];

/** Template JSON, untyped as JSON.parse returns it: shapes vary by resource type, and reads are checked where a value matters. */
export type CfnJson = ReturnType<typeof JSON.parse>;

export interface CfnResource {
  Type: string;
  Properties?: Record<string, CfnJson>;
  Metadata?: Record<string, CfnJson>;
}
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
}

function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when cdk.out holds no synthesized app, or one older than its sources. */
export function isSynthStale(cdkOut = CDK_OUT): boolean {
  const manifest = statSync(join(cdkOut, 'manifest.json'), { throwIfNoEntry: false });
  if (!manifest) return true;
  return SOURCES.some((source) => newestMtime(join(ROOT, source)) > manifest.mtimeMs);
}

export interface SynthOptions {
  /** Output folder (default cdk.out). */
  cdkOut?: string;
  /** Extra CDK context, e.g. { samLocal: 'true' }. */
  context?: Record<string, string>;
  log?: (line: string) => void;
}

/**
 * Synthesizes the app (infra/assembly.ts `synthAssembly`: in this process, offline, no
 * credentials) unless the output folder is fresh. A lock directory keeps two stacks
 * starting together from synthesizing into one folder at once.
 */
export async function ensureSynth({ cdkOut = CDK_OUT, context = {}, log = () => undefined }: SynthOptions = {}): Promise<void> {
  const lock = `${cdkOut}.synth-lock`;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      // Another process synthesizes; a lock older than 5 minutes is left from a crash.
      const stat = statSync(lock, { throwIfNoEntry: false });
      if (stat && Date.now() - stat.mtimeMs > 300_000) await rmdir(lock).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    if (!isSynthStale(cdkOut)) return;
    log(`${cdkOut} is missing or older than the sources: synthesizing…`);
    // Loaded here, not at the top: a start whose cdk.out is fresh never loads the CDK.
    const { synthAssembly } = await import('../../infra/assembly');
    await synthAssembly({ outdir: cdkOut, context });
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}

/**
 * The stack template cdk.out holds (the app has one stack per stage), or the file
 * STACK_TEMPLATE_FILE names (tests serve a deliberately broken copy; its asset paths
 * still resolve against cdk.out).
 */
export function readTemplate(cdkOut = CDK_OUT): { template: CfnTemplate; file: string } {
  const override = process.env.STACK_TEMPLATE_FILE;
  if (override) return { template: JSON.parse(readFileSync(override, 'utf8')) as CfnTemplate, file: override };
  const manifest = JSON.parse(readFileSync(join(cdkOut, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const stack = Object.values(manifest.artifacts).find((artifact) => artifact.type === 'aws:cloudformation:stack');
  if (!stack?.properties?.templateFile) throw new Error(`${cdkOut}/manifest.json names no stack template`);
  const file = join(cdkOut, stack.properties.templateFile);
  return { template: JSON.parse(readFileSync(file, 'utf8')) as CfnTemplate, file };
}

// ---- references ----

/** How a template's references resolve locally; `queueUrl` differs per function (its own AWS endpoint). */
export interface LocalResources {
  region: string;
  tableName: string;
  queueUrl(queueName: string): string;
}

/** A resource's readable name: its construct id in the stack (aws:cdk:path), else its logical id. */
export function resourceName(template: CfnTemplate, logicalId: string): string {
  const resource = template.Resources[logicalId];
  const name = (resource?.Metadata?.['aws:cdk:path'] as string | undefined)?.split('/')[1] ?? logicalId;
  // CloudFormation names a FIFO queue it names itself with the suffix SQS requires of one.
  return resource?.Type === 'AWS::SQS::Queue' && resource.Properties?.FifoQueue === true ? `${name}.fifo` : name;
}

/** The template's SQS event source mappings: the logical ids of each one's queue and function. */
export function eventSourceMappings(template: CfnTemplate): Array<{ queueId: string; functionId: string }> {
  return Object.values(template.Resources).flatMap((resource) => {
    if (resource.Type !== 'AWS::Lambda::EventSourceMapping') return [];
    const queueId = (resource.Properties?.EventSourceArn as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
    const functionId = (resource.Properties?.FunctionName as { Ref?: string } | undefined)?.Ref;
    return queueId && functionId ? [{ queueId, functionId }] : [];
  });
}

/** The logical ids of the queues an event source mapping consumes: locally, the table queues the runner and deliverer loops drain. */
export function consumedQueues(template: CfnTemplate): string[] {
  return eventSourceMappings(template).map((mapping) => mapping.queueId);
}

/** The local secret ARN of an AWS::SecretsManager::Secret (AWS adds a random suffix; locally it is fixed). */
export function secretArn(template: CfnTemplate, logicalId: string, local: LocalResources): string {
  const name = (template.Resources[logicalId].Properties?.Name as string | undefined) ?? logicalId;
  return `arn:${LOCAL_PARTITION}:secretsmanager:${local.region}:${LOCAL_ACCOUNT}:secret:${name}-local0`;
}

function ref(template: CfnTemplate, id: string, local: LocalResources): string {
  const pseudo: Record<string, string> = {
    'AWS::Region': local.region,
    'AWS::AccountId': LOCAL_ACCOUNT,
    'AWS::Partition': LOCAL_PARTITION,
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': 'local',
  };
  if (pseudo[id]) return pseudo[id];
  const resource = template.Resources[id];
  if (!resource) throw new Error(`the template refers to ${id}, which it does not define`);
  switch (resource.Type) {
    case 'AWS::DynamoDB::Table':
      return local.tableName;
    case 'AWS::SQS::Queue':
      return local.queueUrl(resourceName(template, id));
    case 'AWS::SecretsManager::Secret':
      return secretArn(template, id, local);
    default:
      return resourceName(template, id);
  }
}

function getAtt(template: CfnTemplate, id: string, attribute: string, local: LocalResources): string {
  const resource = template.Resources[id];
  if (!resource) throw new Error(`the template refers to ${id}.${attribute}, which it does not define`);
  const arn = (service: string, rest: string) => `arn:${LOCAL_PARTITION}:${service}:${local.region}:${LOCAL_ACCOUNT}:${rest}`;
  if (attribute === 'Arn') {
    switch (resource.Type) {
      case 'AWS::DynamoDB::Table':
        return arn('dynamodb', `table/${local.tableName}`);
      case 'AWS::SQS::Queue':
        return arn('sqs', resourceName(template, id));
      case 'AWS::Logs::LogGroup':
        return arn('logs', `log-group:${resourceName(template, id)}:*`);
      case 'AWS::Lambda::Function':
        return arn('lambda', `function:${resourceName(template, id)}`);
      case 'AWS::IAM::Role':
        return `arn:${LOCAL_PARTITION}:iam::${LOCAL_ACCOUNT}:role/${resourceName(template, id)}`;
      case 'AWS::KMS::Key':
        return arn('kms', `key/${resourceName(template, id)}`);
      case 'AWS::S3::Bucket':
        // Bucket ARNs name neither region nor account.
        return `arn:${LOCAL_PARTITION}:s3:::${resourceName(template, id)}`;
    }
  }
  if (resource.Type === 'AWS::SQS::Queue' && attribute === 'QueueUrl') return local.queueUrl(resourceName(template, id));
  if (resource.Type === 'AWS::SQS::Queue' && attribute === 'QueueName') return resourceName(template, id);
  throw new Error(`no local value for ${id}.${attribute} (${resource.Type})`);
}

/** Resolves a CloudFormation value (a string or an intrinsic function) to a plain string. */
export function resolveValue(template: CfnTemplate, value: unknown, local: LocalResources): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const [[fn, arg]] = Object.entries(value as Record<string, CfnJson>);
    const resolve = (inner: unknown) => resolveValue(template, inner, local);
    switch (fn) {
      case 'Ref':
        return ref(template, arg as string, local);
      case 'Fn::GetAtt': {
        const [id, attribute] = Array.isArray(arg) ? arg : String(arg).split('.');
        return getAtt(template, id, attribute, local);
      }
      case 'Fn::Join':
        return (arg[1] as unknown[]).map(resolve).join(arg[0] as string);
      case 'Fn::Select':
        return resolveList(template, arg[1], local)[Number(arg[0])];
      case 'Fn::Sub': {
        const [text, vars] = Array.isArray(arg) ? arg : [arg, {}];
        return (text as string).replace(/\$\{([^}!]+)\}/g, (_, name: string) => {
          if (vars[name] !== undefined) return resolve(vars[name]);
          const [id, attribute] = name.split('.');
          return attribute ? getAtt(template, id, attribute, local) : ref(template, id, local);
        });
      }
    }
  }
  throw new Error(`cannot resolve ${JSON.stringify(value)} locally`);
}

function resolveList(template: CfnTemplate, value: CfnJson, local: LocalResources): string[] {
  if (Array.isArray(value)) return value.map((item) => resolveValue(template, item, local));
  if (value?.['Fn::Split']) return resolveValue(template, value['Fn::Split'][1], local).split(value['Fn::Split'][0] as string);
  throw new Error(`cannot resolve the list ${JSON.stringify(value)} locally`);
}

/** The logical id of the function a value points at (Fn::GetAtt [Fn, Arn] or Ref Fn, possibly inside a Join). */
export function functionIn(template: CfnTemplate, value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = functionIn(template, item);
      if (found) return found;
    }
    return undefined;
  }
  const record = value as Record<string, CfnJson>;
  const id = record.Ref ?? (Array.isArray(record['Fn::GetAtt']) ? record['Fn::GetAtt'][0] : undefined);
  if (typeof id === 'string' && template.Resources[id]?.Type === 'AWS::Lambda::Function') return id;
  return functionIn(template, Object.values(record));
}

// ---- the description ----

const resourcesOfType = (template: CfnTemplate, type: string) => Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

/** Full path of an AWS::ApiGateway::Resource, from its chain of parents. */
function resourcePath(template: CfnTemplate, id: string): string {
  const properties = template.Resources[id].Properties!;
  const parent = properties.ParentId as { Ref?: string };
  const prefix = parent.Ref ? resourcePath(template, parent.Ref) : '';
  return `${prefix}/${properties.PathPart as string}`;
}

/** `'literal'` → literal; `context.requestId` stays a placeholder the gateway fills. */
function responseHeaderValue(mapping: string): string {
  return mapping.startsWith("'") ? mapping.slice(1, -1) : mapping;
}

/**
 * The stack description from the template: routes and methods, the authorizer and
 * its settings, gateway responses, the usage plan's throttles, and each function's asset
 * folder and environment. `local` resolves the references; `queueUrlFor` gives each
 * function its own queue URL (its own recording AWS endpoint).
 */
export function describeTemplate(
  template: CfnTemplate,
  cdkOut: string,
  local: Omit<LocalResources, 'queueUrl'>,
  queueUrlFor: (functionName: string, queueName: string) => string,
): StackDescription {
  const nameOf = (logicalId: string) => resourceName(template, logicalId);
  const functions: Record<string, FunctionDescription> = {};
  for (const [id, resource] of resourcesOfType(template, 'AWS::Lambda::Function')) {
    const name = nameOf(id);
    functions[name] = describeFunction(template, name, resource, cdkOut, { ...local, queueUrl: (queueName) => queueUrlFor(name, queueName) });
  }
  const { authorizerId, authorizer } = describeAuthorizer(template);
  const [consumer] = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').map(([, mapping]) => functionIn(template, mapping.Properties?.FunctionName));
  const scheduledNames = resourcesOfType(template, 'AWS::Events::Rule')
    .flatMap(([, rule]) => ((rule.Properties?.Targets ?? []) as { Arn: unknown }[]).map((target) => functionIn(template, target.Arn)))
    .flatMap((id) => (id === undefined ? [] : [nameOf(id)]));
  // The outbox re-drive is the scheduled function the loop needs; the others (the retention sweep) run beside it.
  const scheduled = scheduledNames.find((name) => name === SUPPORT_FUNCTIONS.automationRedrive.name) ?? scheduledNames[0];
  if (!consumer || !scheduled) throw new Error('the template has no queue consumer (event source mapping) or no scheduled function (events rule)');

  return {
    source: 'template',
    routes: describeRoutes(template, authorizerId),
    authorizer,
    responses: describeResponses(template),
    planThrottle: planThrottle(template),
    functions,
    queueConsumer: nameOf(consumer),
    scheduled,
    // The event re-drive runs in the deliverer's loop (template-stack.ts).
    alsoScheduled: scheduledNames.filter((name) => name !== scheduled && name !== SUPPORT_FUNCTIONS.eventRedrive.name),
  };
}

/** A function's bundle (in its asset folder), resolved environment and timeout. */
function describeFunction(template: CfnTemplate, name: string, resource: CfnResource, cdkOut: string, scoped: LocalResources): FunctionDescription {
  const asset = resource.Metadata?.['aws:asset:path'] as string | undefined;
  if (!asset) throw new Error(`function ${name} has no aws:asset:path metadata: synthesize with the cdk CLI (npx cdk synth)`);
  const [file, exported] = String(resource.Properties?.Handler ?? 'index.handler').split('.');
  if (exported !== 'handler') throw new Error(`function ${name}: handler ${resource.Properties?.Handler as string} is not <file>.handler`);
  const folder = join(cdkOut, asset);
  const bundle = ['.mjs', '.js', '.cjs'].map((ext) => join(folder, `${file}${ext}`)).find((candidate) => existsSync(candidate));
  if (!bundle) throw new Error(`function ${name}: no ${file}.mjs/.js in its asset folder ${folder}`);
  const variables = (resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(variables)) {
    try {
      environment[key] = resolveValue(template, value, scoped);
    } catch (error) {
      throw new Error(`function ${name}, environment variable ${key}: ${(error as Error).message}`);
    }
  }
  return { bundle, environment, timeoutSeconds: Number(resource.Properties?.Timeout ?? 3) };
}

/** The template's one REQUEST authorizer: its function, identity sources and result cache. */
function describeAuthorizer(template: CfnTemplate): { authorizerId: string; authorizer: StackDescription['authorizer'] } {
  const [authorizerEntry] = resourcesOfType(template, 'AWS::ApiGateway::Authorizer');
  if (!authorizerEntry) throw new Error('the template has no API Gateway authorizer');
  const [authorizerId, authorizerResource] = authorizerEntry;
  const authorizerFunction = functionIn(template, authorizerResource.Properties?.AuthorizerUri);
  if (!authorizerFunction) throw new Error(`authorizer ${authorizerId} invokes no function of the template`);
  if (authorizerResource.Properties?.Type !== 'REQUEST') throw new Error(`authorizer ${authorizerId}: only REQUEST authorizers are served locally`);
  const identitySource = String(authorizerResource.Properties?.IdentitySource ?? '');
  return {
    authorizerId,
    authorizer: {
      functionName: resourceName(template, authorizerFunction),
      identitySources: identitySource
        .split(',')
        .map((source) => source.trim())
        .filter(Boolean),
      cacheTtlSeconds: Number(authorizerResource.Properties?.AuthorizerResultTtlInSeconds ?? 300),
    },
  };
}

type CfnThrottle = { BurstLimit: number; RateLimit: number };

/** The usage plans' per-method throttles, by `<path>/<METHOD>`. */
function methodThrottles(template: CfnTemplate): Map<string, MethodThrottle> {
  const throttles = new Map<string, MethodThrottle>();
  for (const [, plan] of resourcesOfType(template, 'AWS::ApiGateway::UsagePlan')) {
    for (const stage of (plan.Properties?.ApiStages ?? []) as { Throttle?: Record<string, CfnThrottle> }[]) {
      for (const [key, throttle] of Object.entries(stage.Throttle ?? {}))
        throttles.set(key, { burstLimit: throttle.BurstLimit, rateLimit: throttle.RateLimit });
    }
  }
  return throttles;
}

/** The usage plan's own throttle: one bucket per key across every method. */
function planThrottle(template: CfnTemplate): MethodThrottle | undefined {
  let found: MethodThrottle | undefined;
  for (const [, plan] of resourcesOfType(template, 'AWS::ApiGateway::UsagePlan')) {
    const own = plan.Properties?.Throttle as CfnThrottle | undefined;
    if (own) found = { burstLimit: own.BurstLimit, rateLimit: own.RateLimit };
  }
  return found;
}

/** Every path with its methods, its function, whether the authorizer runs first, and its throttles. */
function describeRoutes(template: CfnTemplate, authorizerId: string): RouteDescription[] {
  const throttles = methodThrottles(template);
  const byPath = new Map<string, RouteDescription>();
  const otherMethods = new Map<string, GatewayResponseDescription>();
  for (const [id, method] of resourcesOfType(template, 'AWS::ApiGateway::Method')) {
    const properties = method.Properties!;
    const resourceRef = properties.ResourceId as { Ref?: string };
    const path = resourceRef.Ref ? resourcePath(template, resourceRef.Ref) : '/';
    if (properties.HttpMethod === 'ANY' && properties.Integration?.Type === 'MOCK') {
      otherMethods.set(path, mockAnswer(id, properties.Integration));
      continue;
    }
    const target = functionIn(template, properties.Integration?.Uri);
    if (!target || properties.Integration?.Type !== 'AWS_PROXY') throw new Error(`method ${id} (${path}) is not a Lambda proxy integration`);
    const httpMethod = String(properties.HttpMethod);
    const authorized = properties.AuthorizationType === 'CUSTOM';
    // The portal's methods: the user pool's ID token, checked by the local gateway as API Gateway's Cognito authorizer checks it.
    const userPool = properties.AuthorizationType === 'COGNITO_USER_POOLS' ? (true as const) : undefined;
    if (authorized && (properties.AuthorizerId as { Ref?: string })?.Ref !== authorizerId) throw new Error(`method ${id} (${path}) uses another authorizer`);
    const functionName = resourceName(template, target);
    // One route per path and function: the portal's GET and POST on one path are two functions.
    const key = `${path} ${functionName}`;
    const route = byPath.get(key) ?? { path, methods: [], functionName, authorized: authorized || Boolean(userPool), userPool, throttles: {} };
    if (route.authorized !== (authorized || Boolean(userPool)) || route.userPool !== userPool)
      throw new Error(`${path}: the methods of ${functionName} differ in authorizer, which the local gateway does not serve`);
    route.methods.push(httpMethod);
    const throttle = throttles.get(`${path}/${httpMethod}`);
    if (throttle) route.throttles![httpMethod] = throttle;
    byPath.set(key, route);
  }
  for (const [path, answer] of otherMethods) {
    const routes = [...byPath.values()].filter((route) => route.path === path);
    if (routes.length === 0) throw new Error(`${path} has a mock ANY method but no method with a function`);
    for (const route of routes) route.otherMethods = answer;
  }
  return [...byPath.values()];
}

/** What a mock method answers: its one integration response's status, headers and JSON template. */
function mockAnswer(id: string, integration: Record<string, unknown>): GatewayResponseDescription {
  const responses = (integration.IntegrationResponses ?? []) as {
    StatusCode: string;
    ResponseTemplates?: Record<string, string>;
    ResponseParameters?: Record<string, string>;
  }[];
  if (responses.length !== 1) throw new Error(`mock method ${id}: the local gateway serves mocks with exactly one integration response`);
  const [{ StatusCode, ResponseTemplates = {}, ResponseParameters = {} }] = responses;
  const headers: Record<string, string> = {};
  for (const [key, mapping] of Object.entries(ResponseParameters)) {
    if (key.startsWith('method.response.header.')) headers[key.slice('method.response.header.'.length)] = responseHeaderValue(mapping);
  }
  return { statusCode: Number(StatusCode), headers, body: ResponseTemplates['application/json'] ?? '' };
}

/** The gateway responses by type: status, headers and JSON body template. */
function describeResponses(template: CfnTemplate): StackDescription['responses'] {
  const responses: StackDescription['responses'] = {};
  for (const [, response] of resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse')) {
    const properties = response.Properties!;
    const headers: Record<string, string> = {};
    for (const [key, mapping] of Object.entries((properties.ResponseParameters ?? {}) as Record<string, string>)) {
      if (key.startsWith('gatewayresponse.header.')) headers[key.slice('gatewayresponse.header.'.length)] = responseHeaderValue(mapping);
    }
    const templates = (properties.ResponseTemplates ?? {}) as Record<string, string>;
    const description: GatewayResponseDescription = {
      statusCode: properties.StatusCode ? Number(properties.StatusCode) : undefined,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: templates['application/json'] ?? '',
    };
    responses[properties.ResponseType as GatewayResponseType] = description;
  }
  return responses;
}
