/**
 * The route table: the single source of truth for the API's endpoints.
 *
 * It drives the CDK stack (one function per row, its IAM grants, the usage plan's
 * per-method throttles), the local gateway of `npm start` and the OpenAPI document.
 * Adding an endpoint is one row here plus its function file, which exports `schema`
 * and `handler`. The table holds plain data only, so a Lambda bundle that imports
 * it to find its own rate-limit class stays small.
 */

export const API_BASE_PATH = '/api/workspace/v1';
export const WEBHOOK_PATH = '/webhooks/whatsapp';
/** The OpenAPI document and the docs page: public and read-only (no API key). */
export const OPENAPI_PATH = `${API_BASE_PATH}/openapi.json`;
export const DOCS_PATH = '/docs';

export type RateLimitClass = 'api_read' | 'api_automation_trigger' | 'api_write';

/** What a function may do to the table: readers get read actions only. */
export type TableAccess = 'read' | 'write';

export interface ApiRoute {
  /** Path below {@link API_BASE_PATH}, e.g. `contacts/list`. */
  readonly path: string;
  /** The function's entry file, relative to the repository root. */
  readonly entry: string;
  /** A stable PascalCase name for the function, its log group and its alarms. */
  readonly name: string;
  readonly rateLimitClass: RateLimitClass;
  readonly tableAccess: TableAccess;
  /** Reads channel access tokens from Secrets Manager. */
  readonly readsSecrets?: boolean;
  /** Sends to the automation queue. */
  readonly sendsToQueue?: boolean;
  /** Signs and checks page cursors: gets `CURSOR_SIGNING_KEY` (shared/domain/cursors.ts). */
  readonly signsCursors?: boolean;
  /** One line for the OpenAPI document and the docs page. */
  readonly summary: string;
  readonly tag: 'Channels' | 'Contacts' | 'Labels' | 'Custom fields' | 'Chat' | 'Automations';
}

export const API_ROUTES: readonly ApiRoute[] = [
  { path: 'channels/list', entry: 'functions/channels-list.ts', name: 'ChannelsList', rateLimitClass: 'api_read', tableAccess: 'read', tag: 'Channels', summary: 'List the channels the API key may use' },
  { path: 'contacts/manage', entry: 'functions/contacts-manage.ts', name: 'ContactsManage', rateLimitClass: 'api_write', tableAccess: 'write', tag: 'Contacts', summary: 'Create a contact, or update the one matched by phone number' },
  { path: 'contacts/list', entry: 'functions/contacts-list.ts', name: 'ContactsList', rateLimitClass: 'api_read', tableAccess: 'read', tag: 'Contacts', summary: 'List and search the contacts of a channel, paginated' },
  { path: 'contacts/delete', entry: 'functions/contacts-delete.ts', name: 'ContactsDelete', rateLimitClass: 'api_write', tableAccess: 'write', tag: 'Contacts', summary: 'Erase a contact: its data, labels, custom field values, conversation and message contents' },
  { path: 'labels/manage', entry: 'functions/labels-manage.ts', name: 'LabelsManage', rateLimitClass: 'api_write', tableAccess: 'write', tag: 'Labels', summary: 'Create a label, or update the one matched by name' },
  { path: 'labels/list', entry: 'functions/labels-list.ts', name: 'LabelsList', rateLimitClass: 'api_read', tableAccess: 'read', tag: 'Labels', summary: 'List the labels of a channel' },
  { path: 'custom-fields/manage', entry: 'functions/custom-fields-manage.ts', name: 'CustomFieldsManage', rateLimitClass: 'api_write', tableAccess: 'write', tag: 'Custom fields', summary: 'Create a custom field definition, or update the one matched by name' },
  { path: 'custom-fields/list', entry: 'functions/custom-fields-list.ts', name: 'CustomFieldsList', rateLimitClass: 'api_write', tableAccess: 'read', tag: 'Custom fields', summary: 'List the custom field definitions of a channel' },
  { path: 'chat/templates/list', entry: 'functions/chat-templates-list.ts', name: 'ChatTemplatesList', rateLimitClass: 'api_write', tableAccess: 'read', tag: 'Chat', summary: 'List the approved message templates of a channel, with their variable counts' },
  { path: 'chat/templates/send', entry: 'functions/chat-templates-send.ts', name: 'ChatTemplatesSend', rateLimitClass: 'api_write', tableAccess: 'write', readsSecrets: true, tag: 'Chat', summary: 'Send an approved template message' },
  { path: 'chat/message/send', entry: 'functions/chat-message-send.ts', name: 'ChatMessageSend', rateLimitClass: 'api_write', tableAccess: 'write', readsSecrets: true, tag: 'Chat', summary: 'Send a text or media message inside the 24-hour session window' },
  { path: 'chat/message/status', entry: 'functions/chat-message-status.ts', name: 'ChatMessageStatus', rateLimitClass: 'api_read', tableAccess: 'read', tag: 'Chat', summary: 'Read the delivery status of a message by its chatmid' },
  { path: 'chat/messages/list', entry: 'functions/chat-messages-list.ts', name: 'ChatMessagesList', rateLimitClass: 'api_read', tableAccess: 'read', signsCursors: true, tag: 'Chat', summary: 'List the messages of one contact in the channel, inbound and outbound, newest first' },
  { path: 'automations/list', entry: 'functions/automations-list.ts', name: 'AutomationsList', rateLimitClass: 'api_read', tableAccess: 'read', tag: 'Automations', summary: 'List the automations of a channel with their execution counts' },
  { path: 'automations/trigger', entry: 'functions/automations-trigger.ts', name: 'AutomationsTrigger', rateLimitClass: 'api_automation_trigger', tableAccess: 'write', sendsToQueue: true, tag: 'Automations', summary: 'Run an automation for a phone number' },
];

/** Functions that are not API endpoints behind the authorizer. */
export const AUTHORIZER_ENTRY = 'functions/authorizer.ts';

/** Finds the route row for a path below the API base, or undefined. */
export function findRoute(path: string): ApiRoute | undefined {
  return API_ROUTES.find((route) => route.path === path);
}

/**
 * Functions that are not authorized API endpoints. Later work adds the WhatsApp webhook
 * (`functions/webhook-whatsapp.ts`, public, signature-checked), the automation runner
 * (`functions/automation-runner.ts`, SQS) and the public OpenAPI/docs functions here.
 */
export interface SupportFunction {
  readonly entry: string;
  readonly name: string;
  readonly tableAccess: TableAccess;
  readonly readsSecrets?: boolean;
  readonly sendsToQueue?: boolean;
  /** Fed by the automation queue (SQS event source with partial batch responses). */
  readonly consumesQueue?: boolean;
  /** Invoked on a schedule, every this many minutes (EventBridge rule). */
  readonly everyMinutes?: number;
  /** Queries the sparse outbox index (the re-drive). */
  readonly readsOutboxIndex?: boolean;
  /** A public route (no authorizer, no API key) served by this function, e.g. the webhook. */
  readonly publicPath?: string;
  readonly publicMethods?: readonly ('GET' | 'POST')[];
  /**
   * Static files shipped beside the bundle (file name → path in the repository), read
   * on the first request that needs them and never at init: infra/functions.ts copies
   * them into the function's asset, scripts/build.ts into dist/ (shared/http/static-files.ts).
   */
  readonly staticFiles?: Readonly<Record<string, string>>;
}

export const SUPPORT_FUNCTIONS: Record<string, SupportFunction> & { authorizer: SupportFunction } = {
  authorizer: { entry: AUTHORIZER_ENTRY, name: 'Authorizer', tableAccess: 'read' },
  // Static: they never touch the table ('read' is the least the type allows).
  openapi: {
    entry: 'functions/openapi.ts',
    name: 'OpenApiDocument',
    tableAccess: 'read',
    publicPath: OPENAPI_PATH,
    publicMethods: ['GET'],
    staticFiles: { 'openapi.json': 'docs/openapi.json' },
  },
  docsPage: {
    entry: 'functions/docs-page.ts',
    name: 'DocsPage',
    tableAccess: 'read',
    publicPath: DOCS_PATH,
    publicMethods: ['GET'],
    staticFiles: { 'swagger-ui-bundle.js': 'node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'swagger-ui.css': 'node_modules/swagger-ui-dist/swagger-ui.css' },
  },
  webhook: { entry: 'functions/webhook-whatsapp.ts', name: 'WhatsAppWebhook', tableAccess: 'write', readsSecrets: true, publicPath: WEBHOOK_PATH, publicMethods: ['GET', 'POST'] },
  automationRunner: { entry: 'functions/automation-runner.ts', name: 'AutomationRunner', tableAccess: 'write', readsSecrets: true, sendsToQueue: true, consumesQueue: true },
  automationRedrive: { entry: 'functions/automation-redrive.ts', name: 'AutomationRedrive', tableAccess: 'write', sendsToQueue: true, everyMinutes: 1, readsOutboxIndex: true },
  /** Blanks message contents past `MESSAGE_CONTENT_RETENTION_DAYS` (keys from the `RETAIN#` shards of the outbox index). */
  messageContentSweep: { entry: 'functions/message-content-sweep.ts', name: 'MessageContentSweep', tableAccess: 'write', everyMinutes: 60, readsOutboxIndex: true },
};
