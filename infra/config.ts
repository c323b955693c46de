/**
 * Stage settings, read from CDK context (cdk.json or `-c key=value`) with defaults.
 * Every key and default is listed in docs/DEPLOYMENT.md; `-c` values arrive as
 * strings, so numbers and objects are parsed here and nowhere else.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DEFAULT_RATE_LIMITS } from '../shared/config';
import type { RateLimitClass } from '../shared/routes';

export interface StageConfig {
  /** `dev`, `prod`, …: part of the stack name, resource names and the secrets prefix. */
  readonly stage: string;
  /** Per-minute request limits per API user and class (edge throttles and the Lambda limiter). */
  readonly rateLimits: Record<RateLimitClass, number>;
  /** Stage-wide default method throttle, all callers together (requests per second, burst). */
  readonly apiThrottle: { readonly rateLimit: number; readonly burstLimit: number };
  readonly logRetention: RetentionDays;
  /** RETAIN (plus table deletion protection) in prod, DESTROY elsewhere. */
  readonly removalPolicy: RemovalPolicy;
  readonly logLevel: string;
  readonly apiFunction: FunctionSizing;
  readonly authorizerFunction: FunctionSizing;
  /** The automation runner and the outbox re-drive: a step may send through the chat network. */
  readonly backgroundFunction: FunctionSizing;
  /** Create the account-level API Gateway CloudWatch role (once per account and region). */
  readonly apiGatewayCloudWatchRole: boolean;
  /** SNS topic every alarm notifies; none when unset. */
  readonly alarmTopicArn?: string;
  /** API 429 responses per 5 minutes that raise the throttles alarm. */
  readonly throttleAlarmThreshold: number;
  /** Prefix of the per-channel access-token secrets the operator CLI creates. */
  readonly channelSecretPrefix: string;
  readonly webhookSecretName: string;
  /** Prefix for named resources (usage plan). */
  readonly resourcePrefix: string;
  /** Days after which message contents are blanked (`MESSAGE_CONTENT_RETENTION_DAYS`); 0 = kept (the default). */
  readonly messageContentRetentionDays: number;
}

export interface FunctionSizing {
  readonly memorySize: number;
  readonly timeout: Duration;
}

const VALID_RETENTION = new Set(Object.values(RetentionDays).filter((value) => typeof value === 'number'));

/** Reads the stage settings from the construct tree's context. */
export function loadStageConfig(scope: Construct): StageConfig {
  const context = contextReader(scope);
  const stage = context.string('stage', 'dev');
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) throw new Error(`Context "stage" must be lowercase letters, digits and dashes, got "${stage}"`);
  const isProd = stage === 'prod';

  const retentionDays = context.number('logRetentionDays', isProd ? 90 : 14);
  if (!VALID_RETENTION.has(retentionDays)) throw new Error(`Context "logRetentionDays" must be a CloudWatch Logs retention value, got ${retentionDays}`);

  const removal = context.string('removalPolicy', isProd ? 'retain' : 'destroy');
  if (removal !== 'retain' && removal !== 'destroy') throw new Error(`Context "removalPolicy" must be retain or destroy, got "${removal}"`);

  const rateLimits = { ...DEFAULT_RATE_LIMITS, ...context.object<Partial<Record<RateLimitClass, number>>>('rateLimits') };
  for (const [rateClass, limit] of Object.entries(rateLimits)) {
    if (!(rateClass in DEFAULT_RATE_LIMITS)) throw new Error(`Unknown rate-limit class "${rateClass}" in context "rateLimits"`);
    if (!Number.isInteger(limit) || limit <= 0) throw new Error(`Rate limit for ${rateClass} must be a positive integer, got ${limit}`);
  }

  const retention = context.number('messageContentRetentionDays', 0);
  if (!Number.isInteger(retention) || retention < 0) throw new Error(`Context "messageContentRetentionDays" must be a whole number of days (0 = off), got ${retention}`);

  return {
    stage,
    rateLimits,
    apiThrottle: {
      rateLimit: context.number('apiThrottleRate', 100),
      // Default: the largest per-minute class limit, so the stage never cuts one user's full burst.
      burstLimit: context.number('apiThrottleBurst', Math.max(...Object.values(rateLimits))),
    },
    logRetention: retentionDays as RetentionDays,
    removalPolicy: removal === 'retain' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    logLevel: context.string('logLevel', 'INFO'),
    apiFunction: {
      memorySize: context.number('lambdaMemoryMb', 256),
      timeout: Duration.seconds(context.number('lambdaTimeoutSeconds', 10)),
    },
    authorizerFunction: {
      memorySize: context.number('authorizerMemoryMb', 256),
      timeout: Duration.seconds(context.number('authorizerTimeoutSeconds', 5)),
    },
    backgroundFunction: {
      memorySize: context.number('runnerMemoryMb', 256),
      timeout: Duration.seconds(context.number('runnerTimeoutSeconds', 60)),
    },
    apiGatewayCloudWatchRole: context.boolean('apiGatewayCloudWatchRole', true),
    alarmTopicArn: context.optionalString('alarmTopicArn'),
    throttleAlarmThreshold: context.number('throttleAlarmThreshold', 100),
    channelSecretPrefix: `workspace-api/${stage}/channel/`,
    webhookSecretName: `workspace-api/${stage}/webhook`,
    resourcePrefix: `workspace-api-${stage}`,
    messageContentRetentionDays: retention,
  };
}

/** Typed access to context values that may be JSON values (cdk.json) or strings (`-c`). */
function contextReader(scope: Construct) {
  const raw = (key: string): unknown => {
    const value: unknown = scope.node.tryGetContext(key);
    return value === '' ? undefined : value;
  };
  return {
    optionalString: (key: string): string | undefined => {
      const value = raw(key);
      return value === undefined ? undefined : String(value);
    },
    string: (key: string, fallback: string): string => {
      const value = raw(key);
      return value === undefined ? fallback : String(value);
    },
    number: (key: string, fallback: number): number => {
      const value = raw(key);
      if (value === undefined) return fallback;
      const parsed = Number(value);
      if (!Number.isFinite(parsed)) throw new Error(`Context "${key}" must be a number, got "${String(value)}"`);
      return parsed;
    },
    boolean: (key: string, fallback: boolean): boolean => {
      const value = raw(key);
      if (value === undefined) return fallback;
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      throw new Error(`Context "${key}" must be true or false, got "${String(value)}"`);
    },
    object: <T extends object>(key: string): T => {
      const value = raw(key);
      if (value === undefined) return {} as T;
      const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`Context "${key}" must be a JSON object`);
      return parsed as T;
    },
  };
}
