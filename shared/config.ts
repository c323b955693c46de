import * as v from 'valibot';
import type { RateLimitClass } from './routes';

/**
 * The service's configuration: every environment variable production code reads, each
 * with its valibot schema and default, read here and nowhere else (a lint rule refuses
 * `process.env` elsewhere in shared/ and functions/; docs/ARCHITECTURE.md "Configuration").
 *
 * The whole environment is checked when this module loads, so a bad value fails the cold
 * start with an error naming the variable. Each setting is still read when its getter is
 * called, as the code it serves always read it (at module load, once per container, or
 * per call): the local stack and the tests set variables after this module has loaded,
 * and the bundles the local stack runs in one process share its environment. A value is
 * parsed once and parsed again only when it changes. An empty variable counts as unset.
 */

/** What every setting's schema takes: the variable's value, undefined when unset or empty. */
type Schema = v.GenericSchema<string | undefined, unknown>;

const text = v.string();
const url = v.pipe(v.string(), v.url('must be a URL'));
const flag = v.pipe(
  v.picklist(['true', 'false'], 'must be true or false'),
  v.transform((value) => value === 'true'),
);
const numberOf = (unit: string) => v.pipe(v.string(), v.toNumber(`must be a number of ${unit}`), v.finite(`must be a number of ${unit}`));
const wholeNumber = (unit: string, min = Number.MIN_SAFE_INTEGER) =>
  v.pipe(numberOf(unit), v.integer(`must be a whole number of ${unit}`), v.minValue(min, `must be at least ${min}`));
/** The levels the logger writes, least severe first; SILENT writes nothing. */
const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const logLevel = v.pipe(v.string(), v.toUpperCase(), v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`));
/** Lambda's own level (advanced logging controls), in the logger's terms. */
const lambdaLogLevel = v.pipe(
  v.string(),
  v.toUpperCase(),
  v.picklist(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'], 'must be one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL'),
  v.transform((level): LogLevel => (level === 'TRACE' ? 'DEBUG' : level === 'FATAL' ? 'ERROR' : level)),
);

/** Per-minute request limits per API user, configurable per deployment (RATE_LIMIT_<CLASS>). */
export const DEFAULT_RATE_LIMITS: Record<RateLimitClass, number> = {
  api_read: 120,
  api_automation_trigger: 20,
  api_write: 300,
  /** contacts/import: each call may write 1,000 contacts, so it has its own, smaller allowance. */
  api_import: 10,
};

/** The environment variable that configures a rate-limit class (README, "Rate limits"). */
export const rateLimitSetting = (rateClass: RateLimitClass) => `RATE_LIMIT_${rateClass.toUpperCase()}`;

/** The queues the service sends to, by the variable that holds each one's URL (set by infra/functions.ts). */
export const QUEUE_URL_VARIABLES = ['AUTOMATION_QUEUE_URL', 'EVENT_QUEUE_URL', 'EVENT_LANE_QUEUE_URL'] as const;
export type QueueUrlVariable = (typeof QUEUE_URL_VARIABLES)[number];

/**
 * Every setting: its variable and schema, a default where unset has one meaning. The
 * variables each function is deployed with are listed in docs/DEPLOYMENT.md.
 */
const SETTINGS = {
  // The table (shared/data/client.ts): unset, the local table name; DYNAMODB_ENDPOINT points the client at dynalite.
  tableName: ['TABLE_NAME', v.optional(text)],
  dynamodbEndpoint: ['DYNAMODB_ENDPOINT', v.optional(url)],
  awsRegion: ['AWS_REGION', v.optional(text, 'local')],
  // Lambda's own: set in every function.
  lambdaFunctionName: ['AWS_LAMBDA_FUNCTION_NAME', v.optional(text)],
  xrayTraceId: ['_X_AMZN_TRACE_ID', v.optional(text)],
  // Observability (shared/observability).
  serviceName: ['POWERTOOLS_SERVICE_NAME', v.optional(text, 'workspace-api')],
  powertoolsLogLevel: ['POWERTOOLS_LOG_LEVEL', v.optional(logLevel)],
  lambdaLogLevel: ['AWS_LAMBDA_LOG_LEVEL', v.optional(lambdaLogLevel)],
  metricsDisabled: ['POWERTOOLS_METRICS_DISABLED', v.optional(flag, 'false')],
  stage: ['STAGE', v.optional(text, 'local')],
  // The authorizer's key cache (shared/auth/authorize.ts): a revoked key stops working within it, so never more than 10 s;
  // the end-to-end tests run their stacks with a shorter one to see a revocation take effect.
  keyCacheMs: [
    'KEY_CACHE_MS',
    v.optional(v.pipe(wholeNumber('milliseconds', 0), v.maxValue(10_000, 'must be at most 10000 (a revoked key stops working within 10 s)')), '10000'),
  ],
  // The clock: the local stack may start shifted, for end-to-end tests of time windows.
  clockOffsetMs: ['CLOCK_OFFSET_MS', v.optional(wholeNumber('milliseconds'), '0')],
  // The chat network (shared/chat).
  graphApiBaseUrl: ['GRAPH_API_BASE_URL', v.optional(url, 'https://graph.facebook.com/v21.0')],
  graphApiTimeoutMs: ['GRAPH_API_TIMEOUT_MS', v.optional(wholeNumber('milliseconds', 1), '4000')],
  whatsappAppSecretName: ['WHATSAPP_APP_SECRET_NAME', v.optional(text)],
  webhookSecretArn: ['WEBHOOK_SECRET_ARN', v.optional(text)],
  whatsappAppSecret: ['WHATSAPP_APP_SECRET', v.optional(text, '')],
  whatsappVerifyToken: ['WHATSAPP_VERIFY_TOKEN', v.optional(text, '')],
  // Integrators' webhooks (shared/events, shared/domain/event-delivery.ts).
  webhookAllowLoopback: ['WEBHOOK_ALLOW_LOOPBACK', v.optional(flag, 'false')],
  webhookRetrySchedule: ['WEBHOOK_RETRY_SCHEDULE', v.optional(text)],
  webhookDeliveryTimeoutMs: ['WEBHOOK_DELIVERY_TIMEOUT_MS', v.optional(wholeNumber('milliseconds', 1))],
  webhookSecretsKmsKeyId: ['WEBHOOK_SECRETS_KMS_KEY_ID', v.optional(text)],
  webhookSecretsKey: ['WEBHOOK_SECRETS_KEY', v.optional(v.pipe(v.string(), v.base64('must be base64')))],
  webhookSecretsKeyFile: ['WEBHOOK_SECRETS_KEY_FILE', v.optional(text)],
  dataDir: ['DATA_DIR', v.optional(text, '.data')],
  // The portal page (functions/portal-page.ts): the user pool the browser signs in to.
  portalCognitoEndpoint: ['PORTAL_COGNITO_ENDPOINT', v.optional(url)],
  portalUserPoolId: ['PORTAL_USER_POOL_ID', v.optional(text)],
  portalClientId: ['PORTAL_CLIENT_ID', v.optional(text)],
  /** The portal (docs/PORTAL.md): the name of the usage plan its keys' users join in AWS (unset locally: no usage-plan keys). */
  usagePlanName: ['USAGE_PLAN_NAME', v.optional(text)],
  /** The portal's request log in AWS: the API functions' log groups, comma-separated (unset locally: DATA_DIR/logs/service.log). */
  requestLogGroups: ['REQUEST_LOG_GROUPS', v.optional(text)],
  // Messages and pages (shared/domain).
  messageContentRetentionDays: ['MESSAGE_CONTENT_RETENTION_DAYS', v.optional(v.pipe(numberOf('days'), v.minValue(0, 'must be 0 (off) or more')), '0')],
  // The cursor-signing key (shared/domain/cursors.ts): in AWS its secret, read at run time; the key itself only locally.
  cursorSigningKeySecretArn: ['CURSOR_SIGNING_KEY_SECRET_ARN', v.optional(text)],
  cursorSigningKey: ['CURSOR_SIGNING_KEY', v.optional(text)],
  // Media (shared/media/media-store.ts): the bucket in AWS; locally a folder, the gateway's base URL and the key that signs links.
  mediaBucket: ['MEDIA_BUCKET', v.optional(text)],
  mediaDir: ['MEDIA_DIR', v.optional(text)],
  mediaUrlBase: ['MEDIA_URL_BASE', v.optional(url)],
  mediaSigningKey: ['MEDIA_SIGNING_KEY', v.optional(text)],
  // Opt-outs and erasures kept without the number (shared/data/number-hash.ts): in AWS the key's secret, read at run time; the key itself only locally.
  suppressionKeySecretArn: ['SUPPRESSION_KEY_SECRET_ARN', v.optional(text)],
  suppressionKey: ['SUPPRESSION_KEY', v.optional(text)],
} satisfies Record<string, readonly [string, Schema]>;

type Settings = typeof SETTINGS;
const settings = Object.entries(SETTINGS) as Array<[keyof Settings, readonly [string, Schema]]>;
const rateLimit = v.optional(wholeNumber('requests a minute', 1));
const queueUrl = v.optional(url);

const parsed = new Map<string, { raw: string | undefined; value: unknown }>();

/** The variable's value, parsed by `schema` (once per value); throws naming the variable when the value does not fit. */
function read<T>(variable: string, schema: v.GenericSchema<string | undefined, T>, raw: string | undefined = process.env[variable]): T {
  const given = raw === '' ? undefined : raw;
  const last = parsed.get(variable);
  if (last && last.raw === given) return last.value as T;
  const result = v.safeParse(schema, given);
  if (!result.success) throw new Error(`Configuration: ${variable} ${result.issues[0].message}`, { cause: new v.ValiError(result.issues) });
  parsed.set(variable, { raw: given, value: result.output });
  return result.output;
}

/** The settings, each read when called. */
export const config = {
  ...(Object.fromEntries(settings.map(([name, [variable, schema]]) => [name, () => read(variable, schema)])) as {
    [Name in keyof Settings]: () => v.InferOutput<Settings[Name][1]>;
  }),
  /**
   * Whether the Powertools tracer is on. Written out, not read by name: the bundles fix this
   * expression at build time (infra/bundling.ts `define`), and leave the tracer out when it is off.
   */
  tracerEnabled: (): boolean => read('POWERTOOLS_TRACER_ENABLED', v.optional(flag, 'false'), process.env.POWERTOOLS_TRACER_ENABLED),
  /** The logger's level: POWERTOOLS_LOG_LEVEL, else Lambda's own, else INFO. */
  logLevel: (): LogLevel => config.powertoolsLogLevel() ?? config.lambdaLogLevel() ?? 'INFO',
  /** The URL of a queue the service sends to, when the function is deployed with it. */
  queueUrl: (variable: QueueUrlVariable): string | undefined => read(variable, queueUrl),
};

/** The per-minute limit of a rate-limit class: RATE_LIMIT_<CLASS>, else its default. */
export function rateLimitFor(rateClass: RateLimitClass): number {
  return read(rateLimitSetting(rateClass), rateLimit) ?? DEFAULT_RATE_LIMITS[rateClass];
}

/** Largest request body accepted, in bytes (API Gateway itself allows 10 MB). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Receives of one queue message before it moves to the dead-letter queue: the stack's
 * `maxReceiveCount` on every queue (infra/data.ts), the local queues' limit, and the
 * automation runner's last try (on its last receive a step fails the execution instead
 * of throwing).
 */
export const MAX_RECEIVES = 5;

/** How long an item may sit in the event outbox before the re-drive hands its events over again. */
export const EVENT_REDRIVE_AFTER_MS = 30_000;

/**
 * How long after the re-drive handed an item over it may hand it over again, if the
 * deliverer has not taken it out by then: the outbox-age alarm's threshold and its
 * period's floor too (infra/alarms.ts), as a stuck item is reported once a repeat.
 */
export const EVENT_REDRIVE_REPEAT_MS = 5 * 60_000;

// The whole environment, checked once as this module loads: a bad value stops the cold start.
for (const [, [variable, schema]] of settings) read(variable, schema);
config.tracerEnabled();
for (const rateClass of Object.keys(DEFAULT_RATE_LIMITS) as RateLimitClass[]) rateLimitFor(rateClass);
for (const variable of QUEUE_URL_VARIABLES) config.queueUrl(variable);
