/**
 * The content of an inbound chat-network message, by type, in the shape the service
 * stores and shows (docs/MESSAGING.md, "Inbound message types"). Meta adds types over
 * time: a type not listed here is kept as `unsupported` with its raw type, never
 * dropped. Never throws; fields that are missing or of the wrong type are left out.
 */

type Json = Record<string, unknown>;

export type InboundContent = Record<string, unknown>;

/** Media types: the Cloud API sends an id (fetched with the channel's token), never a link. */
export const INBOUND_MEDIA_TYPES = ['image', 'video', 'document', 'audio', 'sticker'] as const;

/** The media a stored inbound content names (its id and what the webhook said of it), or undefined for other types. */
export function inboundMediaOf(type: string, content: InboundContent): { mediaId: string; mimeType?: string; sha256?: string } | undefined {
  if (!(INBOUND_MEDIA_TYPES as readonly string[]).includes(type) || typeof content.mediaId !== 'string') return undefined;
  return { mediaId: content.mediaId, mimeType: str(content.mimeType), sha256: str(content.sha256) };
}

/**
 * Bounds, so a stored message fits an item (400 KB; it is stored three times: message,
 * history entry, chatmid pointer): a text body as webhook-payload.ts cuts it, other
 * strings at 4,096 characters (Meta's own limits are lower), lists at 20 entries, and a
 * content that is still larger than 72 KiB as JSON is kept as `unsupported` with
 * `tooLarge: true` (the message is recorded, never a 5xx).
 */
const MAX_STRING = 4_096;
const MAX_ENTRIES = 20;
const MAX_CONTENT_JSON = 72 * 1024;

/**
 * The stored type and content of a Cloud API `messages[]` entry; `textBody` is the text as
 * the caller cut it. A reply (`context.id`) keeps the chatmid it quotes as `replyTo`.
 */
export function inboundContent(message: Json, textBody?: string): { type: string; content: InboundContent } {
  const quoted = str(obj(message.context)?.id);
  const own = contentOf(message, textBody);
  const stored = quoted === undefined ? own : { ...own, content: { ...own.content, replyTo: quoted } };
  return JSON.stringify(stored.content).length <= MAX_CONTENT_JSON
    ? stored
    : { type: 'unsupported', content: { rawType: str(message.type) ?? 'unknown', tooLarge: true } };
}

function contentOf(message: Json, textBody: string | undefined): { type: string; content: InboundContent } {
  const rawType = str(message.type) ?? 'unknown';
  const body = obj(message[rawType]);
  switch (rawType) {
    case 'text':
      return { type: 'text', content: { body: textBody ?? '' } };
    case 'image':
    case 'video':
    case 'document':
    case 'audio':
    case 'sticker':
      return {
        type: rawType,
        content: compact({
          mediaId: str(body?.id),
          mimeType: str(body?.mime_type),
          caption: str(body?.caption),
          filename: str(body?.filename),
          sha256: str(body?.sha256),
          voice: typeof body?.voice === 'boolean' ? body.voice : undefined,
          animated: typeof body?.animated === 'boolean' ? body.animated : undefined,
        }),
      };
    case 'location':
      return {
        type: 'location',
        content: compact({
          latitude: num(body?.latitude),
          longitude: num(body?.longitude),
          name: str(body?.name),
          address: str(body?.address),
          url: str(body?.url),
        }),
      };
    case 'contacts':
      return { type: 'contacts', content: { contacts: arr(message.contacts).map(sharedContact) } };
    case 'interactive': {
      const replyType = str(body?.type);
      const reply = replyType === 'button_reply' || replyType === 'list_reply' ? obj(body?.[replyType]) : undefined;
      if (!reply) return unsupported(rawType);
      return { type: 'interactive', content: compact({ replyType, id: str(reply.id), title: str(reply.title), description: str(reply.description) }) };
    }
    case 'button':
      return { type: 'button', content: compact({ text: str(body?.text), payload: str(body?.payload) }) };
    case 'reaction':
      // An empty emoji removes an earlier reaction.
      return { type: 'reaction', content: { messageId: str(body?.message_id) ?? null, emoji: typeof body?.emoji === 'string' ? body.emoji.slice(0, 64) : '' } };
    default:
      return unsupported(rawType);
  }
}

const unsupported = (rawType: string) => ({ type: 'unsupported', content: { rawType } });

function sharedContact(raw: unknown): Json {
  const contact = obj(raw) ?? {};
  const name = obj(contact.name);
  return compact({
    name: str(name?.formatted_name) ?? ([str(name?.first_name), str(name?.last_name)].filter(Boolean).join(' ') || undefined),
    phones: arr(contact.phones).flatMap((phone) => {
      const entry = obj(phone);
      const value = str(entry?.phone) ?? str(entry?.wa_id);
      return value ? [compact({ phone: value, type: str(entry?.type), waId: str(entry?.wa_id) })] : [];
    }),
    emails: arr(contact.emails).flatMap((email) => {
      const entry = obj(email);
      const value = str(entry?.email);
      return value ? [compact({ email: value, type: str(entry?.type) })] : [];
    }),
    organization: str(obj(contact.org)?.company),
  });
}

function compact(values: Json): Json {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value.slice(0, MAX_ENTRIES) : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value.slice(0, MAX_STRING) : undefined;
}

function num(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}
