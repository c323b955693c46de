import * as v from 'valibot';
import { CUSTOM_FIELD_TYPES } from '../domain/definitions';
import { EVENT_TYPES } from '../events/event-types';

/**
 * What each endpoint answers, as valibot schemas: the `data` of the success envelope
 * per route path, and the error statuses each route may answer besides the common
 * ones. The OpenAPI generator (document.ts) turns them into JSON Schema, and the
 * contract test checks every response of the end-to-end suite against them, so a
 * field added to an answer without being added here fails the tests.
 *
 * Objects are strict (no undocumented fields). A route in shared/routes.ts without an
 * entry in ROUTE_RESPONSES fails test/openapi/document.test.ts.
 */

const described = <T extends v.GenericSchema>(schema: T, description: string, example?: unknown) =>
  example === undefined ? v.pipe(schema, v.description(description)) : v.pipe(schema, v.description(description), v.examples([example]));

const timestamp = (description: string) => described(v.pipe(v.string(), v.isoTimestamp()), `${description} (ISO 8601, UTC)`, '2025-01-31T09:30:00.000Z');
const nullableTimestamp = (description: string) =>
  v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description(`${description} (ISO 8601, UTC), or null`));
const hexColor = described(v.pipe(v.string(), v.regex(/^#[0-9A-F]{6}$/)), 'Hex color: # and six upper-case hex digits', '#1E88E5');

export const Channel = v.strictObject({
  id: described(v.string(), 'Channel id; pass it as channelId', 'ch_demoacmesupport'),
  name: described(v.string(), 'Display name', 'Acme Support'),
  phoneNumberId: described(v.string(), 'Id of the business phone number on the chat network', '100000000000001'),
  isActive: described(v.boolean(), 'Whether the channel is active', true),
});

const LabelRef = v.strictObject({
  id: described(v.string(), 'Label id', 'lb_01jhx3k8m0'),
  name: described(v.string(), 'Label name', 'VIP'),
  color: hexColor,
});

const customFieldValues = described(v.record(v.string(), v.union([v.string(), v.number()])), 'Custom field values by field name', {
  city: 'Oakland',
  tier: 'gold',
});

const contactEntries = {
  id: described(v.string(), 'Contact id', 'ct_01jhx3k8m0'),
  name: described(v.nullable(v.string()), 'Display name, or null', 'Bo Example'),
  phone: described(v.string(), 'Phone number: digits with country code, no plus', '14155550123'),
  email: described(v.nullable(v.string()), 'Email address, or null', 'bo@example.com'),
  labels: described(v.array(LabelRef), 'Labels attached to the contact'),
  customFields: customFieldValues,
  status: described(
    v.picklist(['active', 'opted_out']),
    'Opt-out status: opted_out after an opt-out keyword (STOP, …) or contacts/manage status; sends to it are refused (403 contact_opted_out)',
    'active',
  ),
};

/** A contact as contacts/list shows it. */
export const ContactSummary = v.strictObject(contactEntries);

const created = described(v.boolean(), 'true when this call created the record, false when it updated one', true);

const ImportRowError = v.strictObject({
  index: described(v.pipe(v.number(), v.integer()), 'Position of the row in `contacts` (from 0)', 7),
  phoneNumber: described(v.nullable(v.string()), 'The row’s phone number (normalized when it could be), or null', '14155550123'),
  error: described(v.string(), 'The error code contacts/manage would answer for this row', 'invalid_parameter'),
  message: described(v.string(), 'What is wrong with the row', 'Unknown labels: Nope. Create them with labels/manage first.'),
  parameter: v.optional(described(v.string(), 'The row’s parameter at fault', 'labelNames')),
});

/** What contacts/import answers: the rows applied, and each refused row by its index. */
export const ImportResult = v.strictObject({
  created: described(v.pipe(v.number(), v.integer()), 'Contacts this call created', 998),
  updated: described(v.pipe(v.number(), v.integer()), 'Existing contacts this call updated (a re-run of the same rows only updates)', 1),
  failed: described(v.pipe(v.number(), v.integer()), 'Rows not applied; each is in `errors`', 1),
  errors: described(v.array(ImportRowError), 'The rows not applied, by index'),
});

/** A contact as contacts/manage answers it. */
export const ContactResult = v.strictObject({
  ...contactEntries,
  profilePictureUrl: described(v.nullable(v.string()), 'Profile picture URL, or null', 'https://example.com/bo.jpg'),
  createdAt: timestamp('When the contact was created'),
  updatedAt: timestamp('When the contact was last changed'),
  created,
});

const labelEntries = {
  id: described(v.string(), 'Label id', 'lb_01jhx3k8m0'),
  channelId: described(v.string(), 'The channel the label belongs to', 'ch_demoacmesupport'),
  name: described(v.string(), 'Label name (matched case-insensitively)', 'Customer'),
  description: described(v.nullable(v.string()), 'Description, or null', 'Paying customer'),
  color: hexColor,
  displayOrder: described(v.pipe(v.number(), v.integer()), 'Sort order', 3),
};
export const Label = v.strictObject(labelEntries);
export const LabelResult = v.strictObject({ ...labelEntries, created });

const customFieldEntries = {
  id: described(v.string(), 'Custom field id', 'cf_01jhx3k8m0'),
  channelId: described(v.string(), 'The channel the field belongs to', 'ch_demoacmesupport'),
  name: described(v.string(), 'Field name (matched case-insensitively); the key in customFieldsData', 'plan'),
  type: described(v.picklist(CUSTOM_FIELD_TYPES), 'Value type', 'dropdown'),
  isRequired: described(v.boolean(), 'Whether contacts/manage requires it when it creates a contact', false),
  options: described(v.array(v.string()), 'Allowed values of a dropdown field', ['free', 'pro']),
};
export const CustomField = v.strictObject(customFieldEntries);
export const CustomFieldResult = v.strictObject({ ...customFieldEntries, created });

export const Pagination = v.strictObject({
  page: described(v.pipe(v.number(), v.integer()), 'This page (from 1)', 1),
  limit: described(v.pipe(v.number(), v.integer()), 'Page size used (at most 200)', 50),
  total: described(v.pipe(v.number(), v.integer()), 'Number of all matches', 1),
  pages: described(v.pipe(v.number(), v.integer()), 'Number of pages', 1),
});

const variableCount = v.pipe(v.number(), v.integer());

export const Template = v.strictObject({
  name: described(v.string(), 'Exact template name', 'order_update'),
  language: described(v.string(), 'Language code', 'en'),
  category: described(v.string(), 'Template category on the chat network', 'UTILITY'),
  status: described(v.string(), 'Review status (only APPROVED templates are listed)', 'APPROVED'),
  components: described(
    v.array(v.strictObject({ type: v.string(), format: v.optional(v.string()), text: v.optional(v.string()), variables: variableCount })),
    'Components (HEADER, BODY, FOOTER, BUTTONS) with the number of variables each needs',
  ),
  bodyVariables: described(variableCount, 'How many body variables a send must fill ({{1}}, {{2}}, …)', 2),
  header: described(
    v.nullable(
      v.union([
        v.strictObject({ format: v.literal('TEXT'), variables: variableCount }),
        v.strictObject({ format: v.picklist(['IMAGE', 'VIDEO', 'DOCUMENT']) }),
      ]),
    ),
    'The header a send must fill: TEXT with its variable count, a media format (pass image, video or document), or null',
  ),
});

const chatmid = described(v.string(), 'The chat network message id; pass it to chat/message/status', 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0');
const sendStatus = described(v.string(), 'Delivery status right after the send', 'accepted');
const to = described(v.string(), 'Recipient: digits with country code', '14155550123');
const apiReferenceEcho = described(v.nullable(v.string()), 'The apiReference of the call, or null', 'order-1234');

export const TemplateSendResult = v.strictObject({
  chatmid,
  status: sendStatus,
  to,
  templateName: described(v.string(), 'Template sent', 'order_update'),
  languageCode: described(v.string(), 'Language of the template sent', 'en'),
  apiReference: apiReferenceEcho,
});

export const MessageSendResult = v.strictObject({
  chatmid,
  status: sendStatus,
  to,
  type: described(v.picklist(['text', 'image', 'video', 'document', 'audio']), 'Message type', 'text'),
  apiReference: apiReferenceEcho,
});

export const MessageStatus = v.strictObject({
  chatmid,
  status: described(
    v.picklist(['accepted', 'sent', 'delivered', 'read', 'failed', 'received']),
    'accepted → sent → delivered → read, or failed (with error); received for inbound messages',
    'delivered',
  ),
  direction: described(v.nullable(v.picklist(['outbound', 'inbound'])), 'outbound or inbound', 'outbound'),
  type: described(v.nullable(v.string()), 'Message type (text, image, video, document, audio, template)', 'text'),
  content: described(
    v.nullable(v.record(v.string(), v.unknown())),
    'What was sent: {body} for text, {url, caption, filename} for media, {templateName, languageCode, bodyVariables, header} for templates',
  ),
  timestamp: nullableTimestamp('When the message was sent or received'),
  deliveredAt: nullableTimestamp('When it was delivered'),
  readAt: nullableTimestamp('When it was read'),
  error: described(
    v.nullable(v.strictObject({ code: v.optional(v.union([v.string(), v.number()])), title: v.optional(v.string()), message: v.string() })),
    'Why the message failed (status failed), or null',
  ),
});

/** A message as chat/messages/list shows it. */
export const HistoryMessage = v.strictObject({
  chatmid: described(
    v.nullable(v.string()),
    'The chat network message id, or null for a send whose outcome is not known (yet)',
    'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0',
  ),
  direction: described(v.picklist(['outbound', 'inbound']), 'outbound (sent by the API or an automation) or inbound (written by the contact)', 'inbound'),
  type: described(
    v.string(),
    'text, image, video, document, audio, sticker, location, contacts, interactive, button, reaction, unsupported (inbound); text, image, video, document, audio, template (outbound)',
    'text',
  ),
  content: described(
    v.nullable(v.record(v.string(), v.unknown())),
    'The content in the shape of its type (docs/MESSAGING.md, "Inbound message types"), or null once blanked by erasure or past the retention period',
    { body: 'Hi, where is my order?' },
  ),
  status: described(
    v.picklist(['received', 'pending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'unknown']),
    'received (inbound); accepted → sent → delivered → read, or failed (outbound); pending or unknown while a send’s outcome is not known',
    'received',
  ),
  timestamp: timestamp('When the message was sent or received'),
  deliveredAt: nullableTimestamp('When it was delivered'),
  readAt: nullableTimestamp('When it was read'),
  apiReference: apiReferenceEcho,
  error: described(
    v.nullable(v.strictObject({ code: v.optional(v.union([v.string(), v.number()])), title: v.optional(v.string()), message: v.string() })),
    'Why the send failed, or null',
  ),
});

export const ContactDeleted = v.strictObject({
  id: described(v.string(), 'The erased contact’s id', 'ct_01jhx3k8m0'),
  deleted: described(v.literal(true), 'Always true', true),
});

export const Automation = v.strictObject({
  id: described(v.string(), 'Automation id', 'au_01jhx3k8m0'),
  name: described(v.string(), 'Name (matched case-insensitively as automationName)', 'Welcome Flow'),
  status: described(v.picklist(['active', 'inactive']), 'Only active automations can be triggered', 'active'),
  executionCount: described(v.pipe(v.number(), v.integer()), 'Number of executions triggered', 3),
});

export const AutomationExecution = v.strictObject({
  executionId: described(v.string(), 'Execution id', 'ex_01jhx3k8m0'),
  automationId: described(v.string(), 'The automation triggered', 'au_01jhx3k8m0'),
  automationName: described(v.string(), 'Its name', 'Welcome Flow'),
  contactId: described(v.string(), 'The contact created or found', 'ct_01jhx3k8m0'),
  conversationId: described(v.string(), 'The conversation created or found', 'cv_01jhx3k8m0'),
  status: described(v.literal('triggered'), 'triggered: the steps run in the background', 'triggered'),
});

const webhookEntries = {
  id: described(v.string(), 'Webhook subscription id', 'wh_01jhx3k8m0'),
  channelId: described(v.string(), 'The channel whose events it receives', 'ch_demoacmesupport'),
  url: described(v.string(), 'Where deliveries are POSTed (the match key in the channel)', 'https://example.com/hooks/workspace'),
  events: described(v.array(v.string()), 'Event types it receives; `*` for every type', ['message.status', 'message.received']),
  isActive: described(v.boolean(), 'Whether deliveries are made', true),
  description: described(v.nullable(v.string()), 'Free text, or null', 'CRM sync'),
};

export const WebhookResult = v.strictObject({
  ...webhookEntries,
  created,
  secret: v.optional(
    described(
      v.string(),
      'The signing secret (Standard Webhooks `whsec_…`): only when created or rotated, never shown again',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    ),
  ),
});

export const Webhook = v.strictObject({
  ...webhookEntries,
  disabledReason: described(v.nullable(v.string()), '`gone` when a 410 answer deactivated it, or null', null),
  lastDeliveryAt: nullableTimestamp('The last delivery attempt'),
  lastStatusCode: described(v.nullable(v.number()), 'HTTP status of the last attempt, or null (no answer)', 200),
  failingSince: nullableTimestamp('Since when an event failed its last retry (cleared by the next success)'),
});

export const WebhookDelivery = v.strictObject({
  eventId: described(v.string(), 'The event (also the `webhook-id` header)', 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8'),
  type: described(v.string(), 'Event type', 'message.status'),
  status: described(v.picklist(['pending', 'succeeded', 'failed']), 'pending until a 2xx or the last retry', 'succeeded'),
  attempts: described(v.pipe(v.number(), v.integer()), 'Attempts made', 1),
  lastAttemptAt: nullableTimestamp('The last attempt'),
  lastStatusCode: described(v.nullable(v.number()), 'HTTP status of the last attempt, or null (no answer)', 200),
  lastError: described(v.nullable(v.string()), 'Why the last attempt failed, or null', null),
  nextAttemptAt: nullableTimestamp('The next retry'),
});

export const Redelivery = v.strictObject({
  webhookId: described(v.string(), 'The subscription', 'wh_01jhx3k8m0'),
  eventId: described(v.string(), 'The event', 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8'),
  status: described(v.literal('pending'), 'Queued for delivery', 'pending'),
});

export const Event = v.strictObject({
  id: described(v.string(), 'Event id (the `webhook-id` of its deliveries)', 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8'),
  type: described(v.picklist(EVENT_TYPES), 'Event type', 'message.status'),
  timestamp: timestamp('When the change happened'),
  data: described(v.record(v.string(), v.unknown()), 'The event\'s fields by type (README, "Events to your systems")', {
    channelId: 'ch_demoacmesupport',
    chatmid: 'wamid.HBgL',
    status: 'delivered',
  }),
});

/** Named schemas: they become `components.schemas` and are referenced by name. */
export const RESPONSE_COMPONENTS: Record<string, v.GenericSchema> = {
  Channel,
  ContactSummary,
  ContactResult,
  Label,
  LabelResult,
  CustomField,
  CustomFieldResult,
  Pagination,
  Template,
  TemplateSendResult,
  MessageSendResult,
  MessageStatus,
  HistoryMessage,
  ContactDeleted,
  Automation,
  AutomationExecution,
  WebhookResult,
  Webhook,
  WebhookDelivery,
  Redelivery,
  Event,
};

/** Error statuses every endpoint may answer (the authorizer, the limiter, validation, the gateway's size limits, the store). */
export const COMMON_ERROR_STATUSES = [400, 401, 403, 413, 429, 500, 503] as const;

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503;

export interface RouteResponse {
  /** The success envelope's `data`. */
  data: v.GenericSchema;
  /** What `data` holds, for the 200 response's description. */
  description: string;
  /** Envelope fields beside `data` and `message`: `pagination` (contacts/list) or `total` (automations/list). */
  envelope?: 'pagination' | 'total' | 'nextCursor';
  /** Error statuses beyond COMMON_ERROR_STATUSES. */
  errors?: readonly ErrorStatus[];
  /** An example of the envelope's `message`, when the route writes one. */
  message?: string;
}

/** The answer of every route, keyed by its path in shared/routes.ts. */
export const ROUTE_RESPONSES: Record<string, RouteResponse> = {
  'channels/list': {
    data: v.array(Channel),
    message: 'Found 2 channel(s)',
    description: 'The channels this key may use, ordered by name; `message` states the count.',
  },
  'contacts/manage': { data: ContactResult, message: 'Contact created', description: 'The contact as stored; `created` tells a create from an update.' },
  'contacts/import': {
    data: ImportResult,
    message: 'Imported 1000 row(s): 998 created, 1 updated, 1 failed',
    description: 'Each row applied as contacts/manage would apply it; a refused row does not stop the others and is reported by its index in `errors`.',
  },
  'contacts/list': {
    data: v.array(ContactSummary),
    envelope: 'pagination',
    description: 'One page of the contacts, ordered by name; `pagination` counts all matches.',
  },
  'labels/manage': { data: LabelResult, message: 'Label created', description: 'The label as stored; `created` tells a create from an update.' },
  'labels/list': { data: v.array(Label), message: 'Found 2 label(s)', description: 'The labels of the channel, by display order.' },
  'custom-fields/manage': {
    data: CustomFieldResult,
    message: 'Custom field created',
    description: 'The custom field definition as stored; `created` tells a create from an update.',
  },
  'custom-fields/list': { data: v.array(CustomField), message: 'Found 2 custom field(s)', description: 'The custom field definitions of the channel.' },
  'chat/templates/list': {
    data: v.array(Template),
    message: 'Found 3 approved template(s)',
    description: 'The APPROVED templates of the channel, with the variables a send must fill.',
  },
  'chat/templates/send': {
    data: TemplateSendResult,
    message: 'Template message accepted by the chat network',
    errors: [404, 409, 502],
    description: 'The send was accepted by the chat network; poll chat/message/status with `chatmid`.',
  },
  'chat/message/send': {
    data: MessageSendResult,
    message: 'Message accepted by the chat network',
    errors: [409, 502],
    description: 'The send was accepted by the chat network; poll chat/message/status with `chatmid`.',
  },
  'chat/message/status': { data: MessageStatus, description: 'The message and its delivery status.' },
  'chat/messages/list': {
    data: v.array(HistoryMessage),
    message: 'Found 2 message(s)',
    envelope: 'nextCursor',
    errors: [404],
    description: 'One page of the contact’s messages in the channel, inbound and outbound, newest first; `nextCursor` fetches the next page.',
  },
  'contacts/delete': {
    data: ContactDeleted,
    message: 'Contact erased: its data, conversation and message contents are gone',
    errors: [404],
    description:
      'The contact, its labels, custom field values, search entry and conversation are removed and its messages’ contents blanked (status skeletons stay).',
  },
  'automations/list': {
    data: v.array(Automation),
    message: 'Found 1 automation(s)',
    envelope: 'total',
    description: 'The automations of the channel; `total` counts them.',
  },
  'automations/trigger': {
    data: AutomationExecution,
    message: 'Automation "Welcome Flow" triggered',
    errors: [404],
    description: 'The execution started (status triggered).',
  },
  'webhooks/manage': {
    data: WebhookResult,
    message: 'Webhook created; store the secret now, it is not shown again',
    errors: [409],
    description: 'The subscription; `secret` only when it was created or its secret rotated.',
  },
  'webhooks/list': {
    data: v.array(Webhook),
    message: 'Found 1 webhook(s)',
    description: "The channel's subscriptions and how their deliveries fare; never a secret.",
  },
  'webhooks/deliveries': {
    data: v.array(WebhookDelivery),
    envelope: 'nextCursor',
    errors: [404],
    description: "The subscription's deliveries, newest event first.",
  },
  'webhooks/redeliver': {
    data: Redelivery,
    message: 'Event queued for delivery again',
    errors: [404, 409],
    description: 'The event is queued for the subscription again, with the same webhook-id.',
  },
  'events/list': {
    data: v.array(Event),
    envelope: 'nextCursor',
    description:
      "The channel's events oldest first, each exactly the body webhooks deliver; `nextCursor` is null at the head (ask again later with the same cursor).",
  },
};

export interface ErrorStatusDoc {
  /** Name of the response in `components.responses`. */
  name: string;
  description: string;
  /** Error codes this status carries, the first one used in the example. */
  codes: readonly string[];
  example: { error: string; message: string; details?: Record<string, unknown> };
}

export const ERROR_STATUS_DOCS: Record<ErrorStatus, ErrorStatusDoc> = {
  400: {
    name: 'BadRequest',
    description: 'A parameter is missing or invalid (`details.parameter` names it), the body is not JSON, or no channel could be chosen.',
    codes: [
      'invalid_parameter',
      'missing_parameter',
      'channel_required',
      'invalid_json',
      'payload_too_large',
      'unsupported_content_type',
      'outside_session_window',
      'invalid_request',
    ],
    example: {
      error: 'invalid_parameter',
      message: 'Invalid parameter color: must be # followed by six hex digits, e.g. #FF8800.',
      details: { parameter: 'color' },
    },
  },
  401: {
    name: 'Unauthorized',
    description: 'The API key is missing, unknown, revoked or expired, or was sent in the URL or body.',
    codes: ['unauthorized'],
    example: { error: 'unauthorized', message: 'A valid API key is required: send it as X-API-Key or Authorization: Bearer.' },
  },
  403: {
    name: 'Forbidden',
    description:
      'The key may not use that channel or resource (also for ids of other workspaces and unknown ids), or the recipient has opted out (`contact_opted_out`: nothing was sent).',
    codes: ['forbidden', 'contact_opted_out'],
    example: { error: 'forbidden', message: 'This API key may not use that channel.', details: { parameter: 'channelId' } },
  },
  404: {
    name: 'NotFound',
    description: 'The resource does not exist in this channel.',
    codes: ['not_found'],
    example: { error: 'not_found', message: 'No such template in this channel.' },
  },
  409: {
    name: 'Conflict',
    description: 'The apiReference was already used for this recipient with other parameters.',
    codes: ['conflict'],
    example: { error: 'conflict', message: 'This apiReference was already used for this recipient with other parameters.' },
  },
  413: {
    name: 'PayloadTooLarge',
    description:
      "The request is larger than an invocation carries (about 6 MB with the request around the body; API Gateway takes up to 10 MB): refused by the gateway before the endpoint runs. A body over the endpoint's own limit is a 400 `payload_too_large`.",
    codes: ['payload_too_large'],
    example: {
      error: 'payload_too_large',
      message: 'The request is too large: endpoints take bodies up to 64 KiB (contacts/import 1024 KiB).',
      details: { parameter: 'body' },
    },
  },
  429: {
    name: 'TooManyRequests',
    description: 'The rate limit of the route class is exhausted for this API user; retry after `Retry-After` seconds.',
    codes: ['rate_limited'],
    example: { error: 'rate_limited', message: 'Rate limit of 120 requests per minute for api_read exceeded. Retry after 42 seconds.' },
  },
  500: {
    name: 'InternalError',
    description: 'An unexpected error; quote `X-Request-Id` to support.',
    codes: ['internal_error'],
    example: { error: 'internal_error', message: 'An unexpected error occurred. Quote the request id when you contact support.' },
  },
  502: {
    name: 'BadGateway',
    description: 'The chat network refused or failed the request in a way the caller cannot fix by changing parameters.',
    codes: ['chat_network_error'],
    example: { error: 'chat_network_error', message: 'The chat network did not accept the message.' },
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'A dependency is busy or unavailable; safe to retry (after `Retry-After` seconds when given).',
    codes: ['service_unavailable'],
    example: { error: 'service_unavailable', message: 'The service is busy. Retry shortly.' },
  },
};

/** The failure envelope. */
export const ErrorResponse = v.strictObject({
  success: v.literal(false),
  error: described(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]*$/)), 'Stable snake_case error code to branch on', 'invalid_parameter'),
  message: v.optional(described(v.string(), 'Human-readable detail', 'Missing required parameter: phoneNumber.')),
  details: v.optional(
    v.pipe(
      v.looseObject({ parameter: v.optional(described(v.string(), 'The parameter at fault (400, 403)', 'phoneNumber')) }),
      v.description('More about the failure: the parameter at fault, unknown names, …'),
    ),
  ),
});
