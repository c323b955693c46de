/**
 * The Workspace messaging API stack: table, automation queue, secrets, one function
 * per route-table row and per support function, the REST API and its monitoring.
 */
import { CfnOutput, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { API_BASE_PATH, API_ROUTES, SUPPORT_FUNCTIONS, type SupportFunction, WEBHOOK_PATH } from '../shared/routes';
import { MonitoringStack } from './alarms';
import { API_METHODS, type PublicRoute, WorkspaceRestApi } from './api';
import { routeSizing, type StageConfig } from './config';
import {
  type AutomationQueue,
  createAutomationQueue,
  createCursorSigningKey,
  createSuppressionKey,
  createEventDelivery,
  createMediaBucket,
  createTable,
  createWebhookSecret,
  type EventDelivery,
} from './data';
import { WorkspaceFunction } from './functions';
import { stageTags } from './tags';
import { createPortalFunctions } from './portal';
import { PortalUserPool } from './user-pool';

export interface WorkspaceApiStackProps extends StackProps {
  readonly config: StageConfig;
}

/** Support functions that declare a `publicPath`: served there without authorizer (GET and POST unless `publicMethods`). */
export function publicSupportFunctions(): (SupportFunction & { readonly publicPath: string })[] {
  return Object.values(SUPPORT_FUNCTIONS).filter((fn): fn is SupportFunction & { publicPath: string } => fn.publicPath !== undefined);
}

export class WorkspaceApiStack extends Stack {
  readonly table: Table;
  readonly automation: AutomationQueue;
  readonly events: EventDelivery;
  /** Inbound media's bytes (infra/data.ts createMediaBucket). */
  readonly media: Bucket;
  readonly restApi: WorkspaceRestApi;
  /** Every function by its route-table or support-function name. */
  readonly functions = new Map<string, WorkspaceFunction>();
  /** The alarms and the dashboard, in a nested stack of their own (infra/alarms.ts). */
  readonly monitoring: MonitoringStack;
  /** The developer portal's users (infra/user-pool.ts). */
  readonly portalUsers: PortalUserPool;

  constructor(scope: Construct, id: string, props: WorkspaceApiStackProps) {
    // Pinned and protected as the stage's settings say (infra/config.ts: env, terminationProtection).
    super(scope, id, {
      description: `Workspace messaging API (${props.config.stage})`,
      env: props.config.env,
      terminationProtection: props.config.terminationProtection,
      ...props,
    });
    const { config } = props;
    for (const [key, value] of Object.entries(stageTags(config.stage))) Tags.of(this).add(key, value);

    this.table = createTable(this, config);
    this.automation = createAutomationQueue(this, config);
    const webhookSecret = createWebhookSecret(this, config);
    this.events = createEventDelivery(this, config);
    this.media = createMediaBucket(this, config);
    this.portalUsers = new PortalUserPool(this, 'PortalUsers', { removalPolicy: config.removalPolicy });
    // Read at run time by the functions whose rows call for them (`signsCursors`, `hashesNumbers`): infra/data.ts runTimeKeysFor.
    const keys = { cursorSigning: createCursorSigningKey(this, config), suppression: createSuppressionKey(this, config) };
    const deps = { config, table: this.table, queue: this.automation.queue, events: this.events, media: this.media, keys };

    const routes = API_ROUTES.map((route) => {
      // contacts/import makes ≈ 2,000 table calls a call: ≈ 1 s of CPU, which 256 MB (≈ 0.15 vCPU) would stretch to ≈ 7 s.
      const sizing = routeSizing(route, config.apiFunction);
      const fn = this.addFunction(new WorkspaceFunction(this, route.name, { ...deps, spec: route, sizing }));
      return { route, handler: fn.function };
    });

    // Every support function gets its function; those with a publicPath also get public routes.
    const publicRoutes: PublicRoute[] = [];
    for (const [key, spec] of Object.entries(SUPPORT_FUNCTIONS)) {
      const isWebhook = spec.publicPath === WEBHOOK_PATH;
      const fn = this.addFunction(
        new WorkspaceFunction(this, spec.name, {
          ...deps,
          spec,
          sizing:
            key === 'authorizer'
              ? config.authorizerFunction
              : spec.consumesQueue || spec.consumesEventQueue || spec.everyMinutes
                ? config.backgroundFunction
                : config.apiFunction,
          environment: isWebhook ? { WEBHOOK_SECRET_ARN: webhookSecret.secretArn } : spec.servesPortalConfig ? this.portalUsers.browserConfig() : undefined,
        }),
      );
      // Only the webhook function may read the webhook's app secret and verify token.
      if (isWebhook) webhookSecret.grantRead(fn.function);
      if (spec.publicPath) publicRoutes.push({ path: spec.publicPath, methods: spec.publicMethods ?? API_METHODS, handler: fn.function });
    }
    const authorizer = this.functions.get(SUPPORT_FUNCTIONS.authorizer.name)!;

    const portal = createPortalFunctions(
      this,
      deps,
      API_ROUTES.map((route) => this.functions.get(route.name)!),
    );
    for (const fn of portal.functions) this.addFunction(fn);
    this.restApi = new WorkspaceRestApi(this, 'Api', {
      config,
      authorizerHandler: authorizer.function,
      routes,
      publicRoutes,
      portal: { userPool: this.portalUsers.userPool, routes: portal.routes },
    });
    portal.grantUsagePlan(this.restApi.usagePlan);

    this.monitoring = new MonitoringStack(this, 'Monitoring', {
      config,
      api: this.restApi.api,
      accessLogs: this.restApi.accessLogs,
      deadLetterQueue: this.automation.deadLetterQueue,
      eventDeadLetterQueues: [this.events.deadLetterQueue, this.events.laneDeadLetterQueue],
      // A lane wake-up may be delayed up to SQS's 15 minutes before it can be received.
      workQueues: [
        { name: 'AutomationQueue', queue: this.automation.queue, maxAgeSeconds: 5 * 60 },
        { name: 'EventQueue', queue: this.events.queue, maxAgeSeconds: 5 * 60 },
        { name: 'EventLaneQueue', queue: this.events.laneQueue, maxAgeSeconds: 20 * 60 },
      ],
      functions: [...this.functions.values()],
    });

    new CfnOutput(this, 'ApiUrl', {
      value: this.restApi.api.urlForPath(API_BASE_PATH),
      description: 'Base URL of the API (`https://…/<stage>/api/workspace/v1`)',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The table: `TABLE_NAME` of the operator CLI' });
    new CfnOutput(this, 'UsagePlanId', {
      value: this.restApi.usagePlan.usagePlanId,
      description: "The usage plan: `USAGE_PLAN_ID` of the operator CLI, which adds every API user's usage-plan key to it",
    });
    new CfnOutput(this, 'QueueUrl', { value: this.automation.queue.queueUrl, description: 'The automation queue (its dead-letter queue alarms)' });
    new CfnOutput(this, 'EventQueueUrl', { value: this.events.queue.queueUrl, description: 'The event queue (FIFO): new events for the deliverer' });
    new CfnOutput(this, 'EventLaneQueueUrl', {
      value: this.events.laneQueue.queueUrl,
      description: "The event lane queue: the deliverer's retries and wake-ups",
    });
    new CfnOutput(this, 'UserPoolId', { value: this.portalUsers.userPool.userPoolId, description: 'The portal user pool: `USER_POOL_ID` of the operator CLI' });
    new CfnOutput(this, 'UserPoolClientId', { value: this.portalUsers.client.userPoolClientId, description: "The portal's app client" });
    new CfnOutput(this, 'MediaBucketName', { value: this.media.bucketName, description: "The media bucket: inbound media's bytes, opened by presigned links" });
    new CfnOutput(this, 'WebhookSecretName', {
      value: config.webhookSecretName,
      description: 'The WhatsApp webhook secret; its `appSecret` is set by the operator (`admin webhook configure`)',
    });
  }

  private addFunction(fn: WorkspaceFunction): WorkspaceFunction {
    this.functions.set(fn.spec.name, fn);
    return fn;
  }
}
