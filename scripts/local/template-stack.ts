/**
 * The template-driven local mode's wiring (STACK_SOURCE=template): the stack
 * description from the synthesized template, one worker per function with its own
 * environment, and one recording AWS endpoint per function (scripts/local/aws-endpoint.ts)
 * that checks every call against the function's IAM policy and appends it to
 * DATA_DIR/aws-calls.jsonl.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import {
  LOCAL_ACCOUNT,
  consumedQueues,
  describeTemplate,
  eventSourceMappings,
  ensureSynth,
  readTemplate,
  resourceName,
  secretArn,
  CDK_OUT,
  type CfnTemplate,
} from './template';
import { evaluateCall, functionPolicies } from './iam';
import { recordCall, startAwsEndpoint, type AwsEndpoint, type LocalSecret } from './aws-endpoint';
import { createFunctionHost } from './function-host';
import { localMediaSettings } from './media-links';
import { localSuppressionKey } from './suppression-key';
import { localSecretBox, readOrCreateLocalKey } from '../../shared/events/secret-box';
import { SUPPORT_FUNCTIONS } from '../../shared/routes';
import type { StackDescription } from './description';
import type { AuthorizerHandler, GatewayRoute, ProxyHandler } from './gateway';

/**
 * Configuration the functions may read that is not the template's to give: test and
 * demo knobs of the local stack (INTERFACE: npm start reads WEBHOOK_RETRY_SCHEDULE).
 */
const LOCAL_KNOBS = ['CLOCK_OFFSET_MS', 'GRAPH_API_TIMEOUT_MS', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_ALLOW_LOOPBACK', 'KEY_CACHE_MS'];

export interface TemplateStackOptions {
  dataDir: string;
  dynamodbEndpoint: string;
  tableName: string;
  region: string;
  graphBaseUrl: string;
  /** The webhook secret's value locally: the chat network's app secret and verify token. */
  webhookSecret: { appSecret: string; verifyToken: string };
  /** Puts a message sent to a consumed queue into the local queue: the step queue, or the event deliverer's. */
  sendToQueue(body: string, delaySeconds: number, queue?: 'steps' | 'events'): Promise<string>;
  log(line: string): void;
  /** npm start's Cognito stand-in: the portal page signs in there, not to the pool the template's references name. */
  userPool: { endpoint: string; userPoolId: string; clientId: string };
}

export interface TemplateStack {
  description: StackDescription;
  templateFile: string;
  routes: GatewayRoute[];
  authorizer: AuthorizerHandler;
  runner: (event: unknown) => Promise<ReturnType<typeof JSON.parse>>;
  redrive: () => Promise<ReturnType<typeof JSON.parse>>;
  /** The other scheduled functions (the retention sweep), run beside the re-drive. */
  sweep: () => Promise<unknown>;
  /** The event deliverer (fed by the event queue) and the event re-drive, when the template has them. */
  events?: { deliverer: (event: unknown) => Promise<ReturnType<typeof JSON.parse>>; redrive: () => Promise<ReturnType<typeof JSON.parse>> };
  /** Points the media functions' links at the gateway, once it listens. */
  mediaLinksAt(url: string): void;
  close(): Promise<void>;
}

/** What Lambda's SQS event source mapping does with the consumer's role. */
const ESM_SQS_ACTIONS = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'];

/** The file every function's AWS calls are appended to, with their IAM verdicts. */
export const awsCallsFile = (dataDir: string) => join(dataDir, 'aws-calls.jsonl');

/** The event EventBridge's schedule invokes a function with. */
const scheduledEventIn = (region: string) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: LOCAL_ACCOUNT,
  time: new Date().toISOString(),
  region,
  resources: [],
  detail: {},
});

/**
 * Local values of the template's secrets: the webhook secret (the one holding `appSecret`)
 * gets the chat network's; the suppression key (the secret the functions' SUPPRESSION_KEY_SECRET_ARN
 * names) npm start's, kept with DATA_DIR, so opt-outs outlive a restart and a change of mode;
 * another generated key (the cursor-signing key) a random value, as CloudFormation generates one.
 */
function localSecrets(template: CfnTemplate, options: TemplateStackOptions): LocalSecret[] {
  const local = { region: options.region, tableName: options.tableName, queueUrl: () => '' };
  const suppressionKeys = new Set(
    Object.values(template.Resources).map((resource) => (resource.Properties?.Environment?.Variables?.SUPPRESSION_KEY_SECRET_ARN as { Ref?: string })?.Ref),
  );
  return Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::SecretsManager::Secret')
    .map(([id, resource]) => {
      const shape = String(resource.Properties?.GenerateSecretString?.SecretStringTemplate ?? '');
      const generated = resource.Properties?.GenerateSecretString !== undefined;
      const value = shape.includes('appSecret')
        ? JSON.stringify(options.webhookSecret)
        : suppressionKeys.has(id)
          ? localSuppressionKey(options.dataDir).SUPPRESSION_KEY
          : generated
            ? randomBytes(36).toString('base64url')
            : '';
      return { arn: secretArn(template, id, local), name: String(resource.Properties?.Name ?? id), value };
    });
}

export async function startTemplateStack(options: TemplateStackOptions): Promise<TemplateStack> {
  await ensureSynth({ log: options.log });
  const { template, file } = readTemplate();
  const local = { region: options.region, tableName: options.tableName };
  const policies = functionPolicies(template, { ...local, queueUrl: (name) => name });
  const consumers = queueConsumers(template);
  const callsFile = awsCallsFile(options.dataDir);
  const endpoints = await startFunctionEndpoints(template, policies, consumers, options, callsFile);
  const description = describeTemplate(
    template,
    CDK_OUT,
    local,
    (functionName, queueName) => `${endpoints.get(functionName)!.url}/${LOCAL_ACCOUNT}/${queueName}`,
  );
  for (const [name, fn] of Object.entries(description.functions)) fn.environment = lambdaEnvironment(fn.environment, name, endpoints.get(name)!.url, options);

  const host = createFunctionHost(description.functions);
  const scheduledEvent = () => scheduledEventIn(options.region);
  /**
   * Lambda's event source mapping polls a function's queues with the function's own role:
   * checks (and records) the actions it needs on each, as AWS would refuse them.
   */
  const checkEventSourcePolls = (functionName: string) => checkPolls(functionName, consumers, policies, options.region, callsFile);
  const invokeAuthorizer = host.invoke(description.authorizer.functionName);
  const invokeScheduled = host.invoke(description.scheduled);
  const alsoScheduled = description.alsoScheduled.map((name) => host.invoke(name));
  const invokeConsumer = host.invoke(description.queueConsumer);
  return {
    description,
    templateFile: file,
    routes: description.routes.map((route) => {
      const invoke = host.invoke(route.functionName);
      const handler: ProxyHandler = (event, context) => invoke(event, context.awsRequestId);
      return {
        path: route.path,
        methods: route.methods,
        handler,
        authorized: route.authorized,
        userPool: route.userPool,
        throttles: route.throttles,
        otherMethods: route.otherMethods,
      };
    }),
    authorizer: (event) => invokeAuthorizer(event) as Promise<APIGatewayAuthorizerResult>,
    runner: async (event) => {
      checkEventSourcePolls(description.queueConsumer);
      // The loop's context object holds functions, which cannot cross to a worker: the worker builds its own.
      return invokeConsumer(event);
    },
    redrive: () => invokeScheduled(scheduledEvent()),
    sweep: () => Promise.all(alsoScheduled.map((invoke) => invoke(scheduledEvent()))),
    events: eventFunctions(description, host, checkEventSourcePolls, scheduledEvent),
    mediaLinksAt: (url) => pointMediaLinks(description, url),
    async close() {
      await host.close();
      await Promise.all([...endpoints.values()].map((endpoint) => endpoint.close()));
    },
  };
}

/** The media functions' link base: their workers start on their first invocation (function-host.ts), after the gateway listens, so they see it. */
function pointMediaLinks(description: StackDescription, url: string): void {
  for (const fn of Object.values(description.functions)) if (fn.environment?.MEDIA_DIR) fn.environment.MEDIA_URL_BASE = url;
}

/** One recording AWS endpoint per function, checking its calls against its own policy. */
async function startFunctionEndpoints(
  template: CfnTemplate,
  policies: ReturnType<typeof functionPolicies>,
  consumers: Map<string, string>,
  options: TemplateStackOptions,
  callsFile: string,
): Promise<Map<string, AwsEndpoint>> {
  // The queues event source mappings consume are local queues (the event deliverer's its own); the others (the DLQs) take nothing locally.
  const eventQueues = new Set([...consumers].filter(([, fn]) => fn === SUPPORT_FUNCTIONS.eventDeliverer.name).map(([queue]) => queue));
  const queues = Object.fromEntries(
    consumedQueues(template).map((id) => {
      const name = resourceName(template, id);
      return [
        name,
        eventQueues.has(name)
          ? (body: string, delay: number) => options.sendToQueue(body, delay, 'events')
          : (body: string, delay: number) => options.sendToQueue(body, delay),
      ];
    }),
  );
  const kms = localSecretBox(readOrCreateLocalKey(join(options.dataDir, 'webhook-secrets.key')));
  const secrets = localSecrets(template, options);
  const endpoints = new Map<string, AwsEndpoint>();
  for (const [functionName, policy] of policies) {
    endpoints.set(
      functionName,
      await startAwsEndpoint({
        functionName,
        policy,
        dynamodbEndpoint: options.dynamodbEndpoint,
        region: options.region,
        account: LOCAL_ACCOUNT,
        secrets,
        queues,
        kms,
        onCall: (verdict) => {
          recordCall(callsFile, verdict);
          if (!verdict.allowed) options.log(`IAM: refused ${verdict.reason}`);
        },
      }),
    );
  }
  return endpoints;
}

/** What the Lambda runtime gives every function, pointed at its local endpoint, plus the sandbox in place of the Graph API. */
function lambdaEnvironment(
  environment: Record<string, string> | undefined,
  name: string,
  endpoint: string,
  options: TemplateStackOptions,
): Record<string, string> {
  const knobs = Object.fromEntries(LOCAL_KNOBS.filter((key) => process.env[key] !== undefined).map((key) => [key, process.env[key]!]));
  // The portal's AWS-only settings: locally no usage-plan keys, and the request log is DATA_DIR/logs/service.log.
  // The media bucket: locally files under DATA_DIR, as npm start keeps them (S3 calls are not served by the local endpoint).
  const { USAGE_PLAN_NAME: _plan, REQUEST_LOG_GROUPS: _logGroups, MEDIA_BUCKET: mediaBucket, ...own } = environment ?? {};
  return {
    ...own,
    ...knobs,
    ...(mediaBucket !== undefined && localMediaSettings(options.dataDir)),
    ...(own.PORTAL_COGNITO_ENDPOINT !== undefined && portalPageSettings(options.userPool)),
    DATA_DIR: options.dataDir,
    AWS_REGION: options.region,
    AWS_DEFAULT_REGION: options.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    DYNAMODB_ENDPOINT: endpoint,
    AWS_ENDPOINT_URL_SQS: endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
    AWS_ENDPOINT_URL_KMS: endpoint,
    GRAPH_API_BASE_URL: options.graphBaseUrl,
  };
}

/** The portal page's pool settings, pointed at the stand-in (the template's are the regional endpoint and the pool's logical ids). */
function portalPageSettings(userPool: TemplateStackOptions['userPool']): Record<string, string> {
  return { PORTAL_COGNITO_ENDPOINT: userPool.endpoint, PORTAL_USER_POOL_ID: userPool.userPoolId, PORTAL_CLIENT_ID: userPool.clientId };
}

/** Checks (and records) the SQS actions an event source mapping needs on each queue it polls for `functionName`; throws on a refusal. */
function checkPolls(
  functionName: string,
  consumers: Map<string, string>,
  policies: ReturnType<typeof functionPolicies>,
  region: string,
  callsFile: string,
): void {
  for (const queueName of [...consumers].filter(([, consumer]) => consumer === functionName).map(([queue]) => queue)) {
    for (const action of ESM_SQS_ACTIONS) {
      const verdict = evaluateCall(policies.get(functionName) ?? [], {
        functionName,
        action,
        resource: `arn:aws:sqs:${region}:${LOCAL_ACCOUNT}:${queueName}`,
      });
      recordCall(callsFile, verdict);
      if (!verdict.allowed) throw new Error(`the event source mapping cannot poll ${queueName}: ${verdict.reason}`);
    }
  }
}

/** The deliverer and the event re-drive, as the event source mappings and the schedule would run them. */
function eventFunctions(
  description: StackDescription,
  host: ReturnType<typeof createFunctionHost>,
  checkEventSourcePolls: (functionName: string) => void,
  scheduledEvent: () => unknown,
): TemplateStack['events'] {
  const deliverer = SUPPORT_FUNCTIONS.eventDeliverer.name;
  const redrive = SUPPORT_FUNCTIONS.eventRedrive.name;
  if (!description.functions[deliverer] || !description.functions[redrive]) return undefined;
  const invokeDeliverer = host.invoke(deliverer);
  const invokeRedrive = host.invoke(redrive);
  return {
    deliverer: async (event) => {
      checkEventSourcePolls(deliverer);
      return invokeDeliverer(event);
    },
    redrive: () => invokeRedrive(scheduledEvent()),
  };
}

/** Queue name → the function its event source mapping feeds. */
function queueConsumers(template: CfnTemplate): Map<string, string> {
  return new Map(eventSourceMappings(template).map(({ queueId, functionId }) => [resourceName(template, queueId), resourceName(template, functionId)]));
}
