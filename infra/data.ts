/**
 * Stateful resources: the single table, the automation queue with its dead-letter
 * queue and scheduler role, and the webhook secret.
 */
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { TABLE_KEY, TTL_ATTRIBUTE } from '../shared/data/table-schema';
import type { StageConfig } from './config';

/** The single table: same key schema as the local store (shared/data/table-schema.ts), no GSIs. */
export function createTable(scope: Construct, config: StageConfig): Table {
  const retain = config.removalPolicy === RemovalPolicy.RETAIN;
  return new Table(scope, 'Table', {
    partitionKey: { name: TABLE_KEY.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE_KEY.sortKey, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // Rate-limit windows and idempotency records expire on their own.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    deletionProtection: retain,
    removalPolicy: config.removalPolicy,
  });
}

export interface AutomationQueue {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** Role EventBridge Scheduler assumes to deliver delayed automation steps to the queue. */
  readonly schedulerRole: Role;
  readonly scheduleGroup: ScheduleGroup;
}

/**
 * The automation queue. Short waits use SQS delays; waits beyond SQS's 15 minutes
 * become one-off EventBridge Scheduler schedules in the stage's group, delivered to
 * the same queue with the scheduler role. Messages failing 5 times move to the DLQ.
 */
export function createAutomationQueue(scope: Construct, config: StageConfig): AutomationQueue {
  const deadLetterQueue = new Queue(scope, 'AutomationDlq', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy: config.removalPolicy,
  });
  const queue = new Queue(scope, 'AutomationQueue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    // Longer than the runner's timeout (≤ 60 s), so a message is not redelivered mid-run.
    visibilityTimeout: Duration.minutes(2),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: 5 },
    removalPolicy: config.removalPolicy,
  });

  const scheduleGroup = new ScheduleGroup(scope, 'AutomationSchedules', {
    scheduleGroupName: `${config.resourcePrefix}-automations`,
    removalPolicy: config.removalPolicy,
  });
  const account = Stack.of(scope).account;
  const schedulerRole = new Role(scope, 'AutomationSchedulerRole', {
    description: 'EventBridge Scheduler delivers delayed automation steps to the automation queue',
    // Confused-deputy guard: only schedules of this account may assume the role.
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com').withConditions({
      StringEquals: { 'aws:SourceAccount': account },
    }),
  });
  schedulerRole.addToPolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));

  Validations.of(deadLetterQueue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: 'This queue is the dead-letter queue of the automation queue; it has no DLQ of its own.',
  });
  return { queue, deadLetterQueue, schedulerRole, scheduleGroup };
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
