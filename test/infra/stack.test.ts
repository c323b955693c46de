/**
 * The CDK stack, asserted on its synthesized template. Both stacks are built once
 * (synthesis takes seconds) with bundling skipped (`aws:cdk:bundling-stacks: []`); the
 * function assets' local bundling (copies of the run's build) is called directly here,
 * and a bundling synthesis covers it end to end (the template-driven mode's, infra/assembly.ts:
 * test/e2e/template-mode.e2e.test.ts; `npx cdk synth` in CI, .ci/run).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App, type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS, AUTHORIZER_FAILURE_TYPES, GATEWAY_RESPONSES, RETRY_AFTER_SECONDS, WorkspaceRestApi } from '../../infra/api';
import { BUNDLING, LAMBDA_RUNTIME_NAME } from '../../infra/bundling';
import { AUTOMATION_BATCH, loadStageConfig, routeSizing } from '../../infra/config';
import { KEY_IN_URL_MESSAGE } from '../../shared/errors';
import { BuiltBundle, SOURCE_MAPS_FOLDER, sourceMapDestination } from '../../infra/function-code';
import { LAMBDA_RUNTIME, SAM_LOCAL_VARIABLES, WorkspaceFunction } from '../../infra/functions';
import { DOCUMENTED_STAGES, synthStage, unvalidatedApp } from '../../infra/synth-offline';
import { publicSupportFunctions, WorkspaceApiStack } from '../../infra/stack';
import { DEFAULT_RATE_LIMITS, EVENT_REDRIVE_REPEAT_MS } from '../../shared/config';
import { RATE_WINDOW_MS } from '../../shared/data/rate-limits';
import { TTL_ATTRIBUTE } from '../../shared/data/table-schema';
import { bundlePath, ROOT as REPO_ROOT } from '../../infra/bundles';
import {
  API_BASE_PATH,
  API_ROUTES,
  DOCS_PATH,
  METHOD_NOT_ALLOWED,
  OPENAPI_PATH,
  PORTAL_API_PATH,
  PORTAL_ROUTES,
  SUPPORT_FUNCTIONS,
  tableAccessOf,
  WEBHOOK_PATH,
} from '../../shared/routes';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
interface Built {
  app: App;
  stack: WorkspaceApiStack;
  template: Template;
  resources: Record<string, Resource>;
  /** The nested stack of alarms and the dashboard. */
  monitoring: Template;
}

const SYNTH_TIMEOUT_MS = 180_000;

function build(context: Record<string, unknown>): Built {
  const { app, stack, template, monitoring } = synthStage(context);
  return { app, stack, template: Template.fromJSON(template), resources: template.Resources as Built['resources'], monitoring: Template.fromJSON(monitoring) };
}

const logicalId = (stack: Stack, element: unknown) => stack.getLogicalId(element as CfnElement);
const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every API Gateway method of a template keyed `<VERB> <full path>`, resolving resource parents. */
function methodsByRoute(resources: Record<string, Resource>): Map<string, Resource> {
  const pathOf = (resourceId: string): string => {
    const resource = resources[resourceId];
    if (!resource) return ''; // the root resource is referenced with Fn::GetAtt, not a Resource
    const parent = resource.Properties.ParentId.Ref as string | undefined;
    return `${parent ? pathOf(parent) : ''}/${resource.Properties.PathPart}`;
  };
  const methods = new Map<string, Resource>();
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::ApiGateway::Method') continue;
    const resourceRef = resource.Properties.ResourceId.Ref as string | undefined;
    methods.set(`${resource.Properties.HttpMethod} ${resourceRef ? pathOf(resourceRef) : '/'}`, resource);
  }
  return methods;
}

function statementsOf(built: Built, fn: WorkspaceFunction): { Action: string | string[]; Resource: unknown; Condition?: any }[] {
  const roleId = logicalId(built.stack, fn.function.role!.node.defaultChild);
  return Object.values(built.resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

const actionsOf = (statements: { Action: string | string[] }[]) => statements.flatMap((s) => asArray(s.Action));

describe('WorkspaceApiStack', () => {
  let dev: Built;
  let prod: Built;
  /** dev with `-c` values as the CLI passes them (strings): a slow runner, WAF on. */
  let custom: Built;

  beforeAll(() => {
    dev = build({ stage: 'dev' });
    prod = build({ ...DOCUMENTED_STAGES.prod, rateLimits: JSON.stringify({ api_read: 60 }), messageContentRetentionDays: '30' });
    custom = build({ stage: 'dev', runnerTimeoutSeconds: '300', waf: 'true', wafAnonymousLimit: '100', messageContentRetentionDays: '2' });
  }, SYNTH_TIMEOUT_MS);

  const resourceOf = (built: Built, construct: { node: { defaultChild?: unknown } }) => built.resources[logicalId(built.stack, construct.node.defaultChild)];

  describe('functions', () => {
    it('creates one function per route and per support function', () => {
      // Prepare
      const expected = API_ROUTES.length + PORTAL_ROUTES.length + Object.keys(SUPPORT_FUNCTIONS).length;

      // Act
      const functions = dev.template.findResources('AWS::Lambda::Function');

      // Assess
      expect(Object.keys(functions)).toHaveLength(expected);
      for (const route of [...API_ROUTES, ...PORTAL_ROUTES]) expect(dev.stack.functions.get(route.name)).toBeDefined();
    });

    it('runs every function of every stage on nodejs24.x and arm64, as index.handler, with its own log group', () => {
      for (const built of [dev, prod]) {
        // Prepare
        const functions = Object.values(built.template.findResources('AWS::Lambda::Function'));

        // Act
        const runtimes = new Set(functions.map((fn) => fn.Properties.Runtime));
        const architectures = new Set(functions.map((fn) => JSON.stringify(fn.Properties.Architectures)));
        const handlers = new Set(functions.map((fn) => fn.Properties.Handler));

        // Assess
        expect([...runtimes], built.stack.stackName).toEqual(['nodejs24.x']);
        expect([...handlers], built.stack.stackName).toEqual(['index.handler']);
        expect([...architectures], built.stack.stackName).toEqual(['["arm64"]']);
        for (const fn of functions) expect(fn.Properties.LoggingConfig.LogGroup.Ref).toMatch(/Logs/);
      }
      expect(LAMBDA_RUNTIME_NAME).toBe('nodejs24.x');
      expect(BUNDLING.target).toBe('node24');
    });

    it("copies a function's built bundle and static files into its asset, and publishes its source map beside the assets, in every stage", () => {
      // Prepare: a cloud assembly of its own; the bundles are the run's build (dist/functions)
      const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
      try {
        for (const built of [dev, prod]) {
          const stackName = built.stack.stackName;
          for (const [name, fn] of built.stack.functions) {
            const asset = join(out, `bundling-temp-${stackName}-${name}`);
            mkdirSync(asset);

            // Act
            const bundled = new BuiltBundle(stackName, name, fn.spec.staticFiles).tryBundle(asset);

            // Assess
            const files = ['index.mjs', ...Object.keys(fn.spec.staticFiles ?? {})];
            expect(bundled, name).toBe(true);
            expect(readdirSync(asset).sort(), name).toEqual([...files].sort());
            for (const file of files)
              expect(readFileSync(join(asset, file)).equals(readFileSync(join(dirname(bundlePath(name)), file))), `${name}/${file}`).toBe(true);
            const published = join(out, SOURCE_MAPS_FOLDER, stackName, name, 'index.mjs.map');
            expect(sourceMapDestination(asset, stackName, name)).toBe(published);
            expect(readFileSync(published).equals(readFileSync(`${bundlePath(name)}.map`)), name).toBe(true);
          }
        }
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
      expect(BUNDLING.sourcemap).toBe(true);
    });

    it('ships the static files of the docs and portal functions, from paths that exist', () => {
      // Prepare / Act
      const withFiles = Object.values(SUPPORT_FUNCTIONS).filter((fn) => fn.staticFiles);

      // Assess
      expect(Object.fromEntries(withFiles.map((fn) => [fn.name, Object.keys(fn.staticFiles!)]))).toEqual({
        OpenApiDocument: ['openapi.json'],
        DocsPage: ['swagger-ui-bundle.js', 'swagger-ui.css'],
        PortalPage: ['index.html', 'portal.js', 'portal.css'],
      });
      for (const fn of withFiles) for (const path of Object.values(fn.staticFiles!)) expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
    });

    it('fails a bundling synthesis whose bundle was not built, naming the function and the build', () => {
      // Prepare
      const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));

      // Act
      const attempt = () => new BuiltBundle('Stack', 'NoSuchFunction').tryBundle(out);

      // Assess
      try {
        expect(attempt).toThrow(/^NoSuchFunction: no bundle at .*dist\/functions\/NoSuchFunction\/index\.mjs; .*npm run build/);
        expect(readdirSync(out)).toEqual([]);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });

    it('gives API functions the table, Powertools settings and their rate limit', () => {
      // Prepare
      const route = API_ROUTES.find((r) => r.path === 'contacts/list')!;

      // Act
      const fn = dev.resources[logicalId(dev.stack, dev.stack.functions.get(route.name)!.function.node.defaultChild)];
      const prodFn = prod.resources[logicalId(prod.stack, prod.stack.functions.get(route.name)!.function.node.defaultChild)];

      // Assess
      expect(fn.Properties.Environment.Variables).toMatchObject({
        TABLE_NAME: { Ref: logicalId(dev.stack, dev.stack.table.node.defaultChild) },
        POWERTOOLS_SERVICE_NAME: 'workspace-api',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        RATE_LIMIT_API_READ: String(DEFAULT_RATE_LIMITS.api_read),
      });
      expect(prodFn.Properties.Environment.Variables.RATE_LIMIT_API_READ).toBe('60');
      expect(fn.Properties).toMatchObject({ MemorySize: 256, Timeout: 10 });
    });

    it('sizes a function whose route row asks for more (contacts/import: 1024 MB, 29 s)', () => {
      // Prepare
      const route = API_ROUTES.find((r) => r.path === 'contacts/import')!;
      // Act
      const fn = dev.resources[logicalId(dev.stack, dev.stack.functions.get(route.name)!.function.node.defaultChild)];
      // Assess
      expect(fn.Properties).toMatchObject({ MemorySize: 1024, Timeout: 29 });
    });

    it('declares none of the local stack\u2019s variables: only a `-c samLocal=true` synthesis does (npm run sam-env)', () => {
      for (const built of [dev, prod]) {
        // Act
        const declared = [...built.stack.functions.values()].flatMap((fn) =>
          Object.keys(resourceOf(built, fn.function).Properties.Environment.Variables as object),
        );

        // Assess
        expect(
          declared.filter((name) => name in SAM_LOCAL_VARIABLES),
          built.stack.stackName,
        ).toEqual([]);
      }
    });

    it('tells every function its stage (STAGE), the EMF metrics\u2019 stage dimension', () => {
      for (const built of [dev, prod]) {
        // Act
        const stages = [...built.stack.functions.values()].map((fn) => resourceOf(built, fn.function).Properties.Environment.Variables.STAGE);

        // Assess
        expect(new Set(stages), built.stack.stackName).toEqual(new Set([built.stack.stackName.replace('WorkspaceApi-', '')]));
      }
    });
  });

  describe('least privilege', () => {
    const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    const NEVER = ['dynamodb:Scan', 'dynamodb:DeleteTable', 'dynamodb:*', '*'];

    it('lets read routes update rate-limit partitions only, and write nothing else', () => {
      for (const route of API_ROUTES.filter((r) => tableAccessOf(r) === 'read')) {
        // Prepare
        const statements = statementsOf(dev, dev.stack.functions.get(route.name)!);

        // Act
        const actions = actionsOf(statements);
        const updates = statements.filter((s) => asArray(s.Action).includes('dynamodb:UpdateItem'));

        // Assess
        for (const action of [...WRITE_ACTIONS, ...NEVER]) expect(actions, `${route.name} ${action}`).not.toContain(action);
        expect(updates, route.name).toHaveLength(1);
        expect(asArray(updates[0].Action)).toEqual(['dynamodb:UpdateItem']);
        expect(updates[0].Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*#RL#*'] } });
      }
    });

    it('gives the portal functions API Gateway on the usage plan and its keys only where they make keys, and Logs Insights on the API log groups only where they read requests', () => {
      // Prepare
      const planId = logicalId(dev.stack, dev.stack.restApi.usagePlan.node.defaultChild);
      const apiLogGroups = API_ROUTES.map((route) => ({
        'Fn::GetAtt': [logicalId(dev.stack, dev.stack.functions.get(route.name)!.logGroup.node.defaultChild), 'Arn'],
      }));
      for (const route of PORTAL_ROUTES) {
        // Act
        const statements = statementsOf(dev, dev.stack.functions.get(route.name)!);
        const gateway = statements.filter((s) => asArray(s.Action).some((action) => action.startsWith('apigateway:')));
        const queries = statements.filter((s) => asArray(s.Action).includes('logs:StartQuery'));

        // Assess
        expect(actionsOf(statements), route.name).not.toContain('*');
        expect(gateway.length > 0, route.name).toBe(Boolean(route.managesUsagePlanKeys));
        for (const statement of gateway) {
          const resources = JSON.stringify(statement.Resource);
          expect(resources, route.name).toMatch(/::\/usageplans|::\/apikeys/);
          if (resources.includes('/usageplans/')) expect(resources, route.name).toContain(planId);
        }
        expect(queries.length > 0, route.name).toBe(Boolean(route.readsRequestLog));
        for (const statement of queries) expect(statement.Resource, route.name).toEqual(apiLogGroups);
      }
    });

    it('grants each function exactly the table actions its row lists, on the table, and Query on the outbox index to its readers', () => {
      for (const [name, fn] of dev.stack.functions) {
        // Prepare
        const statements = statementsOf(dev, fn).filter((s) => actionsOf([s]).some((action) => action.startsWith('dynamodb:')));
        const tableArn = { 'Fn::GetAtt': [logicalId(dev.stack, dev.stack.node.findChild('Table').node.defaultChild), 'Arn'] };
        const listed = fn.spec.tableActions.map((action) => `dynamodb:${action}`);
        const writes = listed.filter((action) => [...WRITE_ACTIONS, 'dynamodb:UpdateItem'].includes(action));

        // Act
        const onTable = statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify(tableArn));
        const unconditional = onTable.filter((s) => !s.Condition);
        const onIndex = statements.filter((s) => JSON.stringify(s.Resource).includes('/index/'));
        const conditional = onTable.filter((s) => s.Condition);

        // Assess: reads on the whole table; writes (and an API endpoint's rate-limit count) only under a partition condition
        expect(actionsOf(unconditional).sort(), name).toEqual(listed.filter((action) => !writes.includes(action)).sort());
        expect(actionsOf(onIndex), name).toEqual(fn.spec.readsOutboxIndex ? ['dynamodb:Query'] : []);
        const rateLimitCount = fn.spec.rateLimitClass && !writes.includes('dynamodb:UpdateItem') ? ['dynamodb:UpdateItem'] : [];
        expect(actionsOf(conditional).sort(), name).toEqual([...writes, ...rateLimitCount].sort());
        expect(onTable.length + onIndex.length, name).toBe(statements.length);
      }
    });

    it('lets every function write only channel, rate-limit, message-pointer and inbound-batch partitions, the key functions only the workspace and API-key partitions, and none the channel pointers', () => {
      // Prepare: what each partition kind is (shared/data/keys.ts); only the operator CLI writes channels and their pointers (CHID#, PNID#)
      const everyWriter = ['WS#*#CH#*', 'WS#*#RL#*', 'CHATMID#*', 'INBOUND#*'];
      const keyWriters = ['WS#*', 'APIKEY#*', 'KEYID#*'];
      for (const [name, fn] of dev.stack.functions) {
        // Act
        const writing = statementsOf(dev, fn).filter((s) => actionsOf([s]).some((action) => [...WRITE_ACTIONS, 'dynamodb:UpdateItem'].includes(action)));
        const partitions = writing.map((s) => s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined);

        // Assess
        for (const allowed of partitions) {
          expect(allowed, name).toBeDefined();
          expect(
            allowed!.every((pattern) => (fn.spec.managesUsagePlanKeys ? keyWriters : everyWriter).includes(pattern)),
            `${name}: ${allowed}`,
          ).toBe(true);
          expect(
            writing.every((s) => Object.keys(s.Condition).length === 1),
            name,
          ).toBe(true);
        }
        if (fn.spec.managesUsagePlanKeys) expect(partitions, name).toEqual([keyWriters]);
      }
      expect([...dev.stack.functions.values()].filter((fn) => fn.spec.managesUsagePlanKeys).map((fn) => fn.spec.name)).toEqual([
        'PortalKeysCreate',
        'PortalKeysRevoke',
        'PortalKeysRotate',
      ]);
    });

    it('grants ConditionCheckItem, Scan and table-level actions to no function, and the content sweep only Query, GetItem and UpdateItem', () => {
      // Act
      const granted = [...dev.stack.functions.values()].flatMap((fn) => actionsOf(statementsOf(dev, fn)));
      const sweep = actionsOf(statementsOf(dev, dev.stack.functions.get(SUPPORT_FUNCTIONS.messageContentSweep.name)!)).filter((a) => a.startsWith('dynamodb:'));

      // Assess
      for (const action of ['dynamodb:ConditionCheckItem', ...NEVER]) expect(granted).not.toContain(action);
      expect([...new Set(sweep)].sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    });

    it('lets only the functions that call the chat network read channel access tokens: never the public WhatsApp webhook', () => {
      // Prepare: a channel's token secret lives under the stage's prefix (infra/config.ts channelSecretPrefix)
      const prefix = loadStageConfig(dev.app).channelSecretPrefix;
      const readsTokens = (fn: WorkspaceFunction) =>
        statementsOf(dev, fn).some(
          (s) => actionsOf([s]).some((action) => action.startsWith('secretsmanager:') || action === '*') && JSON.stringify(s.Resource).includes(prefix),
        );

      // Act
      const readers = [...dev.stack.functions.values()].filter(readsTokens).map((fn) => fn.spec.name);

      // Assess
      expect(readers).not.toContain(SUPPORT_FUNCTIONS.webhook.name);
      expect(readers.sort()).toEqual(
        [...API_ROUTES, ...Object.values(SUPPORT_FUNCTIONS)]
          .filter((fn) => fn.readsSecrets)
          .map((fn) => fn.name)
          .sort(),
      );
      expect(readers.sort()).toEqual(['AutomationRunner', 'ChatMediaUpload', 'ChatMessageRead', 'ChatMessageSend', 'ChatTemplatesSend']);
    });

    it("grants the media bucket's objects only to the functions whose row reads or writes media, and names the bucket only to them", () => {
      // Prepare
      const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalId(dev.stack, dev.stack.media.node.defaultChild), 'Arn'] }, '/*']] };
      const expected = (fn: WorkspaceFunction) => [
        ...(fn.spec.readsMedia ? ['s3:GetObject'] : []),
        ...(fn.spec.writesMedia ? ['s3:PutObject', 's3:DeleteObject'] : []),
      ];

      for (const [name, fn] of dev.stack.functions) {
        // Act
        const s3 = statementsOf(dev, fn).filter((s) => actionsOf([s]).some((action) => action.startsWith('s3:')));
        const environment = resourceOf(dev, fn.function).Properties.Environment.Variables;

        // Assess
        expect(actionsOf(s3), name).toEqual(expected(fn));
        for (const statement of s3) expect(statement.Resource, name).toEqual(objects);
        expect(environment.MEDIA_BUCKET, name).toEqual(expected(fn).length > 0 ? { Ref: logicalId(dev.stack, dev.stack.media.node.defaultChild) } : undefined);
      }
      const media = [...dev.stack.functions.values()].filter((fn) => expected(fn).length > 0).map((fn) => fn.spec.name);
      expect(media.sort()).toEqual(['AutomationRunner', 'ChatMediaGet', 'ContactsDelete']);
    });

    it('keeps the authorizer read-only and scopes logs to each function’s own log group', () => {
      // Prepare
      const authorizer = dev.stack.functions.get(SUPPORT_FUNCTIONS.authorizer.name)!;

      // Act
      const statements = statementsOf(dev, authorizer);
      const logs = statements.find((s) => asArray(s.Action).includes('logs:PutLogEvents'))!;

      // Assess
      expect(
        actionsOf(statements)
          .filter((a) => a.startsWith('dynamodb:'))
          .sort(),
      ).toEqual(['dynamodb:GetItem']);
      expect(logs.Resource).toEqual({ 'Fn::GetAtt': [logicalId(dev.stack, authorizer.logGroup.node.defaultChild), 'Arn'] });
      dev.template.resourcePropertiesCountIs(
        'AWS::IAM::Role',
        { ManagedPolicyArns: [{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/service-role/AWSLambdaBasicExecutionRole']] }] },
        0,
      );
    });

    it("hands the portal page the user pool's region endpoint, pool and app client, and nothing secret", () => {
      // Prepare
      const fn = dev.stack.functions.get(SUPPORT_FUNCTIONS.portalPage.name)!;
      const { userPool, client } = dev.stack.portalUsers;

      // Act
      const environment = resourceOf(dev, fn.function).Properties.Environment.Variables;

      // Assess
      expect(environment.PORTAL_USER_POOL_ID).toEqual({ Ref: logicalId(dev.stack, userPool.node.defaultChild) });
      expect(environment.PORTAL_CLIENT_ID).toEqual({ Ref: logicalId(dev.stack, client.node.defaultChild) });
      expect(environment.PORTAL_COGNITO_ENDPOINT).toEqual({
        'Fn::Join': ['', ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/']],
      });
      expect(Object.keys(environment).filter((name) => /KEY|SECRET/.test(name))).toEqual([]);
    });

    it('gives the public docs and portal page functions no table access and no table name', () => {
      for (const name of [SUPPORT_FUNCTIONS.openapi.name, SUPPORT_FUNCTIONS.docsPage.name, SUPPORT_FUNCTIONS.portalPage.name]) {
        // Prepare
        const fn = dev.stack.functions.get(name)!;

        // Act
        const actions = actionsOf(statementsOf(dev, fn));
        const environment = resourceOf(dev, fn.function).Properties.Environment.Variables;

        // Assess
        expect(fn.spec.tableActions, name).toEqual([]);
        expect(
          actions.filter((action) => action.startsWith('dynamodb:')),
          name,
        ).toEqual([]);
        expect(environment.TABLE_NAME, name).toBeUndefined();
      }
    });

    it('grants secrets and queue access only to functions that declare them', () => {
      // Prepare
      const webhookFunctionNames = publicSupportFunctions()
        .filter((fn) => fn.publicPath === WEBHOOK_PATH)
        .map((fn) => fn.name);
      for (const [name, fn] of dev.stack.functions) {
        // Act
        const actions = actionsOf(statementsOf(dev, fn));

        // Assess
        expect(actions.includes('secretsmanager:GetSecretValue'), name).toBe(
          Boolean(fn.spec.readsSecrets || fn.spec.signsCursors || fn.spec.hashesNumbers) || webhookFunctionNames.includes(name),
        );
        expect(actions.includes('sqs:SendMessage'), name).toBe(Boolean(fn.spec.sendsToQueue || fn.spec.sendsToEventQueue));
        expect(actions.includes('kms:Encrypt'), name).toBe(Boolean(fn.spec.sealsWebhookSecrets));
        expect(actions.includes('kms:Decrypt'), name).toBe(Boolean(fn.spec.opensWebhookSecrets));
      }
    });

    it('scopes readsSecrets to the channel secret prefix and sendsToQueue to the queue', () => {
      // Prepare
      const app = unvalidatedApp({ 'aws:cdk:bundling-stacks': [] });
      const stack = new Stack(app, 'Grants');
      const config = loadStageConfig(stack);
      const queue = new Queue(stack, 'Queue', { enforceSSL: true, deadLetterQueue: { queue: new Queue(stack, 'Dlq'), maxReceiveCount: 5 } });
      const spec = { entry: SUPPORT_FUNCTIONS.authorizer.entry, name: 'Reader', tableActions: ['GetItem' as const], readsSecrets: true, sendsToQueue: true };

      // Act
      const fn = new WorkspaceFunction(stack, 'Reader', {
        spec,
        config,
        sizing: config.apiFunction,
        table: new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } }),
        queue,
      });
      const statements = Object.values<Resource>(Template.fromStack(stack).toJSON().Resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy')
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      const iam5 = new AwsSolutionsChecks().validateScope(fn).violations.filter((v) => v.ruleName.startsWith('AwsSolutions-IAM5'));

      // Assess
      expect(statements).toContainEqual({
        Action: 'secretsmanager:GetSecretValue',
        Effect: 'Allow',
        Resource: {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':secretsmanager:',
              { Ref: 'AWS::Region' },
              ':',
              { Ref: 'AWS::AccountId' },
              ':secret:workspace-api/dev/channel/*',
            ],
          ],
        },
      });
      expect(statements).toContainEqual({
        Action: 'sqs:SendMessage',
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [logicalId(stack, queue.node.defaultChild), 'Arn'] },
      });
      expect(iam5).toEqual([]);
    });
  });

  describe('REST API', () => {
    it('routes GET and POST of every route to its own function through a proxy integration', () => {
      // Prepare
      const methods = methodsByRoute(dev.resources);

      for (const route of API_ROUTES) {
        const fnId = logicalId(dev.stack, dev.stack.functions.get(route.name)!.function.node.defaultChild);
        for (const verb of ['GET', 'POST']) {
          // Act
          const method = methods.get(`${verb} ${API_BASE_PATH}/${route.path}`);

          // Assess
          expect(method, `${verb} ${route.path}`).toBeDefined();
          expect(method!.Properties.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
          expect(JSON.stringify(method!.Properties.Integration.Uri)).toContain(`"${fnId}"`);
        }
      }
    });

    it('puts the authorizer and an API key requirement on every API method, the user pool on the portal methods, and nothing on the rest', () => {
      // Prepare
      const authorizerId = logicalId(dev.stack, dev.stack.restApi.authorizer.node.defaultChild);
      const portalKeys = PORTAL_ROUTES.map((route) => `${route.method} ${PORTAL_API_PATH}/${route.path}`);
      const [portalAuthorizerId] = Object.keys(dev.template.findResources('AWS::ApiGateway::Authorizer', { Properties: { Type: 'COGNITO_USER_POOLS' } }));
      const routeKeys = API_ROUTES.flatMap((route) => ['GET', 'POST'].map((verb) => `${verb} ${API_BASE_PATH}/${route.path}`));
      const publicKeys = publicSupportFunctions().flatMap((fn) => (fn.publicMethods ?? ['GET', 'POST']).map((verb) => `${verb} ${fn.publicPath}`));
      // The 405 mocks: no function behind them (the test above).
      const mockKeys = [
        ...API_ROUTES.map((route) => `ANY ${API_BASE_PATH}/${route.path}`),
        ...new Set(PORTAL_ROUTES.map((route) => `ANY ${PORTAL_API_PATH}/${route.path}`)),
      ];

      // Act
      const methods = methodsByRoute(dev.resources);

      // Assess
      expect([...methods.keys()].sort()).toEqual([...routeKeys, ...publicKeys, ...mockKeys, ...portalKeys].sort());
      for (const key of portalKeys)
        expect(methods.get(key)!.Properties, key).toMatchObject({ AuthorizationType: 'COGNITO_USER_POOLS', AuthorizerId: { Ref: portalAuthorizerId } });
      dev.template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
        Type: 'COGNITO_USER_POOLS',
        ProviderARNs: [{ 'Fn::GetAtt': [logicalId(dev.stack, dev.stack.portalUsers.userPool.node.defaultChild), 'Arn'] }],
      });
      for (const key of routeKeys) {
        expect(methods.get(key)!.Properties, key).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId }, ApiKeyRequired: true });
      }
      for (const key of publicKeys) expect(methods.get(key)!.Properties, key).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
    });

    it('uses a REQUEST authorizer without identity sources or result caching', () => {
      // Act / Assess
      dev.template.hasResourceProperties('AWS::ApiGateway::Authorizer', { Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0, IdentitySource: '' });
      dev.template.hasResourceProperties('AWS::ApiGateway::RestApi', {
        ApiKeySourceType: 'AUTHORIZER',
        EndpointConfiguration: { Types: ['REGIONAL'] },
        MinimumCompressionSize: 1024,
      });
    });

    it('adds public routes without the authorizer (the webhook design)', () => {
      // Prepare
      const app = unvalidatedApp();
      const stack = new Stack(app, 'PublicRoutes');
      const config = loadStageConfig(stack);
      const fn = (id: string) =>
        new LambdaFunction(stack, id, { runtime: LAMBDA_RUNTIME, handler: 'index.handler', code: Code.fromInline('exports.handler = async () => ({})') });
      const route = API_ROUTES[0];

      // Act
      new WorkspaceRestApi(stack, 'Api', {
        config,
        authorizerHandler: fn('Auth'),
        routes: [{ route, handler: fn('Route') }],
        publicRoutes: [{ path: WEBHOOK_PATH, methods: ['GET', 'POST'], handler: fn('Webhook') }],
      });
      const methods = methodsByRoute(Template.fromStack(stack).toJSON().Resources);

      // Assess
      for (const verb of ['GET', 'POST']) {
        expect(methods.get(`${verb} ${WEBHOOK_PATH}`)!.Properties).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
        expect(methods.get(`${verb} ${API_BASE_PATH}/${route.path}`)!.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', ApiKeyRequired: true });
      }
      const nagFindings = new AwsSolutionsChecks().validateScope(stack).violations.filter((v) => /APIG4|COG4/.test(v.ruleName));
      expect(nagFindings).toEqual([]);
    });

    it('answers another method on every endpoint path with 405 and Allow: GET, POST in the envelope (a mock ANY method: no authorizer, no function)', () => {
      // Prepare
      const methods = methodsByRoute(dev.resources);

      // Act
      const fallbacks = API_ROUTES.map((route) => methods.get(`ANY ${API_BASE_PATH}/${route.path}`));

      // Assess
      for (const [i, method] of fallbacks.entries()) {
        expect(method, API_ROUTES[i].path).toBeDefined();
        const { Integration, MethodResponses, AuthorizationType, ApiKeyRequired } = method!.Properties;
        expect({ AuthorizationType, ApiKeyRequired }).toEqual({ AuthorizationType: 'NONE', ApiKeyRequired: false });
        expect(Integration.Type).toBe('MOCK');
        const [answer] = Integration.IntegrationResponses;
        expect(answer.StatusCode).toBe('405');
        expect(JSON.parse(answer.ResponseTemplates['application/json'])).toEqual({
          success: false,
          error: METHOD_NOT_ALLOWED.error,
          message: METHOD_NOT_ALLOWED.message,
        });
        expect(answer.ResponseParameters).toMatchObject({
          'method.response.header.Allow': "'GET, POST'",
          'method.response.header.X-Request-Id': 'context.requestId',
        });
        expect(MethodResponses[0].StatusCode).toBe('405');
      }
      expect(methods.has(`ANY ${WEBHOOK_PATH}`)).toBe(false);
    });

    it('lets API Gateway invoke each endpoint function on its own path and stage only, with one permission for both methods', () => {
      // Prepare
      const permissions = Object.values(dev.resources).filter((r) => r.Type === 'AWS::Lambda::Permission');
      const stageId = logicalId(dev.stack, dev.stack.restApi.api.deploymentStage.node.defaultChild);
      const apiId = logicalId(dev.stack, dev.stack.restApi.api.node.defaultChild);

      // Act
      const byRoute = API_ROUTES.map((route) => {
        const fnId = logicalId(dev.stack, dev.stack.functions.get(route.name)!.function.node.defaultChild);
        return permissions.filter((p) => p.Properties.FunctionName?.['Fn::GetAtt']?.[0] === fnId);
      });

      // Assess
      for (const [i, own] of byRoute.entries()) {
        const route = API_ROUTES[i];
        expect(own.length, route.path).toBe(1);
        expect(own[0].Properties.Principal).toBe('apigateway.amazonaws.com');
        const parts = own[0].Properties.SourceArn['Fn::Join'][1];
        expect(parts.slice(-4), route.path).toEqual([{ Ref: apiId }, '/', { Ref: stageId }, `/*${API_BASE_PATH}/${route.path}`]);
      }
    });

    it("answers another method on every portal path with 405 and Allow naming that path's own methods (a mock ANY method: no authorizer, no function)", () => {
      // Prepare
      const methods = methodsByRoute(dev.resources);
      const paths = [...new Set(PORTAL_ROUTES.map((route) => route.path))];

      // Act
      const fallbacks = paths.map((path) => methods.get(`ANY ${PORTAL_API_PATH}/${path}`));

      // Assess
      for (const [i, method] of fallbacks.entries()) {
        const path = paths[i];
        expect(method, path).toBeDefined();
        const { Integration, AuthorizationType, ApiKeyRequired } = method!.Properties;
        expect({ AuthorizationType, ApiKeyRequired }).toEqual({ AuthorizationType: 'NONE', ApiKeyRequired: false });
        expect(Integration.Type).toBe('MOCK');
        const [answer] = Integration.IntegrationResponses;
        const allow = PORTAL_ROUTES.filter((route) => route.path === path)
          .map((route) => route.method)
          .sort();
        expect(answer.StatusCode).toBe('405');
        expect(answer.ResponseParameters['method.response.header.Allow']).toBe(`'${allow.join(', ')}'`);
        expect(JSON.parse(answer.ResponseTemplates['application/json'])).toMatchObject({ success: false, error: METHOD_NOT_ALLOWED.error });
        expect(JSON.parse(answer.ResponseTemplates['application/json']).message).toContain(`${PORTAL_API_PATH}/${path} takes ${allow.join(' and ')} only`);
      }
      expect(methods.get(`ANY ${PORTAL_API_PATH}/keys`)!.Properties.Integration.IntegrationResponses[0].ResponseParameters).toMatchObject({
        'method.response.header.Allow': "'GET, POST'",
      });
    });

    it('rewrites gateway responses into the error envelope', () => {
      // Prepare
      const expected: Record<string, { status?: string; error: string }> = {
        UNAUTHORIZED: { status: '401', error: 'unauthorized' },
        ACCESS_DENIED: { status: '401', error: 'unauthorized' },
        THROTTLED: { status: '429', error: 'rate_limited' },
        QUOTA_EXCEEDED: { status: '429', error: 'rate_limited' },
        MISSING_AUTHENTICATION_TOKEN: { status: '404', error: 'not_found' },
        BAD_REQUEST_BODY: { status: '400', error: 'invalid_request' },
        REQUEST_TOO_LARGE: { status: '413', error: 'payload_too_large' },
        DEFAULT_4XX: { error: 'invalid_request' },
        DEFAULT_5XX: { error: 'internal_error' },
      };

      // Act
      const responses = Object.values(dev.template.findResources('AWS::ApiGateway::GatewayResponse'));
      const byType = new Map(responses.map((r) => [r.Properties.ResponseType as string, r.Properties]));

      // Assess
      expect(responses).toHaveLength(GATEWAY_RESPONSES.length);
      for (const [type, { status, error }] of Object.entries(expected)) {
        const response = byType.get(type);
        expect(response, type).toBeDefined();
        expect(response!.StatusCode, type).toBe(status);
        const body = JSON.parse(response!.ResponseTemplates['application/json']);
        expect(body, type).toEqual({
          success: false,
          error,
          message: expect.any(String),
          ...(type === 'REQUEST_TOO_LARGE' && { details: { parameter: 'body' } }),
        });
        expect(response!.ResponseParameters, type).toMatchObject({
          'gatewayresponse.header.X-Request-Id': 'context.requestId',
          'gatewayresponse.header.Cache-Control': "'no-store'",
          'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
        });
        const retryAfter = response!.ResponseParameters['gatewayresponse.header.Retry-After'];
        expect(retryAfter, type).toBe(status === '429' ? "'60'" : undefined);
      }
      expect(RETRY_AFTER_SECONDS * 1000).toBe(RATE_WINDOW_MS);
    });

    it('throttles each API user over all methods at every class limit together, and each method at its class', () => {
      // Prepare
      const [plan] = Object.values(dev.template.findResources('AWS::ApiGateway::UsagePlan'));
      const [prodPlan] = Object.values(prod.template.findResources('AWS::ApiGateway::UsagePlan'));
      const perMinute = (limits: Record<string, number>) => Object.values(limits).reduce((sum, limit) => sum + limit, 0);

      // Act
      const throttle = plan.Properties.ApiStages[0].Throttle;

      // Assess
      expect(plan.Properties.Throttle).toEqual({ BurstLimit: perMinute(DEFAULT_RATE_LIMITS), RateLimit: perMinute(DEFAULT_RATE_LIMITS) / 60 });
      expect(plan.Properties.Throttle).toEqual({ BurstLimit: 450, RateLimit: 450 / 60 });
      expect(throttle[`${API_BASE_PATH}/contacts/import/POST`]).toEqual({ BurstLimit: 10, RateLimit: 10 / 60 });
      expect(prodPlan.Properties.Throttle.BurstLimit).toBe(perMinute({ ...DEFAULT_RATE_LIMITS, api_read: 60 }));
      expect(Object.keys(dev.template.findResources('AWS::ApiGateway::UsagePlan'))).toHaveLength(1);
      expect(throttle[`${API_BASE_PATH}/contacts/list/GET`]).toEqual({ BurstLimit: 120, RateLimit: 2 });
      expect(prodPlan.Properties.ApiStages[0].Throttle[`${API_BASE_PATH}/contacts/list/GET`]).toEqual({ BurstLimit: 60, RateLimit: 1 });
      expect(Object.keys(throttle)).toHaveLength(API_ROUTES.length * 2);
      for (const route of API_ROUTES) {
        const limit = DEFAULT_RATE_LIMITS[route.rateLimitClass];
        for (const verb of ['GET', 'POST']) {
          expect(throttle[`${API_BASE_PATH}/${route.path}/${verb}`], `${verb} ${route.path}`).toEqual({ BurstLimit: limit, RateLimit: limit / 60 });
        }
      }
    });

    it('logs access as JSON with only what the function log lacks, without query strings, and traces with X-Ray', () => {
      // Prepare
      const [stage] = Object.values(dev.template.findResources('AWS::ApiGateway::Stage'));

      // Act
      const format: string = stage.Properties.AccessLogSetting.Format;

      // Assess
      expect(JSON.parse(format)).toEqual(ACCESS_LOG_FIELDS);
      expect(Object.keys(ACCESS_LOG_FIELDS)).toEqual(['requestId', 'sourceIp', 'httpMethod', 'resourcePath', 'status', 'errorType', 'responseLatency']);
      expect(format).not.toMatch(/\$context\.path\b|requestOverride|querystring|\$context\.identity\.apiKey(?!Id)/i);
      expect(stage.Properties.TracingEnabled).toBe(true);
    });

    it('throttles each method by default, the public routes by their own limits, and caches only the OpenAPI document, in prod', () => {
      // Prepare
      const escaped = (path: string) => `/${path.replaceAll('/', '~1')}`;
      const logging = { LoggingLevel: 'ERROR', DataTraceEnabled: false };
      const docs = { ...logging, ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 };
      const webhook = { ...logging, ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 };

      // Act
      const [devStage] = Object.values(dev.template.findResources('AWS::ApiGateway::Stage'));
      const [prodStage] = Object.values(prod.template.findResources('AWS::ApiGateway::Stage'));

      // Assess
      expect(devStage.Properties.CacheClusterEnabled).toBeUndefined();
      expect(devStage.Properties.MethodSettings).toEqual([
        { HttpMethod: '*', ResourcePath: '/*', ...logging, ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000, CachingEnabled: false },
        { HttpMethod: 'GET', ResourcePath: escaped(OPENAPI_PATH), ...docs },
        { HttpMethod: 'GET', ResourcePath: escaped(DOCS_PATH), ...docs },
        { HttpMethod: 'GET', ResourcePath: escaped(SUPPORT_FUNCTIONS.portalPage.publicPath!), ...docs },
        { HttpMethod: 'GET', ResourcePath: escaped(WEBHOOK_PATH), ...webhook },
        { HttpMethod: 'POST', ResourcePath: escaped(WEBHOOK_PATH), ...webhook },
      ]);
      expect(prodStage.Properties).toMatchObject({ CacheClusterEnabled: true, CacheClusterSize: '0.5' });
      const cached = prodStage.Properties.MethodSettings.filter((setting: { CachingEnabled?: boolean }) => setting.CachingEnabled);
      expect(cached).toEqual([{ HttpMethod: 'GET', ResourcePath: escaped(OPENAPI_PATH), ...docs, CachingEnabled: true, CacheTtlInSeconds: 300 }]);
      expect(prodStage.Properties.MethodSettings[0]).toMatchObject({ ResourcePath: '/*', CachingEnabled: false });
    });

    it('puts a WAF web ACL on the stage in prod (or with -c waf=true), none in dev', () => {
      // Prepare
      const stageId = (built: Built) => logicalId(built.stack, built.stack.restApi.api.deploymentStage.node.defaultChild);

      // Act
      const [acl] = Object.values(prod.template.findResources('AWS::WAFv2::WebACL'));
      const [association] = Object.values(prod.template.findResources('AWS::WAFv2::WebACLAssociation'));
      const [customAcl] = Object.values(custom.template.findResources('AWS::WAFv2::WebACL'));
      const rules = new Map<string, any>(acl.Properties.Rules.map((rule: { Name: string }) => [rule.Name, rule]));

      // Assess
      dev.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
      expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
      expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`"Ref":"${stageId(prod)}"`);
      expect([...rules.keys()]).toEqual(['KeysInUrl', 'KeylessApiCalls', 'AnonymousRatePerIp', 'RatePerIp']);
      expect(rules.get('KeysInUrl').Action.Block.CustomResponse).toEqual({ ResponseCode: 401, CustomResponseBodyKey: 'key_in_url' });
      expect(JSON.parse(acl.Properties.CustomResponseBodies.key_in_url.Content)).toEqual({
        success: false,
        error: 'unauthorized',
        message: KEY_IN_URL_MESSAGE,
      });
      const keyPattern = new RegExp(JSON.stringify(rules.get('KeysInUrl').Statement).match(/"RegexString":"((?:[^"\\]|\\.)*)"/)![1]);
      expect(['apikey=x', 'a=1&api_key=x', 'x-api-key=x', `search=${'wsk_'.padEnd(47, 'a')}`].map((query) => keyPattern.test(query))).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(['monkey=x', 'search=wsk_short', 'keyword=key'].map((query) => keyPattern.test(query))).toEqual([false, false, false]);
      expect(rules.get('KeylessApiCalls').Action.Block.CustomResponse).toEqual({ ResponseCode: 401, CustomResponseBodyKey: 'unauthorized' });
      expect(JSON.stringify(rules.get('KeylessApiCalls').Statement)).toContain(`"SearchString":"${OPENAPI_PATH}"`);
      expect(rules.get('AnonymousRatePerIp').Statement.RateBasedStatement).toMatchObject({ Limit: 300, AggregateKeyType: 'IP' });
      expect(rules.get('RatePerIp').Statement.RateBasedStatement).toMatchObject({ Limit: 15000, AggregateKeyType: 'IP' });
      expect(rules.get('RatePerIp').Action.Block.CustomResponse.ResponseHeaders).toEqual([{ Name: 'Retry-After', Value: String(RETRY_AFTER_SECONDS) }]);
      expect(JSON.parse(acl.Properties.CustomResponseBodies.unauthorized.Content)).toEqual({
        success: false,
        error: 'unauthorized',
        message: expect.any(String),
      });
      expect(customAcl.Properties.Rules[2].Statement.RateBasedStatement.Limit).toBe(100);
    });

    it('creates the execution log group itself, with retention, before the stage can write to it', () => {
      for (const built of [dev, prod]) {
        // Prepare
        const restApiId = logicalId(built.stack, built.stack.restApi.api.node.defaultChild);
        const stage = resourceOf(built, built.stack.restApi.api.deploymentStage) as Resource & { DependsOn: string[] };

        // Act
        const group = resourceOf(built, built.stack.restApi.executionLogs);

        // Assess
        expect(group.Properties.LogGroupName).toEqual({
          'Fn::Join': ['', ['API-Gateway-Execution-Logs_', { Ref: restApiId }, `/${built === prod ? 'prod' : 'dev'}`]],
        });
        expect(group.Properties.RetentionInDays).toBe(built === prod ? 90 : 14);
        expect(stage.DependsOn).toContain(logicalId(built.stack, built.stack.restApi.executionLogs.node.defaultChild));
      }
      expect(resourceOf(dev, dev.stack.restApi.executionLogs).DeletionPolicy).toBe('Delete');
      expect(resourceOf(prod, prod.stack.restApi.executionLogs).DeletionPolicy).toBe('RetainExceptOnCreate');
    });
  });

  describe('data', () => {
    it('creates the on-demand table with PITR and TTL, destroyable outside prod', () => {
      // Act
      const [table] = Object.values(dev.template.findResources('AWS::DynamoDB::Table'));

      // Assess
      expect(table.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
        DeletionProtectionEnabled: false,
      });
      expect(table.Properties.GlobalSecondaryIndexes.map((index: { IndexName: string }) => index.IndexName)).toEqual(['outbox']);
      expect(table.DeletionPolicy).toBe('Delete');
    });

    it('keeps media in a private, encrypted, TLS-only, unversioned bucket whose objects expire with the message content retention', () => {
      // Act
      const bucketOf = (built: Built) => resourceOf(built, built.stack.media);
      const [policy] = Object.values(dev.template.findResources('AWS::S3::BucketPolicy'));
      const expirations = (built: Built) =>
        (bucketOf(built).Properties.LifecycleConfiguration.Rules as { ExpirationInDays?: number }[]).flatMap((rule) => rule.ExpirationInDays ?? []);

      // Assess
      expect(bucketOf(dev).Properties).toMatchObject({
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      });
      expect(bucketOf(dev).Properties.VersioningConfiguration).toBeUndefined();
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
      expect(expirations(dev)).toEqual([]);
      expect(expirations(prod)).toEqual([30]);
      expect(expirations(custom)).toEqual([2]);
      expect(bucketOf(dev).DeletionPolicy).toBe('Delete');
    });

    it('retains the table with deletion protection in prod, and every stateful resource except after a failed create', () => {
      // Prepare
      const stateful = ['AWS::DynamoDB::Table', 'AWS::SQS::Queue', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup', 'AWS::S3::Bucket'];

      // Act
      const [table] = Object.values(prod.template.findResources('AWS::DynamoDB::Table'));
      const resources = Object.values(prod.resources).filter((r) => stateful.includes(r.Type));

      // Assess
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
      expect(resources.length).toBeGreaterThan(stateful.length);
      for (const resource of resources) {
        // RetainExceptOnCreate: a rollback of the first deploy deletes it (the named webhook secret would block the retry).
        expect(resource.DeletionPolicy, resource.Type).toBe('RetainExceptOnCreate');
        expect(resource.UpdateReplacePolicy, resource.Type).toBe('Retain');
      }
    });

    it('redrives the automation queue to an encrypted, SSL-only DLQ after 5 receives', () => {
      // Prepare
      const dlqId = logicalId(dev.stack, dev.stack.automation.deadLetterQueue.node.defaultChild);
      const queueId = logicalId(dev.stack, dev.stack.automation.queue.node.defaultChild);

      // Act
      const queue = dev.resources[queueId];
      const policies = Object.values(dev.template.findResources('AWS::SQS::QueuePolicy'));

      // Assess
      expect(queue.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 });
      for (const id of [queueId, dlqId]) expect(dev.resources[id].Properties.SqsManagedSseEnabled).toBe(true);
      // One SSL-only policy per queue: the automation queue, the event queue and the event lane queue, each with its DLQ.
      expect(policies).toHaveLength(6);
      for (const policy of policies) {
        expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
          expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        );
      }
    });

    it('feeds the deliverer new events from a FIFO queue (high throughput, no batching window) and wake-ups from a standard one, each with its DLQ, and re-drives every minute', () => {
      // Prepare
      const { events } = dev.stack;
      const [queueId, dlqId, laneId, laneDlqId] = [events.queue, events.deadLetterQueue, events.laneQueue, events.laneDeadLetterQueue].map((queue) =>
        logicalId(dev.stack, queue.node.defaultChild),
      );
      const delivererId = logicalId(dev.stack, dev.stack.functions.get('EventDeliverer')!.function.node.defaultChild);
      const redriveId = logicalId(dev.stack, dev.stack.functions.get('EventRedrive')!.function.node.defaultChild);
      // Act
      const mappings = Object.values(dev.template.findResources('AWS::Lambda::EventSourceMapping')).filter(
        (m) => m.Properties.FunctionName.Ref === delivererId,
      );
      const mappingOf = (id: string) => mappings.find((m) => m.Properties.EventSourceArn['Fn::GetAtt'][0] === id)?.Properties;
      const rules = Object.values(dev.template.findResources('AWS::Events::Rule')).filter((r) => r.Properties.Targets[0].Arn['Fn::GetAtt'][0] === redriveId);
      // Assess
      expect(dev.resources[queueId].Properties).toMatchObject({
        FifoQueue: true,
        DeduplicationScope: 'messageGroup',
        FifoThroughputLimit: 'perMessageGroupId',
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 },
      });
      expect(dev.resources[dlqId].Properties.FifoQueue).toBe(true);
      expect(dev.resources[laneId].Properties.FifoQueue).toBeUndefined();
      expect(dev.resources[laneId].Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [laneDlqId, 'Arn'] }, maxReceiveCount: 5 });
      expect(mappings).toHaveLength(2);
      expect(mappingOf(queueId)).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
      expect(mappingOf(queueId)?.MaximumBatchingWindowInSeconds).toBeUndefined();
      expect(mappingOf(laneId)).toMatchObject({ BatchSize: 10, MaximumBatchingWindowInSeconds: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
      expect(rules).toHaveLength(1);
      expect(rules[0].Properties.ScheduleExpression).toBe('rate(1 minute)');
    });

    it('keeps new events (whose bodies carry message content) in the event queue and its DLQ no longer than the content retention', () => {
      // Prepare
      const retentionOf = (built: Built) => {
        const { events } = built.stack;
        return [events.queue, events.deadLetterQueue].map(
          (queue) => built.resources[logicalId(built.stack, queue.node.defaultChild)].Properties.MessageRetentionPeriod,
        );
      };
      // Act
      const [kept, bounded] = [retentionOf(dev), retentionOf(custom)];
      // Assess: 4 and 14 days without retention; 2 days with messageContentRetentionDays 2
      expect(kept).toEqual([4 * 86_400, 14 * 86_400]);
      expect(bounded).toEqual([2 * 86_400, 2 * 86_400]);
    });

    it('gives every function that hands events over both event queues: the URLs and SendMessage on exactly those two', () => {
      // Prepare
      const { events } = dev.stack;
      const queueArns = [events.queue, events.laneQueue].map((queue) => ({ 'Fn::GetAtt': [logicalId(dev.stack, queue.node.defaultChild), 'Arn'] }));
      const senders = [...dev.stack.functions.values()].filter((fn) => fn.spec.sendsToEventQueue);
      // Act
      const granted = senders.map((fn) => {
        const resource = resourceOf(dev, fn.function);
        const statements = statementsOf(dev, fn);
        return {
          variables: Object.keys(resource.Properties.Environment.Variables)
            .filter((name: string) => name.startsWith('EVENT_'))
            .sort(),
          sqs: statements
            .filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'))
            .map((statement) => statement.Resource)
            .filter((resource) => JSON.stringify(resource).includes('Event')),
        };
      });
      // Assess
      expect(senders.length).toBeGreaterThan(5);
      for (const grant of granted) expect(grant).toEqual({ variables: ['EVENT_LANE_QUEUE_URL', 'EVENT_QUEUE_URL'], sqs: [queueArns] });
    });

    it('derives the queue visibility timeout from the runner timeout: 6 × timeout + batching window', () => {
      // Prepare
      const queueOf = (built: Built) => resourceOf(built, built.stack.automation.queue);
      const runnerOf = (built: Built) => resourceOf(built, built.stack.functions.get('AutomationRunner')!.function);
      const [mapping] = Object.values(custom.template.findResources('AWS::Lambda::EventSourceMapping'));

      // Act
      const timeouts = [dev, custom].map((built) => [runnerOf(built).Properties.Timeout, queueOf(built).Properties.VisibilityTimeout]);

      // Assess
      expect(timeouts).toEqual([
        [60, 6 * 60 + AUTOMATION_BATCH.windowSeconds],
        [300, 6 * 300 + AUTOMATION_BATCH.windowSeconds],
      ]);
      expect(mapping.Properties).toMatchObject({ BatchSize: AUTOMATION_BATCH.size, MaximumBatchingWindowInSeconds: AUTOMATION_BATCH.windowSeconds });
    });

    it('refuses timeouts and sizes no deploy could take, naming the setting', () => {
      // Prepare
      const load = (context: Record<string, string>) => () => loadStageConfig(new App({ context }));

      // Act / Assess
      expect(load({ runnerTimeoutSeconds: '901' })).toThrow(/"runnerTimeoutSeconds" must be whole seconds from 1 to 900/);
      expect(load({ runnerTimeoutSeconds: '0' })).toThrow(/runnerTimeoutSeconds/);
      expect(load({ runnerTimeoutSeconds: '1.5' })).toThrow(/runnerTimeoutSeconds/);
      expect(load({ lambdaTimeoutSeconds: '30' })).toThrow(/"lambdaTimeoutSeconds" must be whole seconds from 1 to 29 \(API Gateway answers 504/);
      expect(load({ authorizerTimeoutSeconds: '60' })).toThrow(/authorizerTimeoutSeconds/);
      expect(load({ lambdaMemoryMb: '64' })).toThrow(/"lambdaMemoryMb" must be whole megabytes from 128 to 10240/);
      expect(load({ wafIpLimit: '5' })).toThrow(/"wafIpLimit" must be a whole number of at least 10/);
      expect(load({ webhookThrottleRate: '0' })).toThrow(/webhookThrottleRate/);
      expect(load({ runnerTimeoutSeconds: '900' })().automationVisibilityTimeout.toSeconds()).toBe(5401);
    });

    it("refuses a route row's own sizing that no deploy could take, naming the route, and takes the stage's where the row has none", () => {
      // Prepare
      const stage = { memorySize: 256, timeout: Duration.seconds(10) };
      const size = (row: { memoryMb?: number; timeoutSeconds?: number }) => () => routeSizing({ name: 'ContactsImport', ...row }, stage);

      // Act / Assess
      expect(size({ timeoutSeconds: 30 })).toThrow(/Route ContactsImport: "timeoutSeconds" must be whole seconds from 1 to 29/);
      expect(size({ timeoutSeconds: 0 })).toThrow(/timeoutSeconds/);
      expect(size({ memoryMb: 64 })).toThrow(/Route ContactsImport: "memoryMb" must be whole megabytes from 128 to 10240/);
      expect(size({ memoryMb: 1024, timeoutSeconds: 29 })()).toEqual({ memorySize: 1024, timeout: Duration.seconds(29) });
      expect(size({})()).toEqual(stage);
    });

    it('feeds the automation runner from the queue with partial batch responses, and re-drives the outbox every minute', () => {
      // Prepare
      const queueId = logicalId(dev.stack, dev.stack.automation.queue.node.defaultChild);
      const runnerId = logicalId(dev.stack, dev.stack.functions.get('AutomationRunner')!.function.node.defaultChild);
      const redrive = dev.stack.functions.get('AutomationRedrive')!;
      const redriveId = logicalId(dev.stack, redrive.function.node.defaultChild);
      // Act
      const mappings = Object.values(dev.template.findResources('AWS::Lambda::EventSourceMapping'));
      const rules = Object.values(dev.template.findResources('AWS::Events::Rule'));
      const redriveStatements = Object.values(dev.resources)
        .filter(
          (r) =>
            r.Type === 'AWS::IAM::Policy' &&
            r.Properties.Roles.some((ref: { Ref: string }) => ref.Ref === logicalId(dev.stack, redrive.function.role!.node.defaultChild)),
        )
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      // Assess
      const runnerMappings = mappings.filter((m) => m.Properties.FunctionName.Ref === runnerId);
      const redriveRules = rules.filter((r) => r.Properties.Targets[0].Arn['Fn::GetAtt'][0] === redriveId);
      expect(runnerMappings).toHaveLength(1);
      expect(runnerMappings[0].Properties).toMatchObject({
        FunctionName: { Ref: runnerId },
        EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      expect(redriveRules).toHaveLength(1);
      expect(redriveRules[0].Properties.ScheduleExpression).toBe('rate(1 minute)');
      expect(redriveStatements).toContainEqual(
        expect.objectContaining({
          Action: 'dynamodb:Query',
          Resource: expect.objectContaining({ 'Fn::Join': expect.arrayContaining([expect.arrayContaining(['/index/outbox'])]) }),
        }),
      );
    });

    it('runs the message-content sweep every hour, reading the outbox index (its RETAIN# shards)', () => {
      // Prepare
      const sweep = dev.stack.functions.get('MessageContentSweep')!;
      const sweepId = logicalId(dev.stack, sweep.function.node.defaultChild);
      // Act
      const rules = Object.values(dev.template.findResources('AWS::Events::Rule')).filter(
        (rule) => JSON.stringify(rule.Properties.Targets[0].Arn) === JSON.stringify({ 'Fn::GetAtt': [sweepId, 'Arn'] }),
      );
      // Assess
      expect(rules).toHaveLength(1);
      expect(rules[0].Properties.ScheduleExpression).toMatch(/^rate\((1 hour|60 minutes)\)$/);
      expect(statementsOf(dev, sweep)).toContainEqual(
        expect.objectContaining({
          Action: 'dynamodb:Query',
          Resource: expect.objectContaining({ 'Fn::Join': expect.arrayContaining([expect.arrayContaining(['/index/outbox'])]) }),
        }),
      );
    });

    it('gives only the functions that page the cursor-signing key, read at run time: its ARN in the environment, never its value', () => {
      // Prepare
      const variables = (built: Built, name: string) =>
        built.resources[logicalId(built.stack, built.stack.functions.get(name)!.function.node.defaultChild)].Properties.Environment.Variables;
      const signers = [...API_ROUTES, ...PORTAL_ROUTES].filter((route) => route.signsCursors).map((route) => route.name);
      const keyId = Object.entries(dev.resources).find(([id, r]) => r.Type === 'AWS::SecretsManager::Secret' && id.startsWith('CursorSigningKey'))![0];
      // Act
      const withKey = [...dev.stack.functions.keys()].filter((name) => variables(dev, name).CURSOR_SIGNING_KEY_SECRET_ARN !== undefined);
      const withValue = [...dev.stack.functions.keys()].filter((name) =>
        JSON.stringify(variables(dev, name)).includes(`{{resolve:secretsmanager:",{"Ref":"${keyId}`),
      );
      const readers = [...dev.stack.functions.entries()]
        .filter(([, fn]) => statementsOf(dev, fn).some((s) => JSON.stringify(s.Resource) === JSON.stringify({ Ref: keyId })))
        .map(([name, fn]) => [name, actionsOf(statementsOf(dev, fn).filter((s) => JSON.stringify(s.Resource) === JSON.stringify({ Ref: keyId })))]);
      const withRetention = [...prod.stack.functions.keys()].filter((name) => variables(prod, name).MESSAGE_CONTENT_RETENTION_DAYS === '30');
      // Assess
      expect(signers).toEqual(expect.arrayContaining(['ChatMessagesList', 'PortalWebhooksDeliveries']));
      expect(withKey.sort()).toEqual([...signers].sort());
      expect(variables(dev, 'ChatMessagesList').CURSOR_SIGNING_KEY_SECRET_ARN).toEqual({ Ref: keyId });
      expect(withValue).toEqual([]);
      expect([...dev.stack.functions.keys()].filter((name) => variables(dev, name).CURSOR_SIGNING_KEY !== undefined)).toEqual([]);
      expect(readers.sort()).toEqual([...signers].sort().map((name) => [name, ['secretsmanager:GetSecretValue']]));
      expect(withRetention.sort()).toEqual([...prod.stack.functions.keys()].sort());
      expect([...dev.stack.functions.keys()].filter((name) => variables(dev, name).MESSAGE_CONTENT_RETENTION_DAYS !== undefined)).toEqual([]);
    });

    it('gives only the functions that hash numbers the suppression key, read at run time: its ARN in the environment, never its value', () => {
      // Prepare
      const variables = (name: string) =>
        dev.resources[logicalId(dev.stack, dev.stack.functions.get(name)!.function.node.defaultChild)].Properties.Environment.Variables;
      const hashers = [...dev.stack.functions.entries()].filter(([, fn]) => fn.spec.hashesNumbers).map(([name]) => name);
      const keyId = Object.entries(dev.resources).find(([id, r]) => r.Type === 'AWS::SecretsManager::Secret' && id.startsWith('SuppressionKey'))![0];
      const onKey = (statement: { Resource: unknown }) => JSON.stringify(statement.Resource) === JSON.stringify({ Ref: keyId });
      // Act
      const withKey = [...dev.stack.functions.keys()].filter((name) => variables(name).SUPPRESSION_KEY_SECRET_ARN !== undefined);
      const withValue = [...dev.stack.functions.keys()].filter((name) =>
        JSON.stringify(variables(name)).includes(`{{resolve:secretsmanager:",{"Ref":"${keyId}`),
      );
      const readers = [...dev.stack.functions.entries()]
        .filter(([, fn]) => statementsOf(dev, fn).some(onKey))
        .map(([name, fn]) => [name, actionsOf(statementsOf(dev, fn).filter(onKey))]);
      // Assess
      expect(hashers).toEqual(expect.arrayContaining(['ContactsManage', 'ContactsDelete', 'WhatsAppWebhook', 'EventDeliverer']));
      expect(hashers).not.toContain('Authorizer');
      expect(withKey.sort()).toEqual([...hashers].sort());
      expect(variables('ContactsManage').SUPPRESSION_KEY_SECRET_ARN).toEqual({ Ref: keyId });
      expect(withValue).toEqual([]);
      expect([...dev.stack.functions.keys()].filter((name) => variables(name).SUPPRESSION_KEY !== undefined)).toEqual([]);
      expect(readers.sort()).toEqual([...hashers].sort().map((name) => [name, ['secretsmanager:GetSecretValue']]));
    });

    it('gives the table the sparse outbox index and no other', () => {
      // Act / Assess
      dev.template.hasResourceProperties('AWS::DynamoDB::Table', {
        GlobalSecondaryIndexes: [
          {
            IndexName: 'outbox',
            KeySchema: [
              { AttributeName: 'outboxShard', KeyType: 'HASH' },
              { AttributeName: 'outboxAt', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        ],
      });
    });

    it('generates the webhook secret under the stage prefix', () => {
      // Act / Assess
      dev.template.hasResourceProperties('AWS::SecretsManager::Secret', {
        Name: 'workspace-api/dev/webhook',
        GenerateSecretString: { GenerateStringKey: 'verifyToken', SecretStringTemplate: JSON.stringify({ appSecret: '' }) },
      });
    });
  });

  describe('monitoring and outputs', () => {
    it('alarms on the system, not on customers: API 5XX rate, authorizer failures, DLQ depth, queue and outbox age, Lambda throttles and concurrency, per-function errors and p99 duration', () => {
      // Prepare: an integrator's failing receiver and a client over its quota are dashboard metrics, not alarms
      const functionNames = [...dev.stack.functions.keys()];
      const names = [
        'Api5xxRate',
        'AuthorizerFailures',
        'AutomationDlqDepth',
        'EventDlqDepth',
        'EventLaneDlqDepth',
        'AutomationQueueAge',
        'EventQueueAge',
        'EventLaneQueueAge',
        'EventOutboxAge',
        'LambdaThrottles',
        'LambdaConcurrency',
        ...functionNames.filter((n) => n !== SUPPORT_FUNCTIONS.authorizer.name).map((n) => `${n}Errors`),
        ...functionNames.map((n) => `${n}P99Duration`),
      ];

      // Act
      const alarms = Object.values(dev.monitoring.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties.AlarmName);

      // Assess
      expect(alarms.sort()).toEqual(names.map((n) => `workspace-api-dev-alarm-${n}`).sort());
      dev.monitoring.hasResourceProperties('AWS::Logs::MetricFilter', { FilterPattern: '{ $.status = "429" }' });
      dev.monitoring.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
      dev.monitoring.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'workspace-api-dev-monitoring' });
    });

    it('caps every SQS event source with MaximumConcurrency, so a flood of events or steps cannot take the API\u2019s concurrency', () => {
      for (const built of [dev, prod]) {
        // Act
        const mappings = Object.values(built.template.findResources('AWS::Lambda::EventSourceMapping'));

        // Assess
        expect(mappings.length, built.stack.stackName).toBeGreaterThanOrEqual(3);
        for (const mapping of mappings) expect(mapping.Properties.ScalingConfig?.MaximumConcurrency, built.stack.stackName).toBeGreaterThanOrEqual(2);
      }
    });

    it('alarms on the outbox age from the re-drive\u2019s metric, and on the age of every queue that is not a dead-letter queue', () => {
      // Act
      const alarms = Object.values(dev.monitoring.findResources('AWS::CloudWatch::Alarm'));
      const byName = (name: string) => alarms.find((a) => a.Properties.AlarmName === `workspace-api-dev-alarm-${name}`)!;

      // Assess
      expect(JSON.stringify(byName('EventOutboxAge').Properties)).toContain('"MetricName":"EventOutboxOldestDueAge","Namespace":"WorkspaceApi"');
      for (const name of ['AutomationQueueAge', 'EventQueueAge', 'EventLaneQueueAge'])
        expect(JSON.stringify(byName(name).Properties), name).toContain('"MetricName":"ApproximateAgeOfOldestMessage"');
    });

    it('alarms on an event the re-drive finds due again after handing it over: the threshold is the re-drive\u2019s repeat, over enough periods to hold two of its passes', () => {
      // Prepare: a stuck item shows in the metric once per EVENT_REDRIVE_REPEAT_MS (the passes between report 0), not once a period
      const outboxAge = Object.values(dev.monitoring.findResources('AWS::CloudWatch::Alarm')).find(
        (a) => a.Properties.AlarmName === 'workspace-api-dev-alarm-EventOutboxAge',
      )!.Properties;

      // Assess: seen a second time (≥ one repeat old) in 2 of 3 periods, each period at least a repeat long; no data is no alarm
      expect(outboxAge).toMatchObject({
        Threshold: EVENT_REDRIVE_REPEAT_MS,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        TreatMissingData: 'notBreaching',
      });
      // The metric (with its label, rendered as a metric query): the maximum over periods of at least a repeat
      const { Stat, Period } = outboxAge.Metrics[0].MetricStat;
      expect(Stat).toBe('Maximum');
      expect(Period * 1000).toBeGreaterThanOrEqual(EVENT_REDRIVE_REPEAT_MS);
    });

    it('keeps the alarms, metric filters and the dashboard in a nested stack of their own, fed by parameters (no exports)', () => {
      for (const built of [dev, prod]) {
        // Act
        const nested = Object.values(built.template.findResources('AWS::CloudFormation::Stack'));
        const inOwnStack = ['AWS::CloudWatch::Alarm', 'AWS::CloudWatch::Dashboard', 'AWS::Logs::MetricFilter'].map(
          (type) => Object.keys(built.template.findResources(type)).length,
        );

        // Assess
        expect(nested, built.stack.stackName).toHaveLength(1);
        expect(inOwnStack, built.stack.stackName).toEqual([0, 0, 0]);
        expect(Object.keys(built.monitoring.findResources('AWS::CloudWatch::Alarm')).length).toBeGreaterThan(60);
        expect(Object.keys(built.template.toJSON().Outputs ?? {}).filter((name) => name.startsWith('ExportsOutput'))).toEqual([]);
        expect(JSON.stringify(built.template.toJSON())).not.toContain('Fn::ImportValue');
      }
    });

    it('alarms on authorizer failures from the access log, never on rejected keys (the authorizer throws Unauthorized)', () => {
      // Prepare
      const filters = Object.values(dev.monitoring.findResources('AWS::Logs::MetricFilter'));
      const [nested] = Object.values(dev.template.findResources('AWS::CloudFormation::Stack'));

      // Act
      const failures = filters.find((f) => f.Properties.MetricTransformations[0].MetricName === 'AuthorizerFailures')!;
      const [alarm] = Object.values(
        dev.monitoring.findResources('AWS::CloudWatch::Alarm', { Properties: { AlarmName: 'workspace-api-dev-alarm-AuthorizerFailures' } }),
      );
      const logGroup = nested.Properties.Parameters[failures.Properties.LogGroupName.Ref];

      // Assess
      expect(failures.Properties.FilterPattern).toBe(`{ ${AUTHORIZER_FAILURE_TYPES.map((type) => `($.errorType = "${type}")`).join(' || ')} }`);
      expect(failures.Properties.FilterPattern).not.toContain('UNAUTHORIZED');
      expect(logGroup).toEqual({ Ref: logicalId(dev.stack, dev.stack.restApi.accessLogs.node.defaultChild) });
      expect(ACCESS_LOG_FIELDS.errorType).toBe('$context.error.responseType');
      expect(alarm.Properties.Threshold).toBe(1);
      expect(JSON.stringify(alarm.Properties.Metrics)).toContain('{"MetricName":"AuthorizerFailures","Namespace":"WorkspaceApi/dev"}');
    });

    it('graphs the functions\u2019 EMF counters of its own stage only, by the dimensions the functions write', () => {
      // Act
      const [dashboard] = Object.values(dev.monitoring.findResources('AWS::CloudWatch::Dashboard'));
      const body = JSON.stringify(dashboard.Properties.DashboardBody);

      // Assess
      expect(body).toContain(
        String.raw`SEARCH('{WorkspaceApi,service,stage,messageType} MetricName=\\\"MessagesSent\\\" service=\\\"workspace-api\\\" stage=\\\"dev\\\"'`,
      );
      expect(body).toContain(String.raw`[\"WorkspaceApi\",\"AutomationsTriggered\",\"service\",\"workspace-api\",\"stage\",\"dev\"`);
    });

    it('outputs the API URL, table name, usage plan id, the queue URLs, the portal user pool, the media bucket and the webhook secret, each described', () => {
      // Act
      const outputs = dev.template.toJSON().Outputs;

      // Assess
      expect(Object.keys(outputs)).toEqual([
        'ApiUrl',
        'TableName',
        'UsagePlanId',
        'QueueUrl',
        'EventQueueUrl',
        'EventLaneQueueUrl',
        'UserPoolId',
        'UserPoolClientId',
        'MediaBucketName',
        'WebhookSecretName',
      ]);
      for (const [name, output] of Object.entries<{ Description?: string }>(outputs)) expect(output.Description, name).toMatch(/\w/);
      expect(JSON.stringify(outputs.ApiUrl.Value)).toMatch(/\/api\/workspace\/v1"\]\]\}$/);
      expect(outputs.UsagePlanId.Value).toEqual({ Ref: logicalId(dev.stack, dev.stack.restApi.usagePlan.node.defaultChild) });
    });
  });

  describe('cdk-nag', () => {
    it('passes the AwsSolutions pack with every finding acknowledged with a reason', () => {
      for (const built of [dev, prod]) {
        // Act
        const report = new AwsSolutionsChecks().validateScope(built.app);

        // Assess
        expect(report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
      }
    });
  });
});
