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
  /**
   * Default throttle of every method of the stage, all callers together (requests per
   * second, burst). API Gateway applies it to each method separately, not to the stage
   * as a whole; the account-wide cap (10,000 rps per region) is AWS's, shared by all APIs.
   */
  readonly apiThrottle: Throttle;
  /** Per-method throttles of the public (keyless) routes: the docs page and document, the webhook. */
  readonly publicThrottles: { readonly docs: Throttle; readonly webhook: Throttle };
  /** Stage cache cluster (0.5 GB) caching the GET of the OpenAPI document; off: no cluster. */
  readonly docsCache: { readonly enabled: boolean; readonly ttl: Duration };
  /** WAF web ACL on the stage: keyless API calls blocked before the authorizer, per-IP rate limits. */
  readonly waf: { readonly enabled: boolean; readonly anonymousLimit: number; readonly ipLimit: number };
  readonly logRetention: RetentionDays;
  /**
   * RETAIN_ON_UPDATE_OR_DELETE (plus table deletion protection) in prod, DESTROY
   * elsewhere: a failed first deploy still rolls back cleanly (nothing named is left
   * behind to block the retry), and a created resource is never deleted afterwards.
   */
  readonly removalPolicy: RemovalPolicy;
  readonly logLevel: string;
  readonly apiFunction: FunctionSizing;
  readonly authorizerFunction: FunctionSizing;
  /** The automation runner and the outbox re-drive: a step may send through the chat network. */
  readonly backgroundFunction: FunctionSizing;
  /** The automation queue's visibility timeout, derived from the runner's timeout ({@link automationVisibilityTimeout}). */
  readonly automationVisibilityTimeout: Duration;
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
  /**
   * `-c samLocal=true`: every function also declares the local stack's variables
   * (empty), because `sam local --env-vars` sets only variables the template declares
   * (`npm run sam-env`, docs/DEPLOYMENT.md). Never for a deployed stack.
   */
  readonly samLocal: boolean;
  /** Days after which message contents are blanked (`MESSAGE_CONTENT_RETENTION_DAYS`); 0 = kept (the default). */
  readonly messageContentRetentionDays: number;
}

export interface FunctionSizing {
  readonly memorySize: number;
  readonly timeout: Duration;
}

export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** How the automation runner reads the queue (SQS event source in infra/functions.ts). */
export const AUTOMATION_BATCH = { size: 5, windowSeconds: 1 } as const;

/** Lambda's bounds; API Gateway stops waiting for an integration after 29 s. */
const LAMBDA_MAX_TIMEOUT_SECONDS = 900;
const INTEGRATION_TIMEOUT_SECONDS = 29;
const SQS_MAX_VISIBILITY_SECONDS = 12 * 60 * 60;

/**
 * AWS's rule for an SQS event source: visibility timeout at least 6 × the function
 * timeout + the batching window, so a batch retried by Lambda (throttles, errors) is
 * not redelivered while it still runs.
 */
export function automationVisibilityTimeout(runnerTimeout: Duration): Duration {
  const seconds = 6 * runnerTimeout.toSeconds() + AUTOMATION_BATCH.windowSeconds;
  if (seconds > SQS_MAX_VISIBILITY_SECONDS)
    throw new Error(`The runner timeout ${runnerTimeout.toSeconds()} s needs a queue visibility timeout of ${seconds} s, above SQS's 12 hours`);
  return Duration.seconds(seconds);
}

/**
 * An API function's sizing: its route row's own memory and timeout (shared/routes.ts),
 * else the stage's. A row's values pass the same bounds as the context's (Lambda's memory
 * range; API Gateway's 29 s), so a row no deploy could take fails at synth, naming it.
 */
export function routeSizing(route: { name: string; memoryMb?: number; timeoutSeconds?: number }, stage: FunctionSizing): FunctionSizing {
  const { memoryMb, timeoutSeconds } = route;
  if (memoryMb !== undefined && (!Number.isInteger(memoryMb) || memoryMb < 128 || memoryMb > 10240))
    throw new Error(`Route ${route.name}: "memoryMb" must be whole megabytes from 128 to 10240 (Lambda's range), got ${memoryMb}`);
  if (timeoutSeconds !== undefined && (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > INTEGRATION_TIMEOUT_SECONDS))
    throw new Error(
      `Route ${route.name}: "timeoutSeconds" must be whole seconds from 1 to ${INTEGRATION_TIMEOUT_SECONDS} (API Gateway answers 504 after that), got ${timeoutSeconds}`,
    );
  return {
    memorySize: memoryMb ?? stage.memorySize,
    timeout: timeoutSeconds !== undefined ? Duration.seconds(timeoutSeconds) : stage.timeout,
  };
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

  const timeout = (key: string, fallback: number, max: number, why: string) => {
    const seconds = context.number(key, fallback);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > max)
      throw new Error(`Context "${key}" must be whole seconds from 1 to ${max} (${why}), got ${seconds}`);
    return Duration.seconds(seconds);
  };
  const memory = (key: string) => {
    const mb = context.number(key, 256);
    if (!Number.isInteger(mb) || mb < 128 || mb > 10240)
      throw new Error(`Context "${key}" must be whole megabytes from 128 to 10240 (Lambda's range), got ${mb}`);
    return mb;
  };
  const positive = (key: string, fallback: number, min = 1) => {
    const value = context.number(key, fallback);
    if (!Number.isInteger(value) || value < min) throw new Error(`Context "${key}" must be a whole number of at least ${min}, got ${value}`);
    return value;
  };
  const apiTimeoutWhy = `API Gateway answers 504 after ${INTEGRATION_TIMEOUT_SECONDS} s whatever the function does`;
  const runnerTimeout = timeout('runnerTimeoutSeconds', 60, LAMBDA_MAX_TIMEOUT_SECONDS, "Lambda's maximum");

  const rateLimits = { ...DEFAULT_RATE_LIMITS, ...context.object<Partial<Record<RateLimitClass, number>>>('rateLimits') };
  for (const [rateClass, limit] of Object.entries(rateLimits)) {
    if (!(rateClass in DEFAULT_RATE_LIMITS)) throw new Error(`Unknown rate-limit class "${rateClass}" in context "rateLimits"`);
    if (!Number.isInteger(limit) || limit <= 0) throw new Error(`Rate limit for ${rateClass} must be a positive integer, got ${limit}`);
  }

  const retention = context.number('messageContentRetentionDays', 0);
  if (!Number.isInteger(retention) || retention < 0)
    throw new Error(`Context "messageContentRetentionDays" must be a whole number of days (0 = off), got ${retention}`);

  return {
    stage,
    rateLimits,
    apiThrottle: {
      rateLimit: positive('apiThrottleRate', 100),
      // Default: the largest per-minute class limit, so no method cuts one user's full burst.
      burstLimit: positive('apiThrottleBurst', Math.max(...Object.values(rateLimits))),
    },
    publicThrottles: {
      // People reading the docs: a few page loads a second is plenty.
      docs: { rateLimit: positive('docsThrottleRate', 5), burstLimit: positive('docsThrottleBurst', 10) },
      // The chat network: up to three status callbacks per message sent; it retries a 429.
      webhook: { rateLimit: positive('webhookThrottleRate', 100), burstLimit: positive('webhookThrottleBurst', 200) },
    },
    docsCache: { enabled: context.boolean('docsCache', isProd), ttl: Duration.seconds(positive('docsCacheTtlSeconds', 300)) },
    waf: {
      enabled: context.boolean('waf', isProd),
      // Per source IP and 5 minutes; WAF's smallest rate limit is 10.
      anonymousLimit: positive('wafAnonymousLimit', 300, 10),
      ipLimit: positive('wafIpLimit', 15000, 10),
    },
    logRetention: retentionDays as RetentionDays,
    removalPolicy: removal === 'retain' ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY,
    logLevel: context.string('logLevel', 'INFO'),
    apiFunction: { memorySize: memory('lambdaMemoryMb'), timeout: timeout('lambdaTimeoutSeconds', 10, INTEGRATION_TIMEOUT_SECONDS, apiTimeoutWhy) },
    authorizerFunction: {
      memorySize: memory('authorizerMemoryMb'),
      timeout: timeout('authorizerTimeoutSeconds', 5, INTEGRATION_TIMEOUT_SECONDS, apiTimeoutWhy),
    },
    backgroundFunction: { memorySize: memory('runnerMemoryMb'), timeout: runnerTimeout },
    automationVisibilityTimeout: automationVisibilityTimeout(runnerTimeout),
    apiGatewayCloudWatchRole: context.boolean('apiGatewayCloudWatchRole', true),
    alarmTopicArn: context.optionalString('alarmTopicArn'),
    throttleAlarmThreshold: positive('throttleAlarmThreshold', 100),
    channelSecretPrefix: `workspace-api/${stage}/channel/`,
    webhookSecretName: `workspace-api/${stage}/webhook`,
    resourcePrefix: `workspace-api-${stage}`,
    samLocal: context.boolean('samLocal', false),
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
