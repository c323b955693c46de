/**
 * The inbound messages `npm run admin -- inbound` can have the sandbox deliver: every
 * type the Cloud API delivers, built from flags in Meta's `messages[]` shape (without
 * from, id and timestamp, which the sandbox adds). README "The operator CLI" lists them.
 */

export type InboundFlags = Record<string, string | undefined>;

/** The flags `inbound` takes beyond --channel, --from and --text. */
export const INBOUND_FLAGS = [
  'type',
  'media-id',
  'mime-type',
  'caption',
  'filename',
  'latitude',
  'longitude',
  'address',
  'contact-name',
  'contact-phone',
  'reply-type',
  'reply-id',
  'reply-title',
  'description',
  'payload',
  'emoji',
  'message-id',
] as const;

const MEDIA_TYPES = ['image', 'video', 'document', 'audio', 'sticker'];
const DEFAULT_MIME: Record<string, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  document: 'application/pdf',
  audio: 'audio/ogg',
  sticker: 'image/webp',
};

export class InboundFlagError extends Error {}

const need = (flags: InboundFlags, name: string, type: string): string => {
  const value = flags[name];
  if (value === undefined || value === '') throw new InboundFlagError(`--type ${type} needs --${name}.`);
  return value;
};

const number = (flags: InboundFlags, name: string, type: string): number => {
  const value = Number(need(flags, name, type));
  if (!Number.isFinite(value)) throw new InboundFlagError(`--${name} must be a number.`);
  return value;
};

const defined = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));

/** The Cloud API message for `--type` (default text) and its flags. Another type name is sent as is, with no content (the service keeps it as unsupported). */
export function inboundMessage(flags: InboundFlags): Record<string, unknown> {
  const type = flags.type ?? 'text';
  if (type === 'text') return { type, text: { body: need(flags, 'text', type) } };
  if (MEDIA_TYPES.includes(type)) {
    return {
      type,
      [type]: defined({
        id: need(flags, 'media-id', type),
        mime_type: flags['mime-type'] ?? DEFAULT_MIME[type],
        caption: type === 'audio' || type === 'sticker' ? undefined : flags.caption,
        filename: type === 'document' ? flags.filename : undefined,
      }),
    };
  }
  switch (type) {
    case 'location':
      return {
        type,
        location: defined({ latitude: number(flags, 'latitude', type), longitude: number(flags, 'longitude', type), name: flags.name, address: flags.address }),
      };
    case 'contacts':
      return {
        type,
        contacts: [
          defined({
            name: { formatted_name: need(flags, 'contact-name', type) },
            phones: flags['contact-phone'] ? [{ phone: flags['contact-phone'], type: 'CELL' }] : undefined,
          }),
        ],
      };
    case 'interactive': {
      const replyType = flags['reply-type'] ?? 'button_reply';
      if (replyType !== 'button_reply' && replyType !== 'list_reply') throw new InboundFlagError('--reply-type must be button_reply or list_reply.');
      return {
        type,
        interactive: {
          type: replyType,
          [replyType]: defined({ id: need(flags, 'reply-id', type), title: need(flags, 'reply-title', type), description: flags.description }),
        },
      };
    }
    case 'button':
      return { type, button: { text: need(flags, 'text', type), payload: flags.payload ?? need(flags, 'text', type) } };
    case 'reaction':
      return { type, reaction: { message_id: need(flags, 'message-id', type), emoji: flags.emoji ?? '' } };
    default:
      if (!/^[a-z_]{1,40}$/.test(type)) throw new InboundFlagError('--type must be a message type name such as text, image or location.');
      return { type };
  }
}
