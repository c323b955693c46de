import * as v from 'valibot';
import { described } from '../schema/docs';
import { component, nullableTimestamp, timestamp } from '../schema/responses';

/** What the chat endpoints answer (chat/templates/send, chat/message/send, chat/message/status, chat/messages/list). */

const chatmid = described(v.string(), 'The chat network message id; pass it to chat/message/status', 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0');
const sendStatus = described(v.string(), 'Delivery status right after the send', 'accepted');
const to = described(v.string(), 'Recipient: digits with country code', '14155550123');
const apiReferenceEcho = described(v.nullable(v.string()), 'The apiReference of the call, or null', 'order-1234');
const sendError = v.nullable(v.strictObject({ code: v.optional(v.union([v.string(), v.number()])), title: v.optional(v.string()), message: v.string() }));

/** What chat/templates/send answers. */
export const TemplateSendResult = component(
  'TemplateSendResult',
  v.strictObject({
    chatmid,
    status: sendStatus,
    to,
    templateName: described(v.string(), 'Template sent', 'order_update'),
    languageCode: described(v.string(), 'Language of the template sent', 'en'),
    apiReference: apiReferenceEcho,
  }),
);

/** The types chat/message/send sends. */
export const MESSAGE_TYPES = ['text', 'image', 'video', 'document', 'audio', 'sticker', 'interactive', 'location', 'reaction'] as const;

/** What chat/message/send answers. */
export const MessageSendResult = component(
  'MessageSendResult',
  v.strictObject({
    chatmid,
    status: sendStatus,
    to,
    type: described(v.picklist(MESSAGE_TYPES), 'Message type', 'text'),
    apiReference: apiReferenceEcho,
  }),
);

/** A message and its delivery status, as chat/message/status shows it. */
export const MessageStatus = component(
  'MessageStatus',
  v.strictObject({
    chatmid,
    status: described(
      v.picklist(['accepted', 'sent', 'delivered', 'read', 'failed', 'received']),
      'accepted → sent → delivered → read, or failed (with error); received for inbound messages',
      'delivered',
    ),
    direction: described(v.nullable(v.picklist(['outbound', 'inbound'])), 'outbound or inbound', 'outbound'),
    type: described(v.nullable(v.string()), 'Message type (text, image, video, document, audio, sticker, interactive, location, reaction, template)', 'text'),
    content: described(
      v.nullable(v.record(v.string(), v.unknown())),
      'What was sent: {body} for text, {url or mediaId, caption, filename} for media, {templateName, languageCode, bodyVariables, header} for templates',
    ),
    timestamp: nullableTimestamp('When the message was sent or received'),
    deliveredAt: nullableTimestamp('When it was delivered'),
    readAt: nullableTimestamp('When it was read'),
    error: described(sendError, 'Why the message failed (status failed), or null'),
  }),
);

/** A message as chat/messages/list shows it. */
export const HistoryMessage = component(
  'HistoryMessage',
  v.strictObject({
    chatmid: described(
      v.nullable(v.string()),
      'The chat network message id, or null for a send whose outcome is not known (yet)',
      'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0',
    ),
    direction: described(v.picklist(['outbound', 'inbound']), 'outbound (sent by the API or an automation) or inbound (written by the contact)', 'inbound'),
    type: described(
      v.string(),
      'text, image, video, document, audio, sticker, location, contacts, interactive, button, reaction, unsupported (inbound); text, image, video, document, audio, sticker, interactive, location, reaction, template (outbound)',
      'text',
    ),
    content: described(
      v.nullable(v.record(v.string(), v.unknown())),
      'The content in the shape of its type (docs/MESSAGING.md, "Inbound message types" and "Richer messages"), with `replyTo` (the chatmid quoted) when the message quotes one; or null once blanked by erasure or past the retention period',
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
    error: described(sendError, 'Why the send failed, or null'),
  }),
);
