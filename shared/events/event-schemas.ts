import * as v from 'valibot';
import { described } from '../schema/docs';
import { component, timestamp } from '../schema/responses';
import type { EventType } from './event-types';

/**
 * The published shape of every event (INTERFACE §10, §16): one valibot schema per type,
 * every field of `data` described. The OpenAPI document's `webhooks` section and the
 * events/list `Event` are generated from these (shared/openapi/document.ts), the event
 * builders (shared/domain/event-builders.ts) are typed by them, and the e2e suite
 * validates every delivery it receives against the published document
 * (test/support/receiver.ts), so a builder that drifts fails a test. Objects are strict:
 * a field not written here is a drift too.
 */

const channelId = described(v.string(), 'The channel the event happened in', 'ch_demoacmesupport');
const eventTime = (what: string) => timestamp(what);
const nullableString = (description: string, example: string | null) => described(v.nullable(v.string()), description, example);
const optionalString = (description: string, example: string) => v.optional(described(v.string(), description, example));
const optionalNumber = (description: string, example: number) => v.optional(described(v.number(), description, example));
const optionalBoolean = (description: string, example: boolean) => v.optional(described(v.boolean(), description, example));

/** The content of an inbound message, by its `type` (docs/MESSAGING.md, "Inbound message types"). */
const InboundContent = component(
  'InboundMessageContent',
  v.pipe(
    v.union([
      v.strictObject({ body: described(v.string(), 'text: the text as written', 'Hello') }),
      v.strictObject({
        mediaId: optionalString('image, video, document, audio, sticker: the media id (chat/media/get)', '1037543291543636'),
        mimeType: optionalString('The media type', 'image/jpeg'),
        caption: optionalString('The caption', 'The broken part'),
        filename: optionalString('document: the file name', 'invoice.pdf'),
        sha256: optionalString("The media's SHA-256 as the chat network gave it", 'IqWUvUB9QXqFBkyiYmDQ3xgWcYnmgR4ncn0BN+n4GmU='),
        voice: optionalBoolean('audio: a voice note', true),
        animated: optionalBoolean('sticker: animated', false),
      }),
      v.strictObject({
        latitude: optionalNumber('location: latitude', 38.72),
        longitude: optionalNumber('location: longitude', -9.14),
        name: optionalString("location: the place's name", 'Lisbon office'),
        address: optionalString('location: the address', 'Av. da Liberdade 1'),
        url: optionalString('location: a link', 'https://example.com/place'),
      }),
      v.strictObject({
        contacts: described(
          v.array(
            v.strictObject({
              name: optionalString("contacts: the shared contact's name", 'Dee Customer'),
              phones: described(
                v.array(
                  v.strictObject({
                    phone: described(v.string(), 'A phone number', '+351 912 345 678'),
                    type: optionalString('Its kind', 'CELL'),
                    waId: optionalString('Its WhatsApp id', '351912345678'),
                  }),
                ),
                'Phone numbers',
                [],
              ),
              emails: described(
                v.array(v.strictObject({ email: described(v.string(), 'An email address', 'dee@example.com'), type: optionalString('Its kind', 'WORK') })),
                'Email addresses',
                [],
              ),
              organization: optionalString('The company', 'Example Ltd'),
            }),
          ),
          'contacts: the shared contact cards (at most 20)',
          [],
        ),
      }),
      v.strictObject({
        replyType: described(v.picklist(['button_reply', 'list_reply']), 'interactive: which kind of reply', 'button_reply'),
        id: optionalString('The id of the chosen button or row', 'opt_yes'),
        title: optionalString('Its title', 'Yes'),
        description: optionalString("A list row's description", 'Confirm the booking'),
      }),
      v.strictObject({
        text: optionalString("button: the quick-reply button's text", 'Stop promotions'),
        payload: optionalString('Its payload', 'STOP_PROMOS'),
      }),
      v.strictObject({
        messageId: nullableString('reaction: the chatmid reacted to', 'wamid.HBgLMzUxOTEyMzQ1Njc4FQIAEhgg'),
        emoji: described(v.string(), 'The emoji; empty when an earlier reaction was removed', '👍'),
      }),
      v.strictObject({
        rawType: described(v.string(), "unsupported: the chat network's type", 'order'),
        tooLarge: optionalBoolean('true when the content was too large to keep', true),
      }),
    ]),
    v.description("What the message carried; its fields depend on `type` (a type this API does not know is `unsupported` with the network's `rawType`)"),
  ),
);

const MessageReceivedData = v.strictObject({
  channelId,
  chatmid: described(v.string(), "The chat network's message id", 'wamid.HBgLMzUxOTEyMzQ1Njc4FQIAEhgg'),
  conversationId: described(v.string(), 'The conversation (chat/messages/list)', 'cv_01jhx3k8m0'),
  contact: described(
    v.strictObject({
      id: described(v.string(), 'Contact id', 'ct_01jhx3k8m0'),
      phone: described(v.string(), 'Phone number (digits with country code)', '351912345678'),
      name: nullableString('Name, or null', 'Dee Customer'),
    }),
    'The contact who wrote (created on its first message)',
  ),
  type: described(
    v.string(),
    'Message type: text, image, video, document, audio, sticker, location, contacts, interactive, button, reaction or unsupported',
    'text',
  ),
  content: described(
    v.nullable(InboundContent),
    "What the message carried; its fields depend on `type` (a type this API does not know is `unsupported` with the network's `rawType`); null once the content retention period (`MESSAGE_CONTENT_RETENTION_DAYS`) has passed",
  ),
  timestamp: eventTime('When the message was sent'),
});

const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
const MessageStatusData = v.strictObject({
  channelId,
  chatmid: described(v.string(), "The chat network's message id (chat/message/send's answer)", 'wamid.HBgLMzUxOTEyMzQ1Njc4FQIAEhgg'),
  status: described(v.picklist(MESSAGE_STATUSES), 'The new status (only forward changes are announced)', 'delivered'),
  error: described(
    v.nullable(
      v.strictObject({
        code: v.optional(described(v.number(), "The chat network's error code", 131026)),
        title: described(v.string(), 'Its title', 'Message undeliverable'),
        message: described(v.string(), 'What went wrong', 'Message undeliverable'),
      }),
    ),
    'Why the message failed (status failed), or null',
    null,
  ),
  apiReference: nullableString("The send's apiReference, or null", 'order-1001'),
  to: nullableString('The recipient (digits with country code), or null when not known yet', '351912345678'),
  timestamp: eventTime('When the chat network reported the status'),
});

const executionEntries = {
  channelId,
  executionId: described(v.string(), 'The execution', 'ex_01jhx3k8m0'),
  automationId: described(v.string(), 'The automation', 'au_01jhx3k8m0'),
  automationName: described(v.string(), "The automation's name", 'Welcome'),
  contactId: described(v.string(), 'The contact it ran for', 'ct_01jhx3k8m0'),
};
const ExecutionCompletedData = v.strictObject({
  ...executionEntries,
  status: described(v.literal('completed'), 'completed', 'completed'),
});
const ExecutionFailedData = v.strictObject({
  ...executionEntries,
  status: described(v.literal('failed'), 'failed', 'failed'),
  failedStep: described(v.nullable(v.number()), 'The step that failed (1-based), or null', 2),
  reason: nullableString('Why it failed, or null', 'contact_opted_out'),
});

/** What changed a contact's opt-out status: an inbound keyword, an API call (contacts/manage), or contacts/import. */
export const OPT_OUT_SOURCES = ['keyword', 'api', 'import'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

const optOutData = (keywordExample: string) =>
  v.strictObject({
    channelId,
    contact: described(
      v.strictObject({
        id: described(v.string(), 'Contact id', 'ct_01jhx3k8m0'),
        phone: described(v.string(), 'Phone number (digits with country code)', '351912345678'),
      }),
      'The contact',
    ),
    source: described(
      v.picklist(OPT_OUT_SOURCES),
      'What changed it: `keyword` (an inbound message), `api` (contacts/manage `status`) or `import` (contacts/import `status`)',
      'keyword',
    ),
    keyword: v.optional(described(v.string(), 'For `keyword`: the keyword as the contact wrote it (trimmed)', keywordExample)),
  });

/** Each event type's `data`. */
export const EVENT_DATA = {
  'message.received': MessageReceivedData,
  'message.status': MessageStatusData,
  'automation.execution.completed': ExecutionCompletedData,
  'automation.execution.failed': ExecutionFailedData,
  'contact.opted_out': optOutData('STOP'),
  'contact.opted_in': optOutData('START'),
} satisfies Record<EventType, v.GenericSchema>;

export type EventData<T extends EventType> = v.InferOutput<(typeof EVENT_DATA)[T]>;

const EVENT_SUMMARIES: Record<EventType, string> = {
  'message.received': 'A contact wrote to the channel (once per inbound message).',
  'message.status': 'An outbound message moved forward: sent, delivered, read or failed.',
  'automation.execution.completed': 'An automation ran to its end for a contact.',
  'automation.execution.failed': 'An automation stopped at a step that failed.',
  'contact.opted_out': 'A contact opted out of the channel (a STOP keyword, contacts/manage or contacts/import).',
  'contact.opted_in': 'A contact opted back in (a START keyword, contacts/manage or contacts/import).',
};

/** `message.status` → `MessageStatus`: the name of a type's schemas in the OpenAPI document. */
const schemaName = (type: EventType) =>
  type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

function eventSchema<T extends EventType>(type: T) {
  return component(
    `${schemaName(type)}Event`,
    v.strictObject({
      id: described(v.string(), 'Event id (the `webhook-id` header of every attempt)', 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8'),
      type: described(v.literal(type), 'Event type', type),
      timestamp: eventTime('When the change happened'),
      data: component(`${schemaName(type)}EventData`, v.pipe(EVENT_DATA[type], v.description(EVENT_SUMMARIES[type]))),
    }),
  );
}

/** The body of a delivery (and an entry of events/list) of each type. */
export const EVENT_SCHEMAS = {
  'message.received': eventSchema('message.received'),
  'message.status': eventSchema('message.status'),
  'automation.execution.completed': eventSchema('automation.execution.completed'),
  'automation.execution.failed': eventSchema('automation.execution.failed'),
  'contact.opted_out': eventSchema('contact.opted_out'),
  'contact.opted_in': eventSchema('contact.opted_in'),
} satisfies { [T in EventType]: v.GenericSchema };

/** What a type's event is, in a sentence (the `webhooks` section's summaries, docs/EVENTS.md). */
export const eventSummary = (type: EventType) => EVENT_SUMMARIES[type];

/** Any event: the body webhooks deliver and events/list shows, told apart by `type`. */
export const Event = component(
  'Event',
  v.variant('type', [
    EVENT_SCHEMAS['message.received'],
    EVENT_SCHEMAS['message.status'],
    EVENT_SCHEMAS['automation.execution.completed'],
    EVENT_SCHEMAS['automation.execution.failed'],
    EVENT_SCHEMAS['contact.opted_out'],
    EVENT_SCHEMAS['contact.opted_in'],
  ]),
);
export type AnyEvent = v.InferOutput<typeof Event>;
