/**
 * One Lambda function per route-table row and per support function, each with its
 * own role and log group, and IAM grants derived from the row's declarations; its code
 * is its bundle from the one build (infra/function-code.ts).
 */
import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { keys } from '../shared/data/keys';
import { OUTBOX_INDEX } from '../shared/data/table-schema';
import { READ_ACTIONS, type RateLimitClass, type SupportFunction } from '../shared/routes';
import { LAMBDA_RUNTIME_NAME } from './bundling';
import { AUTOMATION_BATCH, EVENT_SOURCE_MAX_CONCURRENCY, type FunctionSizing, type StageConfig } from './config';
import { type EventDelivery, type RunTimeKeys, runTimeKeysFor } from './data';
import { functionCode } from './function-code';

export const LAMBDA_RUNTIME: Runtime = (() => {
  const runtime = Runtime.ALL.find((candidate) => candidate.name === LAMBDA_RUNTIME_NAME);
  if (!runtime) throw new Error(`aws-cdk-lib has no Lambda runtime named ${LAMBDA_RUNTIME_NAME}`);
  return runtime;
})();

/** `WS#*#RL#*`: every rate-limit window partition, derived from the key builder itself. */
export const RATE_LIMIT_PARTITION_PATTERN = keys.rateLimitWindow('*', '*', 'any', 0).pk;

/**
 * The partitions (patterns of `dynamodb:LeadingKeys`, derived from the key builders) a
 * function's table writes may reach. Every writer: channels' data, rate-limit windows,
 * chatmid pointers, inbound batches. The key functions (`managesUsagePlanKeys`) instead the
 * workspace's partitions (users, their key lists, the portal audit; `WS#*` holds the rate-limit
 * windows too) and the API-key pointers ({@link KEY_PARTITIONS}).
 * Channel pointers (CHID#, PNID#: which tenant a phone-number id's webhooks reach) no
 * function writes: only the operator CLI creates channels. The tenant cannot be named:
 * one role serves every workspace, so the code keeps tenants apart (shared/data/keys.ts).
 */
export const WRITABLE_PARTITIONS = [
  keys.channelPartition({ workspaceId: '*', channelId: '*' }),
  RATE_LIMIT_PARTITION_PATTERN,
  keys.messageByChatmid('*').pk,
  keys.inboundBatch('*').pk,
];
export const KEY_PARTITIONS = [keys.workspace('*').pk, keys.apiKeyByHash('*').pk, keys.apiKeyById('*').pk];

const onlyPartitions = (patterns: readonly string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...patterns] } });

/**
 * The variables through which the local stack points a function at dynalite, its SQS
 * endpoint (the AWS SDK's service-specific endpoint variable), the sandbox chat
 * network and its webhook secrets; declared (empty) only in a `-c samLocal=true`
 * synthesis, for `sam local --env-vars` to fill.
 */
export const SAM_LOCAL_VARIABLES = {
  DYNAMODB_ENDPOINT: '',
  AWS_ENDPOINT_URL_SQS: '',
  GRAPH_API_BASE_URL: '',
  WHATSAPP_APP_SECRET: '',
  WHATSAPP_VERIFY_TOKEN: '',
  // SAM cannot read the cursor key's secret (its ARN variable is left empty): a local key instead.
  CURSOR_SIGNING_KEY: '',
} as const;

/** The local stack's media settings (scripts/local/media-links.ts), declared (empty) for the media functions under sam local. */
export const SAM_LOCAL_MEDIA_VARIABLES = { MEDIA_DIR: '', MEDIA_URL_BASE: '', MEDIA_SIGNING_KEY: '' } as const;

/** What a function declares about itself: a route-table row or a support function. */
export type FunctionSpec = Omit<SupportFunction, 'publicPath' | 'publicMethods'> & {
  /** API endpoints count each request in the rate limiter (and read their limit from env). */
  readonly rateLimitClass?: RateLimitClass;
  /** webhooks/manage: encrypts integrators' webhook signing secrets. */
  readonly sealsWebhookSecrets?: boolean;
  /** chat/media/get: signs presigned GETs of the media bucket. */
  readonly readsMedia?: boolean;
  /** The pagers: read the cursor-signing key. */
  readonly signsCursors?: boolean;
  /** The portal's key functions: their writes may reach the key partitions ({@link KEY_PARTITIONS}). */
  readonly managesUsagePlanKeys?: boolean;
};

export interface WorkspaceFunctionProps {
  readonly spec: FunctionSpec;
  readonly sizing: FunctionSizing;
  readonly config: StageConfig;
  readonly table: Table;
  readonly queue: Queue;
  /** The event queue and the webhook secrets' key (infra/data.ts createEventDelivery). */
  readonly events?: EventDelivery;
  /** The media bucket (infra/data.ts createMediaBucket): granted to the functions with `readsMedia` or `writesMedia`. */
  readonly media?: Bucket;
  /** The keys read at run time (infra/data.ts runTimeKeysFor): granted to the functions whose spec calls for them. */
  readonly keys?: RunTimeKeys;
  readonly environment?: Record<string, string>;
}

/** A function with its own role and log group, granted exactly what its spec declares. */
export class WorkspaceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly logGroup: LogGroup;
  readonly spec: FunctionSpec;

  constructor(scope: Construct, id: string, props: WorkspaceFunctionProps) {
    super(scope, id);
    const { spec, sizing, config, table, queue } = props;
    this.spec = spec;
    const keys = props.keys && runTimeKeysFor(spec, props.keys);

    this.logGroup = new LogGroup(this, 'Logs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    // Own role instead of the default one: the managed AWSLambdaBasicExecutionRole would
    // allow writing to any log group; this role may write to its own group only.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(role);

    this.function = new LambdaFunction(this, 'Function', {
      code: functionCode(Stack.of(this).stackName, spec.name, spec.staticFiles),
      handler: 'index.handler',
      runtime: LAMBDA_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: sizing.memorySize,
      timeout: sizing.timeout,
      role,
      logGroup: this.logGroup,
      tracing: Tracing.ACTIVE,
      description: `workspace-api ${config.stage}: ${spec.name}`,
      environment: {
        ...(spec.tableActions.length > 0 && { TABLE_NAME: table.tableName }),
        // The EMF metrics' `stage` dimension (shared/observability/metrics.ts): stages sharing an account stay apart.
        STAGE: config.stage,
        POWERTOOLS_SERVICE_NAME: 'workspace-api',
        POWERTOOLS_LOG_LEVEL: config.logLevel,
        ...(spec.rateLimitClass && { [`RATE_LIMIT_${spec.rateLimitClass.toUpperCase()}`]: String(config.rateLimits[spec.rateLimitClass]) }),
        ...(spec.sendsToQueue && { AUTOMATION_QUEUE_URL: queue.queueUrl }),
        // Message writers stamp the expiry, readers hide expired contents, the sweep blanks them.
        ...(config.messageContentRetentionDays > 0 && { MESSAGE_CONTENT_RETENTION_DAYS: String(config.messageContentRetentionDays) }),
        ...(props.events && spec.sendsToEventQueue && { EVENT_QUEUE_URL: props.events.queue.queueUrl, EVENT_LANE_QUEUE_URL: props.events.laneQueue.queueUrl }),
        ...(props.events && (spec.sealsWebhookSecrets || spec.opensWebhookSecrets) && { WEBHOOK_SECRETS_KMS_KEY_ID: props.events.secretsKey.keyArn }),
        ...(props.media && (spec.readsMedia || spec.writesMedia) && { MEDIA_BUCKET: props.media.bucketName }),
        ...keys?.environment,
        ...props.environment,
        ...(config.samLocal && SAM_LOCAL_VARIABLES),
        // Under sam local there is no bucket: media are npm start's files, opened by its gateway's signed links.
        ...(config.samLocal && (spec.readsMedia || spec.writesMedia) && SAM_LOCAL_MEDIA_VARIABLES),
        // Nor the suppression key's: npm start's key instead (scripts/local/suppression-key.ts), so both find the same opt-outs.
        ...(config.samLocal && spec.hashesNumbers && { SUPPRESSION_KEY: '' }),
        // Under sam local the KMS key has no local value: these functions seal and open with npm start's local key
        // instead, and take receivers on this machine as npm start does.
        ...(config.samLocal && (spec.sealsWebhookSecrets || spec.opensWebhookSecrets) && { WEBHOOK_SECRETS_KEY: '', WEBHOOK_ALLOW_LOOPBACK: '' }),
      },
    });

    this.grantTableAccess(role, table);
    keys?.grant(this);
    if (spec.readsSecrets) {
      role.addToPolicy(channelSecretsStatement(this, config));
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${channelSecretsNagArn(this, config)}]`,
        reason:
          'Channel access tokens are one secret per channel, created at runtime by the operator CLI under this prefix; secret ARNs end in a random suffix.',
      });
    }
    if (spec.sendsToQueue) role.addToPolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
    if (spec.consumesQueue) {
      // One step per invocation keeps a slow send from holding back its batch; failures are reported per record.
      this.function.addEventSource(
        new SqsEventSource(queue, {
          batchSize: AUTOMATION_BATCH.size,
          maxBatchingWindow: Duration.seconds(AUTOMATION_BATCH.windowSeconds),
          maxConcurrency: EVENT_SOURCE_MAX_CONCURRENCY.automation,
          reportBatchItemFailures: true,
        }),
      );
    }
    if (props.events) this.grantEvents(spec, props.events);
    if (props.media) this.grantMedia(spec, props.media);
    if (spec.everyMinutes) {
      new Rule(this, 'Schedule', {
        schedule: Schedule.rate(Duration.minutes(spec.everyMinutes)),
        targets: [new LambdaTarget(this.function, { retryAttempts: 2 })],
      });
    }

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: `Pinned to ${LAMBDA_RUNTIME_NAME} (infra/bundling.ts), the runtime the esbuild target and the local stack match; it moves with them.`,
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions.',
    });
  }

  /** The event queue (send, consume) and the secrets key (encrypt for manage, decrypt for the deliverer), as the spec declares. */
  private grantEvents(spec: FunctionSpec, events: EventDelivery): void {
    const role = this.function.role!;
    if (spec.sendsToEventQueue)
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [events.queue.queueArn, events.laneQueue.queueArn] }));
    if (spec.consumesEventQueue) {
      // A FIFO event source takes no batching window (Lambda refuses one).
      this.function.addEventSource(
        new SqsEventSource(events.queue, { batchSize: 10, maxConcurrency: EVENT_SOURCE_MAX_CONCURRENCY.events, reportBatchItemFailures: true }),
      );
      this.function.addEventSource(
        new SqsEventSource(events.laneQueue, {
          batchSize: 10,
          maxBatchingWindow: Duration.seconds(1),
          maxConcurrency: EVENT_SOURCE_MAX_CONCURRENCY.eventLanes,
          reportBatchItemFailures: true,
        }),
      );
    }
    // Exactly the one action each needs: webhooks/manage seals, the deliverer opens.
    if (spec.sealsWebhookSecrets) role.addToPrincipalPolicy(new PolicyStatement({ actions: ['kms:Encrypt'], resources: [events.secretsKey.keyArn] }));
    if (spec.opensWebhookSecrets) role.addToPrincipalPolicy(new PolicyStatement({ actions: ['kms:Decrypt'], resources: [events.secretsKey.keyArn] }));
  }

  /**
   * The media bucket's objects, as the spec declares: GetObject for the functions that sign
   * presigned GETs (a presigned URL carries its signer's permissions), PutObject and
   * DeleteObject for those that store fetched media or erase them. Nothing else: no
   * listing, no bucket-level action.
   */
  private grantMedia(spec: FunctionSpec, bucket: Bucket): void {
    const actions = [...(spec.readsMedia ? ['s3:GetObject'] : []), ...(spec.writesMedia ? ['s3:PutObject', 's3:DeleteObject'] : [])];
    if (actions.length === 0) return;
    const role = this.function.role!;
    role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [bucket.arnForObjects('*')] }));
    const bucketId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnBucket);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
      reason:
        'Media objects are keyed by workspace, channel and media id, all made at run time; the functions reach them only by ids read from their own channel.',
    });
  }

  /**
   * Exactly the table actions the spec lists (its code's calls): reads on the table, writes
   * on the partitions a function may write ({@link WRITABLE_PARTITIONS}); the outbox
   * index's Query for the functions that read it; and an API endpoint's rate-limit count:
   * UpdateItem on rate-limit partitions only (leading key WS#<workspace>#RL#<user>) unless
   * its code updates other items too.
   */
  private grantTableAccess(role: Role, table: Table): void {
    const granted = (actions: readonly string[]) => actions.map((action) => `dynamodb:${action}`);
    const reads = this.spec.tableActions.filter((action) => READ_ACTIONS.includes(action));
    const writes = this.spec.tableActions.filter((action) => !READ_ACTIONS.includes(action));
    if (reads.length > 0) role.addToPolicy(new PolicyStatement({ actions: granted(reads), resources: [table.tableArn] }));
    if (writes.length > 0) {
      const partitions = this.spec.managesUsagePlanKeys ? KEY_PARTITIONS : WRITABLE_PARTITIONS;
      role.addToPolicy(new PolicyStatement({ actions: granted(writes), resources: [table.tableArn], conditions: onlyPartitions(partitions) }));
    }
    if (this.spec.readsOutboxIndex) {
      role.addToPolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/${OUTBOX_INDEX.indexName}`] }));
    }
    if (this.spec.rateLimitClass && !writes.includes('UpdateItem')) {
      role.addToPolicy(
        new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [table.tableArn], conditions: onlyPartitions([RATE_LIMIT_PARTITION_PATTERN]) }),
      );
    }
  }
}

/**
 * The channel secrets' ARN pattern as cdk-nag names it in a finding: pseudo parameters as
 * `<AWS::…>`, the account and region as literals when the stack is pinned to them.
 */
function channelSecretsNagArn(scope: Construct, config: StageConfig): string {
  const { region, account } = Stack.of(scope);
  const literal = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
  return `arn:<AWS::Partition>:secretsmanager:${literal(region, 'Region')}:${literal(account, 'AccountId')}:secret:${config.channelSecretPrefix}*`;
}

/** GetSecretValue on the channel access-token secrets (`workspace-api/<stage>/channel/*`) only. */
function channelSecretsStatement(scope: Construct, config: StageConfig): PolicyStatement {
  const resource = Stack.of(scope).formatArn({
    service: 'secretsmanager',
    resource: 'secret',
    // Secret ARNs end in a random suffix, so a name prefix always needs the wildcard.
    resourceName: `${config.channelSecretPrefix}*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
  return new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [resource] });
}
