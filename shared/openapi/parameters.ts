/**
 * What the valibot schemas cannot say about a parameter: its meaning and an example.
 * Types, formats, defaults and limits come from the schemas themselves (document.ts
 * converts them); `schema` here may only narrow what a schema states loosely.
 *
 * Lookup order: the route's own entry, then the shared entry by parameter name.
 * A parameter without a description and an example fails test/openapi/document.test.ts.
 * Examples match the demo data of `npm start`, so "try it" works with a demo key.
 */

export interface ParameterDoc {
  description: string;
  example: unknown;
  /** JSON Schema keywords merged over the generated schema (e.g. the effective maximum of a clamped value). */
  schema?: Record<string, unknown>;
}

export const PARAMETER_DOCS: Record<string, ParameterDoc> = {
  channelId: {
    description:
      'The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.',
    example: 'ch_demoacmesupport',
  },
  phoneNumber: {
    description:
      'Phone number with country code, in any common notation (`+1 (415) 555-0123`, `14155550123`, `0044…`); stored as digits with country code. Matches the contact.',
    example: '+14155550123',
  },
  email: { description: 'Email address (stored lower-case).', example: 'bo@example.com' },
  profilePictureUrl: { description: 'http or https URL of a profile picture.', example: 'https://example.com/bo.jpg' },
  customFieldsData: {
    description:
      'Custom field values by field name: a JSON object, or (GET) the JSON object as text, or `key:value` pairs separated by commas (a value that contains a comma needs the JSON form). Names must be defined with custom-fields/manage; values must fit the field type; a null or empty value clears the field. Keys not named keep their values.',
    example: { city: 'Oakland', tier: 'gold' },
  },
  labelNames: {
    description:
      'Names of labels of the channel (matched case-insensitively), as a JSON array or (GET) comma-separated; a GET value that contains a comma needs the JSON array as text, e.g. `["Smith, Jr."]`. Replaces the contact’s labels; unknown names are a 400.',
    example: ['VIP', 'new'],
  },
  page: { description: 'Page number, from 1.', example: 1 },
  search: {
    description: 'Case-insensitive substring of the name, or digits of the phone number (a `+` and spaces are ignored). Empty means no filter.',
    example: 'example',
  },
  description: { description: 'Free text; an empty string clears it.', example: 'Paying customer' },
  color: { description: 'Hex color: `#` and six hex digits (stored upper-case).', example: '#1E88E5' },
  displayOrder: { description: 'Sort order in lists (ascending).', example: 3 },
  isRequired: { description: 'Whether contacts/manage must set this field when it creates a contact (`true`/`false`).', example: false },
  options: {
    description:
      'Allowed values of a dropdown field, as a JSON array or (GET) comma-separated; a GET value that contains a comma needs the JSON array as text, e.g. `["S, M","L"]`.',
    example: ['free', 'pro'],
  },
  to: { description: 'Recipient phone number with country code, in any common notation.', example: '+14155550123' },
  templateName: { description: 'Exact name of an APPROVED template of the channel (see chat/templates/list).', example: 'order_update' },
  languageCode: { description: 'Template language, e.g. `en` or `en_US`. When omitted: the stored template’s language (falls back to `en`).', example: 'en' },
  variables: {
    description:
      'Body variables in order ({{1}}, {{2}}, …): a JSON array or (GET) a comma-separated string; a GET value that contains a comma needs the JSON array as text, e.g. `["Smith, Jr.","A-1001"]` (or `body1`, `body2`, …). Alternatively pass `body1`, `body2`, … (not both). A value may not contain a newline, a tab or more than four consecutive spaces (the chat network refuses them).',
    example: ['Bo', 'A-1001'],
    schema: {
      anyOf: [
        { type: 'array', items: { type: 'string', minLength: 1, maxLength: 1024 }, maxItems: 50 },
        { type: 'string', maxLength: 51250 },
      ],
    },
  },
  header: { description: 'Text for the header variable of a TEXT header; no newline, tab or more than four consecutive spaces.', example: 'Spring sale' },
  image: { description: 'Header image URL (http or https) for an IMAGE header.', example: 'https://example.com/promo.jpg' },
  video: { description: 'Header video URL (http or https) for a VIDEO header.', example: 'https://example.com/promo.mp4' },
  document: { description: 'Header document URL (http or https) for a DOCUMENT header.', example: 'https://example.com/terms.pdf' },
  mediaUrl: { description: 'Header media URL, used with `mediaType` (alternative to image, video, document).', example: 'https://example.com/promo.jpg' },
  mediaType: { description: 'Type of `mediaUrl`.', example: 'image' },
  apiReference: {
    description:
      'Your reference for this send, an idempotency key per channel, recipient and 24 hours: the same reference with the same parameters answers the first send again (nothing is sent twice); with other parameters it is a 409. References starting with `automation:` are reserved for the automations’ own sends (400).',
    example: 'order-1234',
  },
  body: { description: 'Message text (required when type is text).', example: 'Hello from the Workspace API' },
  url: { description: 'Media URL (http or https; required when type is a media type).', example: 'https://example.com/photo.jpg' },
  caption: { description: 'Caption of a media message.', example: 'Your receipt' },
  filename: { description: 'File name shown for a document message.', example: 'receipt.pdf' },
  chatmid: { description: 'The chat network message id a send answered (`data.chatmid`).', example: 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0' },
  contactId: {
    description: 'Id of the contact (`data.id` of contacts/manage); alternative to phoneNumber. Unknown, or of another channel: 404.',
    example: 'ct_01jhx3k8m0',
  },
  automationId: { description: 'Id of the automation to run (or pass automationName).', example: 'au_01jhx3k8m0' },
  automationName: { description: 'Name of the automation to run, matched case-insensitively (or pass automationId).', example: 'Welcome Flow' },
  events: {
    description:
      'Event types to receive, as a JSON array or comma-separated: message.received, message.status, automation.execution.completed, automation.execution.failed, contact.opted_out, contact.opted_in; `*` or absent for every type.',
    example: ['message.status', 'message.received'],
  },
  isActive: { description: 'Whether deliveries are made (`true`/`false`); true again after a 410 deactivated it.', example: true },
  rotateSecret: { description: 'Issue a new signing secret (shown once); the previous one keeps signing beside it for 24 hours.', example: false },
  webhookId: { description: 'Id of a webhook subscription of the channel (webhooks/list).', example: 'wh_01jhx3k8m0' },
  eventId: { description: 'Id of an event of the channel (events/list, or the `webhook-id` header of a delivery).', example: 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8' },
  cursor: {
    description: "Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).",
    example: 'eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8',
  },
};

export const ROUTE_PARAMETER_DOCS: Record<string, Record<string, ParameterDoc>> = {
  'contacts/manage': {
    name: { description: 'Display name of the contact.', example: 'Bo Example' },
    status: {
      description:
        'Opt-out status: `opted_out` stops every send to the contact (403 `contact_opted_out`), `active` allows them again. Each change is recorded (when, by which API user).',
      example: 'active',
    },
  },
  'contacts/import': {
    contacts: {
      description:
        'The contacts: 1 to 1,000 objects, each with the parameters of contacts/manage (`phoneNumber` required; a row’s `channelId` is ignored). Each row is applied as contacts/manage would apply it; a refused row is reported by its index and does not stop the others. Importing the same rows again creates nothing. The body may be up to 1 MiB. In a query string: the JSON text of the array.',
      example: [
        { phoneNumber: '+14155550123', name: 'Bo Example', email: 'bo@example.com', labelNames: ['VIP'], customFieldsData: { city: 'Oakland' } },
        { phoneNumber: '+442079460958', name: 'Ann Example' },
      ],
    },
  },
  'contacts/list': {
    status: { description: 'Only contacts with this opt-out status (`active` or `opted_out`).', example: 'opted_out' },
    limit: {
      description: 'Page size. Values above 200 are clamped to 200 (`pagination.limit` then says 200).',
      example: 20,
      schema: { maximum: 200 },
    },
  },
  'contacts/delete': {
    phoneNumber: { description: 'Phone number of the contact to erase, with country code (or pass contactId).', example: '+14155550123' },
  },
  'chat/messages/list': {
    phoneNumber: { description: 'Phone number of the contact whose messages to list, with country code (or pass contactId).', example: '+14155550123' },
    limit: { description: 'Page size, 1 to 100.', example: 20 },
  },
  'labels/manage': {
    name: { description: 'Label name: the match key (case-insensitive); the case first given is kept.', example: 'Customer' },
  },
  'custom-fields/manage': {
    name: { description: 'Field name: the match key (case-insensitive) and the key in customFieldsData.', example: 'plan' },
    type: { description: 'Value type of the field; `dropdown` needs options. Default on create: text.', example: 'dropdown' },
  },
  'chat/message/send': {
    type: { description: 'Message type; media types need `url`.', example: 'text' },
  },
  'webhooks/manage': {
    url: {
      description:
        'Where to POST deliveries: https:// to a public address (the local stack also takes http://127.0.0.1 and http://localhost). The match key in the channel: the same url updates its subscription.',
      example: 'https://example.com/hooks/workspace',
    },
    description: { description: 'Free text; an empty string clears it.', example: 'CRM sync' },
  },
  'webhooks/deliveries': {
    status: { description: 'Only deliveries in this state.', example: 'failed' },
    limit: { description: 'Page size (default 50).', example: 20 },
  },
  'events/list': {
    limit: { description: 'Page size (default 50).', example: 50 },
    cursor: {
      description: 'Opaque cursor from a previous `nextCursor`; absent = the oldest event kept (events are kept at least 7 days).',
      example: 'eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8',
    },
  },
  'automations/trigger': {
    phoneNumber: { description: 'Phone number of the contact (created when it does not exist), with country code.', example: '+14155550123' },
  },
};

/**
 * Request examples where composing every parameter's example would not make one
 * sensible request (e.g. a template send with every header kind at once).
 */
export const REQUEST_EXAMPLES: Record<string, Record<string, unknown>> = {
  'chat/templates/send': {
    channelId: 'ch_demoacmesupport',
    to: '+14155550123',
    templateName: 'order_update',
    variables: ['Bo', 'A-1001'],
    apiReference: 'order-1234',
  },
  'chat/message/send': { channelId: 'ch_demoacmesupport', to: '+14155550123', type: 'text', body: 'Hello from the Workspace API' },
  'automations/trigger': { channelId: 'ch_demoacmesupport', phoneNumber: '+14155550123', automationName: 'Welcome Flow' },
};

/**
 * Rules of a route's parameters that the schema enforces in checks or transforms,
 * stated as JSON Schema keywords on the parameter object (merged into `<Route>Params`).
 */
export const ROUTE_PARAMETER_RULES: Record<string, Record<string, unknown>> = {
  'chat/templates/send': {
    patternProperties: {
      '^body[1-9][0-9]{0,2}$': {
        type: 'string',
        minLength: 1,
        maxLength: 1024,
        description: 'body1, body2, …: body variables by index, numbered from 1 without gaps (instead of variables).',
      },
    },
  },
  'automations/trigger': {
    anyOf: [{ required: ['automationId'] }, { required: ['automationName'] }],
  },
  'chat/messages/list': { anyOf: [{ required: ['phoneNumber'] }, { required: ['contactId'] }] },
  'contacts/delete': { anyOf: [{ required: ['phoneNumber'] }, { required: ['contactId'] }] },
};

export function parameterDoc(path: string, name: string): ParameterDoc | undefined {
  return ROUTE_PARAMETER_DOCS[path]?.[name] ?? PARAMETER_DOCS[name];
}
