/**
 * Stateful resources: the single table, the automation queue with its dead-letter
 * queue, the webhook secret and the media bucket.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Key } from 'aws-cdk-lib/aws-kms';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { MAX_RECEIVES } from '../shared/config';
import { OUTBOX_INDEX, TABLE_KEY, TTL_ATTRIBUTE } from '../shared/data/table-schema';
import type { StageConfig } from './config';

/** The single table: same key schema and index as the local store (shared/data/table-schema.ts). */
export function createTable(scope: Construct, config: StageConfig): Table {
  const table = new Table(scope, 'Table', {
    partitionKey: { name: TABLE_KEY.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE_KEY.sortKey, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // Rate-limit windows and idempotency records expire on their own.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    // Off for a stage's first deploy (config.protectTable): a failed create must be able to delete the table.
    deletionProtection: config.protectTable,
    removalPolicy: config.removalPolicy,
  });
  // The sparse outbox index: only executions whose next step is not yet queued are in it.
  table.addGlobalSecondaryIndex({
    indexName: OUTBOX_INDEX.indexName,
    partitionKey: { name: OUTBOX_INDEX.partitionKey, type: AttributeType.STRING },
    sortKey: { name: OUTBOX_INDEX.sortKey, type: AttributeType.NUMBER },
    projectionType: ProjectionType.KEYS_ONLY,
  });
  return table;
}

export interface AutomationQueue {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
}

/**
 * The automation queue. Waits use SQS's per-message delay; a wait beyond its 15
 * minutes travels as a chain of 15-minute hops (the runner re-enqueues a message
 * that arrives early), so nothing polls and no schedule is needed. Messages failing
 * MAX_RECEIVES times move to the DLQ.
 */
export function createAutomationQueue(scope: Construct, config: StageConfig): AutomationQueue {
  // 6 × the runner's timeout + the batching window (AWS's rule for SQS event sources):
  // never redelivered mid-run. A failed step is retried after this long.
  const { queue, deadLetterQueue } = queueWithDeadLetters(scope, 'Automation', 'automation queue', config);
  return { queue, deadLetterQueue };
}

/**
 * The WhatsApp webhook's app secret and verify token, as one JSON secret. The verify
 * token is generated; the app secret comes from the Meta app settings and is set by
 * the operator after the first deploy (docs/DEPLOYMENT.md). Until then it is empty
 * and every signature check fails closed.
 */
export function createWebhookSecret(scope: Construct, config: StageConfig): Secret {
  const secret = new Secret(scope, 'WebhookSecret', {
    secretName: config.webhookSecretName,
    description: 'WhatsApp webhook: appSecret (set by the operator) and verifyToken (generated)',
    generateSecretString: {
      secretStringTemplate: JSON.stringify({ appSecret: '' }),
      generateStringKey: 'verifyToken',
      excludePunctuation: true,
      passwordLength: 40,
    },
    removalPolicy: config.removalPolicy,
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason: 'The app secret is issued by Meta and rotated in the Meta app settings; the verify token is rotated together with it by the operator.',
  });
  return secret;
}

/**
 * The key that signs page cursors (shared/domain/cursors.ts): generated once per stage and
 * read at run time by the functions that page (`signsCursors`), cached per container, so
 * it never sits in their environment. It only makes cursors unforgeable; a rotation
 * (docs/DEPLOYMENT.md) keeps the replaced version accepted until the next one.
 */
export function createCursorSigningKey(scope: Construct, config: StageConfig): Secret {
  return generatedHmacKey(
    scope,
    config,
    'CursorSigningKey',
    'Signs the opaque page cursors of list endpoints (HMAC key)',
    'A cursor-signing key protects only page cursors; the operator rotates it with put-secret-value (docs/DEPLOYMENT.md), which needs no Lambda rotation function.',
  );
}

/** The stage's keys that functions read at run time, each generated once per stage. */
export interface RunTimeKeys {
  readonly cursorSigning: ISecret;
  readonly suppression: ISecret;
}

/** Which row flag calls for which key, and the variable its secret's ARN goes in. */
const RUN_TIME_KEYS = [
  { flag: 'signsCursors', key: 'cursorSigning', variable: 'CURSOR_SIGNING_KEY_SECRET_ARN' },
  { flag: 'hashesNumbers', key: 'suppression', variable: 'SUPPRESSION_KEY_SECRET_ARN' },
] as const;

type KeyFlags = { readonly [flag in (typeof RUN_TIME_KEYS)[number]['flag']]?: boolean };

/**
 * Gives a function the run-time keys its row's flags call for (`signsCursors`,
 * `hashesNumbers`): each key's ARN in the environment it returns, never the value (a
 * function's environment is readable with lambda:GetFunctionConfiguration, and a rotation
 * needs no deploy), and `GetSecretValue` on that secret alone once `grant` gets the function.
 */
export function runTimeKeysFor(spec: KeyFlags, keys: RunTimeKeys) {
  const wanted = RUN_TIME_KEYS.filter(({ flag }) => spec[flag]).map(({ key, variable }) => ({ secret: keys[key], variable }));
  return {
    environment: Object.fromEntries(wanted.map(({ secret, variable }) => [variable, secret.secretArn])) as Record<string, string>,
    grant(fn: { readonly function: IFunction }): void {
      for (const { secret } of wanted)
        fn.function.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }));
    },
  };
}

/** A 48-character key CDK generates once per stage, with why it is not rotated (cdk-nag AwsSolutions-SMG4). */
function generatedHmacKey(scope: Construct, config: StageConfig, id: string, description: string, noRotation: string): Secret {
  const secret = new Secret(scope, id, {
    description,
    generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    removalPolicy: config.removalPolicy,
  });
  Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: noRotation });
  return secret;
}

export interface EventDelivery {
  /** Feeds the event deliverer new events: FIFO, one message group per contact, so a contact's events arrive in order. */
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** Feeds it lanes' wake-ups: retries by per-message delay (hops past 15 minutes), lease ends, redeliveries. */
  readonly laneQueue: Queue;
  readonly laneDeadLetterQueue: Queue;
  /** Encrypts integrators' webhook signing secrets (a KMS-encrypted attribute in the table). */
  readonly secretsKey: Key;
}

/**
 * The event queues with their DLQs, and the key of the webhook signing secrets. New
 * events go to a FIFO queue grouped by contact (high-throughput mode: deduplication and
 * throughput per message group), as a standard queue may hand a contact's later event to
 * one deliverer while an earlier one still waits for another; a FIFO queue takes no
 * per-message delay, so the lanes' wake-ups travel on a standard queue. A message the
 * deliverer fails MAX_RECEIVES times (its own failures, not a receiver's: those are retried by the
 * schedule through delayed wake-ups) goes to its DLQ, which alarms.
 */
export function createEventDelivery(scope: Construct, config: StageConfig): EventDelivery {
  // As the automation queue: 6 × the deliverer's timeout (the background functions' sizing) + the batching window.
  // New events' bodies carry message content (message.received): with a content retention they stay in the queue and
  // its DLQ no longer than it. Nothing is lost when one expires: its events stay in the outbox until the deliverer has
  // recorded them, and the re-drive hands them over again (docs/EVENTS.md).
  const contentRetention = config.messageContentRetentionDays > 0 ? Duration.days(config.messageContentRetentionDays) : undefined;
  const { queue, deadLetterQueue } = queueWithDeadLetters(scope, 'Event', 'event queue', config, { fifo: true, maxRetention: contentRetention });
  const lanes = queueWithDeadLetters(scope, 'EventLane', 'event lane queue', config);
  const secretsKey = new Key(scope, 'WebhookSecretsKey', {
    description: "workspace-api: integrators' webhook signing secrets",
    enableKeyRotation: true,
    removalPolicy: config.removalPolicy,
  });
  return { queue, deadLetterQueue, laneQueue: lanes.queue, laneDeadLetterQueue: lanes.deadLetterQueue, secretsKey };
}

/**
 * An encrypted, TLS-only queue whose messages move to its dead-letter queue after
 * MAX_RECEIVES (shared/config.ts) receives; the visibility timeout is 6 × the background functions' timeout + the
 * batching window (config.automationVisibilityTimeout), so a message is never
 * redelivered while its consumer still runs. Construct ids: `<name>Queue`, `<name>Dlq`.
 * A FIFO queue (and its DLQ, which must be FIFO too) runs in high-throughput mode.
 * Messages are kept 4 days, 14 in the DLQ, or `maxRetention` when shorter.
 */
function queueWithDeadLetters(
  scope: Construct,
  name: string,
  purpose: string,
  config: StageConfig,
  options: { fifo?: boolean; maxRetention?: Duration } = {},
): { queue: Queue; deadLetterQueue: Queue } {
  const retention = (days: number) =>
    options.maxRetention && options.maxRetention.toSeconds() < Duration.days(days).toSeconds() ? options.maxRetention : Duration.days(days);
  const fifo = options.fifo
    ? { fifo: true, deduplicationScope: DeduplicationScope.MESSAGE_GROUP, fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID }
    : {};
  const deadLetterQueue = new Queue(scope, `${name}Dlq`, {
    ...(options.fifo && { fifo: true }),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: retention(14),
    removalPolicy: config.removalPolicy,
  });
  const queue = new Queue(scope, `${name}Queue`, {
    ...fifo,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: config.automationVisibilityTimeout,
    retentionPeriod: retention(4),
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVES },
    removalPolicy: config.removalPolicy,
  });
  Validations.of(deadLetterQueue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is the dead-letter queue of the ${purpose}; it has no DLQ of its own.`,
  });
  return { queue, deadLetterQueue };
}

/**
 * The key of the opt-outs' number hashes (shared/data/suppression.ts): generated once per
 * stage and resolved into every function's environment at deploy time (all that write or
 * check an opt-out: sends, contacts/manage and import, the chat webhook, the automation
 * runner). Unlike the cursor key it must never change: a new key would orphan every
 * suppression record, so opted-out numbers whose contact was erased could be messaged.
 */
export function createSuppressionKey(scope: Construct, config: StageConfig): Secret {
  return generatedHmacKey(
    scope,
    config,
    'SuppressionKey',
    'Keys the hashes of opted-out numbers kept after an erasure (HMAC key)',
    'A rotation keeps records found only until the next one (shared/data/number-hash.ts); the operator rotates it with put-secret-value (docs/DEPLOYMENT.md), which needs no Lambda rotation function.',
  );
}

/**
 * The media bucket (shared/media/media-store.ts): inbound media's bytes under
 * `{workspace}/{channel}/{mediaId}`, read only through presigned GETs that chat/media/get
 * signs. Private (every public-access block on, ACLs off), encrypted at rest (SSE-S3:
 * a presigned GET then needs no key grant) and TLS-only. Unversioned on purpose: an
 * erasure's DeleteObject removes the bytes, where a versioned bucket would keep them as
 * a noncurrent version. With a message content retention the objects expire after as
 * many days (S3 counts from the object's creation, its fetch just after the message
 * arrived, and rounds up to the next midnight UTC), as the sweep blanks the contents.
 * The removal policy is the table's: a destroy stage's bucket goes with its stack when
 * empty (CloudFormation does not delete a bucket that still holds objects).
 */
export function createMediaBucket(scope: Construct, config: StageConfig): Bucket {
  const retention = config.messageContentRetentionDays;
  const bucket = new Bucket(scope, 'MediaBucket', {
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    versioned: false,
    lifecycleRules: [
      { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ...(retention > 0 ? [{ id: 'MessageContentRetention', expiration: Duration.days(retention) }] : []),
    ],
    removalPolicy: config.removalPolicy,
  });
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      "Objects are written only by the stack's functions and read only through presigned links chat/media/get issues, each request of which is in its request log; server access logs would need a second bucket holding the same tenants' access records.",
  });
  return bucket;
}
