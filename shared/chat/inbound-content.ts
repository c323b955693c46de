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

/** The stored type and content of a Cloud API `messages[]` entry. */
export function inboundContent(message: Json): { type: string; content: InboundContent } {
  const rawType = str(message.type) ?? 'unknown';
  const body = obj(message[rawType]);
  switch (rawType) {
    case 'text':
      return { type: 'text', content: { body: str(body?.body) ?? '' } };
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
        content: compact({ latitude: num(body?.latitude), longitude: num(body?.longitude), name: str(body?.name), address: str(body?.address), url: str(body?.url) }),
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
      return { type: 'reaction', content: { messageId: str(body?.message_id) ?? null, emoji: typeof body?.emoji === 'string' ? body.emoji : '' } };
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
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}
