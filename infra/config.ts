/**
 * Stage settings, read from CDK context (cdk.json or `-c key=value`) with defaults.
 * Every key and default is listed in docs/DEPLOYMENT.md; `-c` values arrive as
 * strings, so numbers and objects are parsed here and nowhere else.
 */
import { App, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DEFAULT_RATE_LIMITS } from '../shared/config';
import type { RateLimitClass } from '../shared/routes';
import { ACCOUNT_THROTTLE } from './platform-limits';

export interface StageConfig {
  /** `dev`, `prod`, …: part of the stack name, resource names and the secrets prefix. */
  readonly stage: string;
  /**
   * The account and region the stack is pinned to (context `account`, `region`): a deploy
   * with credentials of another account, or into another region, fails instead of creating
   * a second copy. Required where `removalPolicy` is retain (prod); environment-agnostic
   * elsewhere unless given.
   */
  readonly env?: { readonly account: string; readonly region: string };
  /**
   * Table deletion protection (context `protectTable`). Off for a stage's first deploy, so a
   * failed create can roll back (DynamoDB refuses to delete a protected table, and the stack
   * would end ROLLBACK_FAILED); on for every deploy after it. Given explicitly wherever
   * `removalPolicy` is retain; refused with destroy, which could then never delete the table.
   */
  readonly protectTable: boolean;
  /** CloudFormation termination protection (context `terminationProtection`, default `protectTable`): a failed first create must be deletable too. */
  readonly terminationProtection: boolean;
  /** Per-minute request limits per API user and class (edge throttles and the Lambda limiter). */
  readonly rateLimits: Record<RateLimitClass, number>;
  /**
   * The usage plan's own throttle, one token bucket per API user across every method:
   * a user's allowance of all classes together (Σ `rateLimits` a minute, as burst and as
   * rate / 60), so a flood spread over many methods stops at the edge: after the authorizer
   * (whose answer names the user's usage-plan key), before any endpoint function ({@link planThrottle}).
   */
  readonly planThrottle: Throttle;
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

/**
 * The most concurrent invocations each SQS event source may start (its
 * `MaximumConcurrency`; 2 is Lambda's least). A flood of events or automation steps
 * then takes at most this many of the account's concurrent executions, whatever the
 * queue's depth: the rest stay for the authorizer and the API (docs/EVENTS.md, *What a
 * failing or busy receiver costs*; docs/PERFORMANCE.md).
 */
// New events are only fanned out (writes); the attempts, which may wait up to the attempt timeout each, run on lane wake-ups.
export const EVENT_SOURCE_MAX_CONCURRENCY = { automation: 20, events: 10, eventLanes: 20 } as const;

/** The account's concurrent executions (Lambda's default quota): the concurrency alarm fires at 80% of it. */
export const ACCOUNT_CONCURRENCY_LIMIT = 1_000;

/**
 * The usage plan's per-user throttle: every class's per-minute allowance together, as the
 * bucket's size and (per second) its refill. It never refuses what the classes allow — a
 * user within every class limit is within their sum — and it bounds what any user can
 * send at all, however the requests spread over methods.
 */
export function planThrottle(rateLimits: Record<RateLimitClass, number>): Throttle {
  const perMinute = Object.values(rateLimits).reduce((sum, limit) => sum + limit, 0);
  return { burstLimit: perMinute, rateLimit: perMinute / 60 };
}

/** The load the stage is sized for (docs/PERFORMANCE.md): the per-method default lets one method carry all of it. */
export const PLANNED_REQUESTS_PER_SECOND = 1_000;

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

/** Reads the stage settings from the construct tree's context; an unknown key fails, naming the known ones. */
export function loadStageConfig(scope: Construct): StageConfig {
  return readStageConfig(scope).config;
}

/** Every context key the stage settings read (docs/DEPLOYMENT.md, *Stage settings*, lists them all; a test keeps it so). */
export function knownContextKeys(): string[] {
  return readStageConfig(new App({ context: { stage: 'dev' } })).knownKeys.sort();
}

function readStageConfig(scope: Construct): { config: StageConfig; knownKeys: string[] } {
  const context = contextReader(scope);
  const stage = context.string('stage', 'dev');
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) throw new Error(`Context "stage" must be lowercase letters, digits and dashes, got "${stage}"`);
  const isProd = stage === 'prod';

  const retentionDays = context.number('logRetentionDays', isProd ? 90 : 14);
  if (!VALID_RETENTION.has(retentionDays)) throw new Error(`Context "logRetentionDays" must be a CloudWatch Logs retention value, got ${retentionDays}`);

  const removal = context.string('removalPolicy', isProd ? 'retain' : 'destroy');
  if (removal !== 'retain' && removal !== 'destroy') throw new Error(`Context "removalPolicy" must be retain or destroy, got "${removal}"`);
  const retain = removal === 'retain';

  const account = context.optionalString('account');
  const region = context.optionalString('region');
  if (account !== undefined && !/^\d{12}$/.test(account)) throw new Error(`Context "account" must be a 12-digit AWS account id, got "${account}"`);
  if (region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region))
    throw new Error(`Context "region" must be an AWS region such as eu-west-1, got "${region}"`);
  if ((account === undefined) !== (region === undefined)) throw new Error('Context "account" and "region" go together: give both, or neither');
  if (retain && account === undefined)
    throw new Error(
      `Stage "${stage}" keeps its data (removalPolicy retain), so it is pinned to one account and region: add -c account=<12-digit id> -c region=<region> (docs/DEPLOYMENT.md, First deploy)`,
    );

  const protectTable = context.optionalBoolean('protectTable');
  if (retain && protectTable === undefined)
    throw new Error(
      `Stage "${stage}" keeps its data (removalPolicy retain): say whether the table is deletion-protected. -c protectTable=false for the stage's first deploy (a failed create must be able to delete the table), -c protectTable=true for every deploy after it (docs/DEPLOYMENT.md, First deploy)`,
    );
  if (!retain && protectTable)
    throw new Error('Context "protectTable=true" needs removalPolicy retain: with destroy, deleting the stack would fail on the protected table');

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

  const bounded = (key: string, fallback: number, max: number, why: string) => {
    const value = positive(key, fallback);
    if (value > max) throw new Error(`Context "${key}" must be at most ${max} (${why}), got ${value}`);
    return value;
  };
  const accountWhy = `API Gateway's account quota per region; a higher stage throttle never takes effect`;

  const config: StageConfig = {
    stage,
    ...(account !== undefined && region !== undefined && { env: { account, region } }),
    protectTable: protectTable ?? false,
    terminationProtection: context.boolean('terminationProtection', protectTable ?? false),
    rateLimits,
    planThrottle: planThrottle(rateLimits),
    apiThrottle: {
      // Sized so that one method may carry the whole planned load; the account quota bounds all methods together.
      rateLimit: bounded('apiThrottleRate', PLANNED_REQUESTS_PER_SECOND, ACCOUNT_THROTTLE.rateLimit, accountWhy),
      burstLimit: bounded('apiThrottleBurst', 2 * PLANNED_REQUESTS_PER_SECOND, ACCOUNT_THROTTLE.burstLimit, accountWhy),
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
  // Every key is read above, so what was read is what is known: a misspelt or retired key fails here instead of being ignored.
  context.refuseUnknownKeys();
  return { config, knownKeys: context.knownKeys() };
}

/** Context keys the CDK itself sets (feature flags `@aws-cdk/…`, `aws:cdk:…`, cached lookups `provider:…`), and the CLI's notices file. */
const isCdkContextKey = (key: string) => key.includes(':') || key === 'acknowledged-issue-numbers';

/**
 * Typed access to context values that may be JSON values (cdk.json) or strings (`-c`).
 * It remembers every key it was asked for, so the stage settings' own reads are the list
 * of known keys ({@link refuseUnknownKeys}).
 */
function contextReader(scope: Construct) {
  const known = new Set<string>();
  const raw = (key: string): unknown => {
    known.add(key);
    const value: unknown = scope.node.tryGetContext(key);
    return value === '' ? undefined : value;
  };
  const optionalBoolean = (key: string): boolean | undefined => {
    const value = raw(key);
    if (value === undefined) return undefined;
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    throw new Error(`Context "${key}" must be true or false, got "${String(value)}"`);
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
    optionalBoolean,
    boolean: (key: string, fallback: boolean): boolean => optionalBoolean(key) ?? fallback,
    object: <T extends object>(key: string): T => {
      const value = raw(key);
      if (value === undefined) return {} as T;
      const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`Context "${key}" must be a JSON object`);
      return parsed as T;
    },
    knownKeys: (): string[] => [...known],
    /** Fails on a context key (cdk.json or `-c`) that no setting read, naming the known ones. */
    refuseUnknownKeys: (): void => {
      const unknown = Object.keys(scope.node.getAllContext()).filter((key) => !known.has(key) && !isCdkContextKey(key));
      if (unknown.length)
        throw new Error(
          `Unknown context key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `"${key}"`).join(', ')}; the known keys are ${[...known].sort().join(', ')} (docs/DEPLOYMENT.md, Stage settings)`,
        );
    },
  };
}
