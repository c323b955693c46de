/**
 * Alarms on the system and one dashboard: API 5XX rate, authorizer failures, DLQ depth,
 * queue and outbox age, the account's Lambda throttles and concurrency, and errors and p99
 * duration per function. What customers do (clients' 429s, integrators' failing
 * receivers) is on the dashboard, not alarmed. The authorizer rejects a bad key by throwing
 * `Unauthorized`, which Lambda counts as an error, so its Errors metric counts every
 * mistyped key and scanner: its alarm watches the gateway's authorizer failures
 * instead. Alarms notify the optional SNS topic from context `alarmTopicArn`.
 *
 * They live in a nested stack of their own ({@link MonitoringStack}): two alarms per
 * function are the fastest-growing part of the template, and CloudFormation allows 500
 * resources per stack (docs/DEPLOYMENT.md, *Resource budget*). A nested stack deploys and
 * rolls back with its parent, and takes the parent's values as parameters, so no export
 * ties the two together.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  SingleValueWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { FilterPattern, type LogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_REDRIVE_REPEAT_MS, MAX_RECEIVES } from '../shared/config';
import { NAMESPACE as EMF_NAMESPACE, SERVICE as EMF_SERVICE } from '../shared/observability/metrics';
import { SUPPORT_FUNCTIONS } from '../shared/routes';
import { AUTHORIZER_FAILURE_TYPES } from './api';
import { ACCOUNT_CONCURRENCY_LIMIT, type StageConfig } from './config';
import type { WorkspaceFunction } from './functions';

const PERIOD = Duration.minutes(5);

export interface MonitoringProps {
  readonly config: StageConfig;
  readonly api: RestApi;
  readonly accessLogs: LogGroup;
  readonly deadLetterQueue: Queue;
  /** The event queue's and the event lane queue's dead-letter queues (infra/data.ts createEventDelivery). */
  readonly eventDeadLetterQueues?: [Queue, Queue];
  /** Every queue a function consumes (not a dead-letter queue), by alarm name prefix: their oldest message's age alarms. */
  readonly workQueues: ReadonlyArray<{ name: string; queue: Queue; maxAgeSeconds: number }>;
  readonly functions: readonly WorkspaceFunction[];
}

/** Alarm names: `workspace-api-<stage>-alarm-<Alarm>` (docs/DEPLOYMENT.md, *Alarms and dashboard*). */
export const alarmName = (config: StageConfig, alarmId: string) => `${config.resourcePrefix}-alarm-${alarmId}`;

/** The nested stack holding the stage's alarms and dashboard. */
export class MonitoringStack extends NestedStack {
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, { description: `Workspace messaging API (${props.config.stage}): alarms and dashboard` });
    this.monitoring = new Monitoring(this, 'Monitoring', props);
  }
}

export class Monitoring extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { config, api, deadLetterQueue } = props;
    const alarmAction = config.alarmTopicArn ? new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', config.alarmTopicArn)) : undefined;
    const alarm = (alarmId: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1, datapointsToAlarm = evaluationPeriods) => {
      const created = new Alarm(this, alarmId, {
        metric,
        alarmName: alarmName(config, alarmId),
        alarmDescription: description,
        threshold,
        evaluationPeriods,
        datapointsToAlarm,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (alarmAction) created.addAlarmAction(alarmAction);
      this.alarms.push(created);
      return created;
    };

    // 5XXError is 0 or 1 per request, so its average is the error rate.
    const serverErrorRate = api.metricServerError({ statistic: 'Average', period: PERIOD });
    alarm('Api5xxRate', serverErrorRate, 0.05, 'More than 5% of API requests answered 5XX over 5 minutes', 2);

    // API Gateway has no 429 metric: count 429s (edge throttles and the functions' rate limiter) from the access log.
    const throttledMetric = new MetricFilter(this, 'Api429Filter', {
      logGroup: props.accessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: `WorkspaceApi/${config.stage}`,
      metricName: 'Api429Count',
      metricValue: '1',
    }).metric({ statistic: 'Sum', period: PERIOD, label: '429' });
    // Clients over their quota are the limiter working, not a fault of the system: a dashboard metric, no alarm.

    // The gateway's error type, logged per request: a rejected key is UNAUTHORIZED, a failed authorizer one of these.
    const authorizerFailures = new MetricFilter(this, 'AuthorizerFailureFilter', {
      logGroup: props.accessLogs,
      filterPattern: FilterPattern.any(...AUTHORIZER_FAILURE_TYPES.map((type) => FilterPattern.stringValue('$.errorType', '=', type))),
      metricNamespace: `WorkspaceApi/${config.stage}`,
      metricName: 'AuthorizerFailures',
      metricValue: '1',
    }).metric({ statistic: 'Sum', period: PERIOD, label: 'authorizer failures' });
    alarm('AuthorizerFailures', authorizerFailures, 1, 'The authorizer failed (error other than a rejected key, timeout, bad answer): callers got 500');

    // Any message in a dead-letter queue: its consumer failed MAX_RECEIVES times on it.
    const [eventDlq, eventLaneDlq] = props.eventDeadLetterQueues ?? [];
    const deadLetters: Array<[string, Queue | undefined, string]> = [
      ['AutomationDlqDepth', deadLetterQueue, `Automation messages failed ${MAX_RECEIVES} times and wait in the dead-letter queue`],
      [
        'EventDlqDepth',
        eventDlq,
        `New events the deliverer failed ${MAX_RECEIVES} times wait in the dead-letter queue (the event re-drive hands them over again)`,
      ],
      [
        'EventLaneDlqDepth',
        eventLaneDlq,
        `Lane wake-ups the deliverer failed ${MAX_RECEIVES} times wait in the dead-letter queue (a redelivery, or the contact's next event, works those lanes again)`,
      ],
    ];
    const dlqDepths: IMetric[] = [];
    for (const [name, queue, description] of deadLetters) {
      if (!queue) continue;
      const depth = queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD, label: name });
      alarm(name, depth, 1, description);
      dlqDepths.push(depth);
    }
    // Integrators' receivers: an event that failed its last retry (about two days of attempts), from the deliverer's EMF
    // metric. An integrator's endpoint being down is theirs to fix (the subscription shows failingSince): a dashboard metric, no alarm.
    const failedDeliveries = new Metric({
      namespace: EMF_NAMESPACE,
      metricName: 'WebhookDeliveryFailures',
      dimensionsMap: { service: EMF_SERVICE, stage: config.stage, outcome: 'failed' },
      statistic: 'Sum',
      period: PERIOD,
      label: 'webhook deliveries failed for good',
    });

    // Work waiting too long: the oldest message of every queue a function consumes, and the oldest event left in the outbox.
    const queueAges: IMetric[] = [];
    for (const { name, queue, maxAgeSeconds } of props.workQueues) {
      const age = queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: PERIOD, label: name });
      alarm(
        `${name}Age`,
        age,
        maxAgeSeconds,
        `${name}: its oldest message has waited ${maxAgeSeconds / 60}+ minutes (consumers throttled, failing or too few)`,
        2,
      );
      queueAges.push(age);
    }
    // Each re-drive pass (every minute) records the oldest item with a tenant it found due, 0 when none. An item is due
    // 30 s after its event was raised, then, once handed over, only every EVENT_REDRIVE_REPEAT_MS while it stays in the
    // outbox: a value of a repeat or more is an item found due again after a hand-off, and a stuck item reports once a
    // repeat (or a minute later), not once a period. So: periods at least a repeat long (a test holds PERIOD to it), and
    // 2 of 3, which hold two of its reports whatever their phase; a recovered crash (found due once, at 30–90 s) stays below.
    const outboxAge = new Metric({
      namespace: EMF_NAMESPACE,
      metricName: 'EventOutboxOldestDueAge',
      dimensionsMap: { service: EMF_SERVICE, stage: config.stage },
      statistic: 'Maximum',
      period: PERIOD,
      label: 'oldest due outbox event (ms)',
    });
    alarm(
      'EventOutboxAge',
      outboxAge,
      EVENT_REDRIVE_REPEAT_MS,
      `An event is still in the outbox ${EVENT_REDRIVE_REPEAT_MS / 60_000}+ minutes after the re-drive handed it over (the hand-off to the event queue fails, or the deliverer never takes it): reported by the event re-drive, tenant-less status events not counted`,
      3,
      2,
    );

    // The account's Lambda capacity, shared with every other function in it: throttled invocations, and concurrency near the quota.
    const throttles = new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: 'Sum', period: PERIOD, label: 'Lambda throttles (account)' });
    alarm('LambdaThrottles', throttles, 10, '10+ Lambda invocations in the account were throttled in 5 minutes (concurrency quota reached)');
    const concurrency = new Metric({
      namespace: 'AWS/Lambda',
      metricName: 'ConcurrentExecutions',
      statistic: 'Maximum',
      period: PERIOD,
      label: 'concurrent executions (account)',
    });
    const concurrencyThreshold = Math.round(ACCOUNT_CONCURRENCY_LIMIT * 0.8);
    alarm(
      'LambdaConcurrency',
      concurrency,
      concurrencyThreshold,
      `The account's concurrent Lambda executions reached ${concurrencyThreshold} (80% of the default quota)`,
      2,
    );

    const errorWidgets: IMetric[] = [];
    const durationWidgets: IMetric[] = [];
    for (const { spec, function: fn } of props.functions) {
      const isAuthorizer = spec.name === SUPPORT_FUNCTIONS.authorizer.name;
      const errors = fn.metricErrors({ statistic: 'Sum', period: PERIOD, label: isAuthorizer ? `${spec.name} (incl. rejected keys)` : spec.name });
      if (!isAuthorizer) alarm(`${spec.name}Errors`, errors, 1, `${spec.name}: invocations failed (unhandled error or timeout)`);
      const p99 = fn.metricDuration({ statistic: 'p99', period: PERIOD, label: spec.name });
      // Alarm well before the timeout turns slow calls into errors.
      const threshold = Math.round(fn.timeout!.toMilliseconds() * 0.8);
      alarm(`${spec.name}P99Duration`, p99, threshold, `${spec.name}: p99 duration above 80% of its timeout for 15 minutes`, 3);
      errorWidgets.push(errors);
      durationWidgets.push(p99);
    }

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${config.resourcePrefix}-monitoring` });
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'API requests', left: [api.metricCount({ period: PERIOD, statistic: 'Sum' })], width: 8 }),
      new GraphWidget({
        title: 'API errors',
        left: [
          api.metricClientError({ period: PERIOD, statistic: 'Sum' }),
          api.metricServerError({ period: PERIOD, statistic: 'Sum' }),
          throttledMetric,
          authorizerFailures,
        ],
        width: 8,
      }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: [api.metricLatency({ period: PERIOD, statistic: 'p50' }), api.metricLatency({ period: PERIOD, statistic: 'p99' })],
        right: [api.metricIntegrationLatency({ period: PERIOD, statistic: 'p99' })],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Function errors', left: errorWidgets, width: 10 }),
      new GraphWidget({ title: 'Function p99 duration (ms)', left: durationWidgets, width: 10 }),
      new SingleValueWidget({ title: 'Dead-letter queues', metrics: dlqDepths, width: 4 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Queue and outbox age', left: queueAges, right: [outboxAge], width: 8 }),
      new GraphWidget({ title: 'Lambda capacity (account)', left: [concurrency], right: [throttles], width: 8 }),
      new GraphWidget({
        title: 'Customers: 429s and failed webhook deliveries',
        left: [throttledMetric],
        leftAnnotations: [{ value: config.throttleAlarmThreshold, label: 'throttleAlarmThreshold' }],
        right: [failedDeliveries],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(new GraphWidget({ title: 'Messages and automations', left: businessMetrics(config.stage), width: 24 }));
  }
}

/**
 * The functions' EMF counters of this stage only: the same namespace and dimensions as
 * shared/observability/metrics.ts writes (`service`, `stage`, then the metric's own), so another
 * stage in the account never shows here.
 */
export function businessMetrics(stage: string): IMetric[] {
  const byType = (metricName: string, label: string) =>
    new MathExpression({
      expression: `SEARCH('{${EMF_NAMESPACE},service,stage,messageType} MetricName="${metricName}" service="${EMF_SERVICE}" stage="${stage}"', 'Sum', ${PERIOD.toSeconds()})`,
      usingMetrics: {},
      label,
      period: PERIOD,
    });
  return [
    byType('MessagesSent', 'sent'),
    byType('MessagesFailed', 'failed'),
    new Metric({
      namespace: EMF_NAMESPACE,
      metricName: 'AutomationsTriggered',
      dimensionsMap: { service: EMF_SERVICE, stage },
      statistic: 'Sum',
      period: PERIOD,
      label: 'automations triggered',
    }),
  ];
}
