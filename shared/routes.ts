/**
 * The route table: the single source of truth for the API's endpoints.
 *
 * It drives the CDK stack (one function per row, its IAM grants, the usage plan's
 * per-method throttles), the local gateway of `npm start` and the OpenAPI document.
 * Adding an endpoint is one row here plus the parts docs/ARCHITECTURE.md lists under
 * "Adding an endpoint" (function file, domain function, budget row, tests: `npm run
 * new-endpoint -- PATH` writes their stubs); test/architecture/endpoint-recipe.test.ts
 * names the part a row still lacks. A row
 * states only its path: the function's file and name are derived from it. The table
 * holds plain data only, so a Lambda bundle that imports it to find its own rate-limit
 * class stays small.
 */

export const API_BASE_PATH = '/api/workspace/v1';
export const WEBHOOK_PATH = '/webhooks/whatsapp';
/** The OpenAPI document and the docs page: public and read-only (no API key). */
export const OPENAPI_PATH = `${API_BASE_PATH}/openapi.json`;
export const DOCS_PATH = '/docs';
/** The developer portal's page (docs/PORTAL.md); its HTTP API is below {@link PORTAL_API_PATH}. */
const PORTAL_PAGE_PATH = '/portal';

/**
 * The developer portal (docs/PORTAL.md): the identity its users carry in the user
 * pool's ID token. Users are Cognito users (username = email);
 * a permission is a group of the pool, so the token's `cognito:groups` lists the user's
 * permissions; the custom attributes tie the user to a workspace, a role and the API
 * user whose keys they create. Only operators (AdminUpdateUserAttributes) may write
 * them: the app client may not (infra/user-pool.ts).
 */
export const PORTAL_PERMISSIONS = ['settings:api'] as const;
export type PortalPermission = (typeof PORTAL_PERMISSIONS)[number];
export const PORTAL_USER_ATTRIBUTES = { workspaceId: 'custom:workspaceId', role: 'custom:role', apiUserId: 'custom:apiUserId' } as const;

/** Both methods of every endpoint: parameters as query string (GET) or JSON body (POST). */
export const API_METHODS = ['GET', 'POST'] as const;

/**
 * The gateway's own answers, in the envelope: another method on an endpoint's path, and a
 * path that is no endpoint. API Gateway (infra/api.ts: a mock ANY method, a gateway
 * response), the local gateway and the template-driven mode all answer with these.
 */
export const METHOD_NOT_ALLOWED = {
  statusCode: 405,
  error: 'method_not_allowed',
  message: `Endpoints take ${API_METHODS.join(' and ')} only: parameters in the query string (GET) or a JSON body (POST).`,
  allow: API_METHODS.join(', '),
} as const;
/** The shape of a 405: {@link METHOD_NOT_ALLOWED} on the API's paths, {@link portalMethodNotAllowed} on the portal's. */
export interface MethodNotAllowed {
  readonly statusCode: 405;
  readonly error: typeof METHOD_NOT_ALLOWED.error;
  readonly message: string;
  /** The `Allow` header: the path's methods. */
  readonly allow: string;
}
export const UNKNOWN_PATH = {
  statusCode: 404,
  error: 'not_found',
  message: `No endpoint exists at this path: endpoints live under ${API_BASE_PATH}/ (listed at ${DOCS_PATH}).`,
} as const;

export type RateLimitClass = 'api_read' | 'api_automation_trigger' | 'api_write' | 'api_import';

/**
 * A DynamoDB item action (its IAM name) a function's code calls. A row lists its own, and
 * CDK grants exactly those on the table (infra/functions.ts); the built bundle is checked
 * against the list (test/architecture/bundle-table-actions.test.ts). An API endpoint's
 * rate-limit count needs no entry: it gets UpdateItem on rate-limit partitions only. Never
 * Scan or a table-level action; no ConditionCheckItem, as no function runs a transaction.
 */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem';

export const READ_ACTIONS: readonly TableAction[] = ['GetItem', 'BatchGetItem', 'Query'];

/**
 * Whether a function touches the table and may change it, derived from its table actions:
 * `none` gets no table grant and no TABLE_NAME (the public docs functions serve static files).
 */
export type TableAccess = 'none' | 'read' | 'write';

export function tableAccessOf(fn: { readonly tableActions: readonly TableAction[] }): TableAccess {
  if (fn.tableActions.length === 0) return 'none';
  return fn.tableActions.every((action) => READ_ACTIONS.includes(action)) ? 'read' : 'write';
}

export interface ApiRoute {
  /** Path below {@link API_BASE_PATH}, e.g. `contacts/list`. */
  readonly path: string;
  /** The function's entry file, relative to the repository root: {@link routeEntry} of the path. */
  readonly entry: string;
  /** A stable PascalCase name for the function, its log group and its alarms: {@link routeFunctionName} of the path. */
  readonly name: string;
  readonly rateLimitClass: RateLimitClass;
  /** The table actions its code calls ({@link TableAction}), besides the rate-limit count. */
  readonly tableActions: readonly TableAction[];
  /**
   * Only admin keys may call it: a team key gets 403 `forbidden` before any parameter is
   * read (shared/http/middleware/role.ts). Everything else is open to both roles on the
   * key's channels.
   */
  readonly adminOnly?: boolean;
  /** Reads channel access tokens from Secrets Manager (sends to the chat network). */
  readonly readsSecrets?: boolean;
  /** Sends to the automation queue. */
  readonly sendsToQueue?: boolean;
  /** Hands events to the event queue (a state change that produces events). */
  readonly sendsToEventQueue?: boolean;
  /** Encrypts (KMS) integrators' webhook signing secrets. */
  readonly sealsWebhookSecrets?: boolean;
  /** Signs and checks page cursors: gets `CURSOR_SIGNING_KEY` (shared/domain/cursors.ts). */
  readonly signsCursors?: boolean;
  /**
   * Hashes phone numbers under the suppression key (shared/data/number-hash.ts: suppression
   * records, erasure tombstones): gets the key's secret, read at run time.
   */
  readonly hashesNumbers?: boolean;
  /** Reads (signs links to) media in the media store (shared/media/media-store.ts). */
  readonly readsMedia?: boolean;
  /** Writes or deletes media in the media store. */
  readonly writesMedia?: boolean;
  /** One line for the OpenAPI document and the docs page. */
  readonly summary: string;
  readonly tag: 'Channels' | 'Contacts' | 'Labels' | 'Custom fields' | 'Chat' | 'Automations' | 'Webhooks';
  /** Largest request body this endpoint accepts, when it is not `MAX_BODY_BYTES` (shared/config.ts). */
  readonly maxBodyBytes?: number;
  /** Lambda memory (MB) and timeout (s) when this function needs more than the API functions' default (infra/config.ts). */
  readonly memoryMb?: number;
  readonly timeoutSeconds?: number;
}

/** A row as written: everything but what {@link withDerivedNames} derives from the path. */
export type RouteRow = Omit<ApiRoute, 'entry' | 'name'>;

/** The function file of a route path: `contacts/manage` → `functions/contacts-manage.ts`. */
export function routeEntry(path: string): string {
  return `functions/${path.replaceAll('/', '-')}.ts`;
}

/**
 * The function name of a route path: `contacts/manage` → `ContactsManage`. It names the
 * CDK construct (so the logical id), the log group and the alarms: changing the rule
 * would replace every function in a deployed stack.
 */
export function routeFunctionName(path: string): string {
  return path
    .split(/[/-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** A row with its derived function file and name. */
export function withDerivedNames(row: RouteRow): ApiRoute {
  return { ...row, entry: routeEntry(row.path), name: routeFunctionName(row.path) };
}

const ROUTE_ROWS: readonly RouteRow[] = [
  { path: 'channels/list', rateLimitClass: 'api_read', tableActions: ['BatchGetItem'], tag: 'Channels', summary: 'List the channels the API key may use' },
  {
    path: 'contacts/manage',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    hashesNumbers: true,
    // A status change (opt-out or opt-in) produces an event: its hand-off needs the event queue.
    sendsToEventQueue: true,
    tag: 'Contacts',
    summary: 'Create a contact, or update the one matched by phone number',
  },
  {
    path: 'contacts/import',
    rateLimitClass: 'api_import',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    hashesNumbers: true,
    sendsToEventQueue: true,
    maxBodyBytes: 1024 * 1024,
    memoryMb: 1024,
    timeoutSeconds: 29,
    tag: 'Contacts',
    summary: 'Create or update up to 1,000 contacts in one call, each as contacts/manage would',
  },
  {
    path: 'contacts/list',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem', 'BatchGetItem', 'Query'],
    signsCursors: true,
    tag: 'Contacts',
    summary: 'List and search the contacts of a channel, paginated',
  },
  {
    path: 'contacts/delete',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    hashesNumbers: true,
    // The erased contact's media go with it.
    writesMedia: true,
    tag: 'Contacts',
    summary: 'Erase a contact: its data, labels, custom field values, conversation and message contents',
  },
  {
    path: 'labels/manage',
    rateLimitClass: 'api_write',
    tableActions: ['PutItem', 'UpdateItem'],
    tag: 'Labels',
    summary: 'Create a label, or update the one matched by name',
  },
  { path: 'labels/list', rateLimitClass: 'api_read', tableActions: ['Query'], tag: 'Labels', summary: 'List the labels of a channel' },
  {
    path: 'custom-fields/manage',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    tag: 'Custom fields',
    summary: 'Create a custom field definition, or update the one matched by name',
  },
  {
    path: 'custom-fields/list',
    rateLimitClass: 'api_read',
    tableActions: ['Query'],
    tag: 'Custom fields',
    summary: 'List the custom field definitions of a channel',
  },
  {
    path: 'chat/templates/list',
    rateLimitClass: 'api_read',
    tableActions: ['Query'],
    tag: 'Chat',
    summary: 'List the approved message templates of a channel, with their variable counts',
  },
  {
    path: 'chat/templates/send',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    hashesNumbers: true,
    readsSecrets: true,
    // Hands over the status events that came before its send attached the message.
    sendsToEventQueue: true,
    tag: 'Chat',
    summary: 'Send an approved template message',
  },
  {
    path: 'chat/message/send',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    hashesNumbers: true,
    readsSecrets: true,
    // Hands over the status events that came before its send attached the message.
    sendsToEventQueue: true,
    tag: 'Chat',
    summary: 'Send a text, media, interactive, location or reaction message inside the 24-hour session window, optionally quoting one',
  },
  {
    path: 'chat/message/status',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem'],
    tag: 'Chat',
    summary: 'Read the delivery status of a message by its chatmid',
  },
  {
    path: 'chat/message/read',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'UpdateItem'],
    readsSecrets: true,
    tag: 'Chat',
    summary: 'Mark a message the contact sent as read, optionally with the typing indicator',
  },
  {
    path: 'chat/messages/list',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem', 'BatchGetItem', 'Query'],
    signsCursors: true,
    tag: 'Chat',
    summary: 'List the messages of one contact in the channel, inbound and outbound, newest first',
  },
  {
    path: 'automations/list',
    rateLimitClass: 'api_read',
    tableActions: ['Query'],
    tag: 'Automations',
    summary: 'List the automations of a channel with their execution counts',
  },
  {
    path: 'automations/trigger',
    rateLimitClass: 'api_automation_trigger',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    sendsToQueue: true,
    tag: 'Automations',
    summary: 'Run an automation for a phone number',
  },
  {
    path: 'webhooks/manage',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    // A new secret is a key to forge the channel's events; deactivating silences an admin's integration.
    adminOnly: true,
    sealsWebhookSecrets: true,
    tag: 'Webhooks',
    summary: "Subscribe a URL to the channel's events, or update the subscription registered for it",
  },
  {
    path: 'webhooks/list',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem'],
    tag: 'Webhooks',
    summary: "List the channel's webhook subscriptions and how their deliveries fare",
  },
  {
    path: 'webhooks/deliveries',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem', 'Query'],
    signsCursors: true,
    tag: 'Webhooks',
    summary: 'List the deliveries of a webhook subscription, newest first, with their attempts and errors',
  },
  {
    path: 'webhooks/redeliver',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    sendsToEventQueue: true,
    tag: 'Webhooks',
    summary: 'Deliver an event to a webhook subscription again (same webhook-id)',
  },
  {
    path: 'events/list',
    rateLimitClass: 'api_read',
    tableActions: ['BatchGetItem', 'Query'],
    // Leaves out the events of erased contacts, found by their tombstones' hashes (shared/domain/erased-events.ts).
    hashesNumbers: true,
    signsCursors: true,
    tag: 'Webhooks',
    summary: "Read the channel's events oldest first, as webhooks deliver them (cursor-paged, kept at least 7 days)",
  },
  {
    path: 'webhooks/delete',
    rateLimitClass: 'api_write',
    tableActions: ['Query', 'UpdateItem', 'DeleteItem'],
    adminOnly: true,
    tag: 'Webhooks',
    summary: 'Delete a webhook subscription: nothing more is delivered to it and its delivery log goes',
  },
  {
    path: 'chat/media/get',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem'],
    // Signs links to the media bucket (presigned GETs: s3:GetObject).
    readsMedia: true,
    tag: 'Chat',
    summary: "Open an inbound message's media: a short-lived link to its bytes that needs no API key",
  },
  {
    path: 'chat/media/upload',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem'],
    readsSecrets: true,
    // A 5 MB file is about 6.7 MB of base64: the invocation payload limit (6 MB for the whole
    // event, infra/platform-limits.ts) cuts first, so the largest upload that arrives is about
    // 4.7 MB decoded. The body limit is that same 6 MB: nothing larger can reach the function.
    maxBodyBytes: 6 * 1024 * 1024,
    tag: 'Chat',
    summary: 'Upload a file (base64) to the chat network; send it by the answered mediaId',
  },
];

export const API_ROUTES: readonly ApiRoute[] = ROUTE_ROWS.map(withDerivedNames);

/**
 * The developer portal's HTTP API (docs/PORTAL.md): below {@link PORTAL_API_PATH}, one
 * function per method and path, authorized by the user pool's ID token (API Gateway's
 * Cognito authorizer; locally the gateway's own check) instead of an API key. Its answers
 * are the bare JSON of INTERFACE §17 (errors in the API's envelope).
 */
export const PORTAL_API_PATH = '/portal/api';

export interface PortalRoute {
  /** Path below {@link PORTAL_API_PATH}, e.g. `keys/revoke`. */
  readonly path: string;
  readonly method: 'GET' | 'POST';
  /** The function's entry file: `functions/portal-<action>.ts`. */
  readonly entry: string;
  /** `Portal<Action>`: the CDK construct, its log group and alarms. */
  readonly name: string;
  /** The API user's per-minute limit the call counts against (the portal user acts as that API user). */
  readonly rateLimitClass: RateLimitClass;
  /** The DynamoDB actions its code calls (test/architecture/bundle-table-actions.test.ts checks the bundle). */
  readonly tableActions: readonly TableAction[];
  /**
   * Creates or revokes API keys: API Gateway keys in the usage plan (AWS: apigateway on the
   * plan and its keys), and the key items, so its table writes may reach the workspace's
   * own partition (users, their key lists, the portal audit) and the API-key pointers.
   */
  readonly managesUsagePlanKeys?: boolean;
  /** Reads the API functions' request log lines (AWS: CloudWatch Logs Insights over their log groups). */
  readonly readsRequestLog?: boolean;
  readonly sendsToEventQueue?: boolean;
  readonly signsCursors?: boolean;
  readonly summary: string;
}

/** A portal row as written; `action` names the function (`keys-create` → functions/portal-keys-create.ts, PortalKeysCreate). */
type PortalRouteRow = Omit<PortalRoute, 'entry' | 'name'> & { action: string };

const PORTAL_ROUTE_ROWS: readonly PortalRouteRow[] = [
  {
    path: 'keys',
    method: 'POST',
    action: 'keys-create',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    managesUsagePlanKeys: true,
    summary: 'Create an API key for the signed-in user (its value shown once)',
  },
  {
    path: 'keys',
    method: 'GET',
    action: 'keys-list',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem', 'Query'],
    readsRequestLog: true,
    summary: "List the user's own keys; never a secret",
  },
  {
    path: 'keys/revoke',
    method: 'POST',
    action: 'keys-revoke',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    managesUsagePlanKeys: true,
    summary: 'Revoke one of the user’s keys (it stops working within 10 seconds)',
  },
  {
    path: 'keys/rotate',
    method: 'POST',
    action: 'keys-rotate',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    managesUsagePlanKeys: true,
    summary: 'Create a new key for the user with the old one’s name, then revoke the old one',
  },
  {
    path: 'usage',
    method: 'GET',
    action: 'usage',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem'],
    readsRequestLog: true,
    summary: "One key's requests by rate class over 24 hours and 7 days, and its 429s",
  },
  {
    path: 'requests',
    method: 'GET',
    action: 'requests',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem'],
    readsRequestLog: true,
    summary: "One key's last 100 requests: time, endpoint, status, error code, latency",
  },
  // The channel's webhook subscriptions, as the API's webhooks/list, webhooks/deliveries and webhooks/redeliver (same domain code).
  {
    path: 'webhooks',
    method: 'GET',
    action: 'webhooks-list',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem'],
    summary: "The webhook subscriptions of the user's channels and how their deliveries fare; never a secret",
  },
  {
    path: 'webhooks/deliveries',
    method: 'GET',
    action: 'webhooks-deliveries',
    rateLimitClass: 'api_read',
    tableActions: ['GetItem', 'Query'],
    signsCursors: true,
    summary: 'One subscription’s deliveries, newest first, with their attempts and errors',
  },
  {
    path: 'webhooks/redeliver',
    method: 'POST',
    action: 'webhooks-redeliver',
    rateLimitClass: 'api_write',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    sendsToEventQueue: true,
    summary: 'Deliver an event to one of the channel’s subscriptions again (same webhook-id)',
  },
];

export const PORTAL_ROUTES: readonly PortalRoute[] = PORTAL_ROUTE_ROWS.map(({ action, ...row }) => ({
  ...row,
  entry: routeEntry(`portal/${action}`),
  name: routeFunctionName(`portal/${action}`),
}));

/**
 * The 405 of a portal path (below {@link PORTAL_API_PATH}): each portal path takes only
 * its own routes' methods (one, or GET and POST for `keys`, which are two functions).
 */
export function portalMethodNotAllowed(path: string): MethodNotAllowed {
  const methods = PORTAL_ROUTES.filter((route) => route.path === path)
    .map((route) => route.method)
    .sort();
  if (methods.length === 0) throw new Error(`No portal route has the path ${path}.`);
  return { ...METHOD_NOT_ALLOWED, message: `${PORTAL_API_PATH}/${path} takes ${methods.join(' and ')} only.`, allow: methods.join(', ') };
}

/** The portal route of a function name, or undefined. */
export function findPortalRoute(name: string): PortalRoute | undefined {
  return PORTAL_ROUTES.find((route) => route.name === name);
}

/** Functions that are not API endpoints behind the authorizer. */
export const AUTHORIZER_ENTRY = 'functions/authorizer.ts';

/** Finds the route row for a path below the API base, or undefined. */
export function findRoute(path: string): ApiRoute | undefined {
  return API_ROUTES.find((route) => route.path === path);
}

/**
 * Functions that are not authorized API endpoints: the authorizer, the public OpenAPI
 * document and docs page, the WhatsApp webhook (public, signature-checked), the
 * automation runner (fed by the queue) and the outbox re-drive (on a schedule). Their
 * names are written out: no path derives them.
 */
export interface SupportFunction {
  readonly entry: string;
  readonly name: string;
  /** The table actions its code calls ({@link TableAction}); none: no grant, no TABLE_NAME. */
  readonly tableActions: readonly TableAction[];
  readonly readsSecrets?: boolean;
  readonly sendsToQueue?: boolean;
  /** Fed by the automation queue (SQS event source with partial batch responses). */
  readonly consumesQueue?: boolean;
  /** Invoked on a schedule, every this many minutes (EventBridge rule). */
  readonly everyMinutes?: number;
  /** Sends to the event queue (the deliverer's input: EVENT_QUEUE_URL). */
  readonly sendsToEventQueue?: boolean;
  /** Fed by the event queue (SQS event source with partial batch responses). */
  readonly consumesEventQueue?: boolean;
  /** Decrypts (KMS) integrators' webhook signing secrets. */
  readonly opensWebhookSecrets?: boolean;
  /**
   * Hashes phone numbers under the suppression key (shared/data/number-hash.ts: suppression
   * records, erasure tombstones): gets the key's secret, read at run time.
   */
  readonly hashesNumbers?: boolean;
  /** Queries the sparse outbox index (the re-drive). */
  readonly readsOutboxIndex?: boolean;
  /** Writes or deletes media in the media store (shared/media/media-store.ts). */
  readonly writesMedia?: boolean;
  /** A public route (no authorizer, no API key) served by this function, e.g. the webhook. */
  readonly publicPath?: string;
  readonly publicMethods?: readonly ('GET' | 'POST')[];
  /**
   * Static files shipped beside the bundle (file name → path in the repository), read
   * on the first request that needs them and never at init: the build (infra/bundles.ts)
   * copies them into dist/, and the CDK app from there into the function's asset
   * (infra/function-code.ts; read by shared/http/static-files.ts).
   */
  readonly staticFiles?: Readonly<Record<string, string>>;
  /** Hands the portal's user pool to the browser (PORTAL_COGNITO_ENDPOINT, PORTAL_USER_POOL_ID, PORTAL_CLIENT_ID). */
  readonly servesPortalConfig?: boolean;
}

export const SUPPORT_FUNCTIONS: Record<string, SupportFunction> & { authorizer: SupportFunction } = {
  authorizer: { entry: AUTHORIZER_ENTRY, name: 'Authorizer', tableActions: ['GetItem'] },
  // Static and public: no table access at all (key hashes live in the table).
  openapi: {
    entry: 'functions/openapi.ts',
    name: 'OpenApiDocument',
    tableActions: [],
    publicPath: OPENAPI_PATH,
    publicMethods: ['GET'],
    staticFiles: { 'openapi.json': 'docs/openapi.json' },
  },
  docsPage: {
    entry: 'functions/docs-page.ts',
    name: 'DocsPage',
    tableActions: [],
    publicPath: DOCS_PATH,
    publicMethods: ['GET'],
    staticFiles: {
      'swagger-ui-bundle.js': 'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
      'swagger-ui.css': 'node_modules/swagger-ui-dist/swagger-ui.css',
    },
  },
  portalPage: {
    entry: 'functions/portal-page.ts',
    name: 'PortalPage',
    tableActions: [],
    publicPath: PORTAL_PAGE_PATH,
    publicMethods: ['GET'],
    servesPortalConfig: true,
    staticFiles: { 'index.html': 'portal/index.html', 'portal.js': 'portal/portal.js', 'portal.css': 'portal/portal.css' },
  },
  // Public: it reads its own webhook secret (app secret, verify token), never a channel's access token.
  webhook: {
    entry: 'functions/webhook-whatsapp.ts',
    name: 'WhatsAppWebhook',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    hashesNumbers: true,
    // Hands inbound media fetches to the automation queue (shared/domain/media.ts).
    sendsToQueue: true,
    sendsToEventQueue: true,
    publicPath: WEBHOOK_PATH,
    publicMethods: ['GET', 'POST'],
  },
  automationRunner: {
    entry: 'functions/automation-runner.ts',
    name: 'AutomationRunner',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    hashesNumbers: true,
    readsSecrets: true,
    // Fetches inbound media into the media store (shared/domain/media.ts).
    writesMedia: true,
    sendsToQueue: true,
    sendsToEventQueue: true,
    consumesQueue: true,
  },
  automationRedrive: {
    entry: 'functions/automation-redrive.ts',
    name: 'AutomationRedrive',
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    sendsToQueue: true,
    everyMinutes: 1,
    readsOutboxIndex: true,
  },
  eventDeliverer: {
    entry: 'functions/event-deliverer.ts',
    name: 'EventDeliverer',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    // Delivers no event of an erased contact (its tombstone, under the hash of its number).
    hashesNumbers: true,
    sendsToEventQueue: true,
    consumesEventQueue: true,
    opensWebhookSecrets: true,
  },
  eventRedrive: {
    entry: 'functions/event-redrive.ts',
    name: 'EventRedrive',
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    sendsToEventQueue: true,
    everyMinutes: 1,
    readsOutboxIndex: true,
  },
  /** Processes the parts of large chat-network webhooks the webhook handed off (keys from the `INBOUND#` shards of the outbox index). */
  inboundDrain: {
    entry: 'functions/inbound-drain.ts',
    name: 'InboundDrain',
    tableActions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    hashesNumbers: true,
    sendsToQueue: true,
    sendsToEventQueue: true,
    everyMinutes: 1,
    readsOutboxIndex: true,
  },
  /** Blanks message contents past `MESSAGE_CONTENT_RETENTION_DAYS` (keys from the `RETAIN#` shards of the outbox index). */
  messageContentSweep: {
    entry: 'functions/message-content-sweep.ts',
    name: 'MessageContentSweep',
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    everyMinutes: 60,
    readsOutboxIndex: true,
  },
};
