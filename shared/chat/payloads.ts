import type { MediaMessageType } from './media-types';

/**
 * Builders of WhatsApp Cloud API send payloads (`POST /{phone-number-id}/messages`).
 * Pure functions, so handlers, tests and the sandbox agree on one format.
 */

export type MediaType = MediaMessageType;
export type HeaderMediaType = 'image' | 'video' | 'document';

interface PayloadBase {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
  /** The message quoted (a reply): Meta shows it above the new one. */
  context?: { message_id: string };
}

export interface TextPayload extends PayloadBase {
  type: 'text';
  text: { body: string; preview_url?: boolean };
}

/** The file of a media message or header: a public `link`, or the `id` of media uploaded to the number (exactly one). */
export type MediaReference = { link: string; id?: never } | { id: string; link?: never };

export type MediaObject = MediaReference & {
  caption?: string;
  filename?: string;
};

export type MediaPayload = PayloadBase & { type: MediaType } & { [K in MediaType]?: MediaObject };

export type TemplateParameter =
  | { type: 'text'; text: string }
  | { type: 'image'; image: { link: string } }
  | { type: 'video'; video: { link: string } }
  | { type: 'document'; document: { link: string } };

export interface TemplateComponentParameters {
  type: 'header' | 'body';
  parameters: TemplateParameter[];
}

export interface TemplatePayload extends PayloadBase {
  type: 'template';
  template: { name: string; language: { code: string }; components?: TemplateComponentParameters[] };
}

export type SendPayload = TextPayload | MediaPayload | TemplatePayload | InteractivePayload | LocationPayload | ReactionPayload;

export type TemplateHeaderInput = { type: 'text'; text: string } | { type: HeaderMediaType; link: string };

export interface TemplateInput {
  name: string;
  languageCode: string;
  header?: TemplateHeaderInput;
  bodyVariables: string[];
}

function base(to: string): PayloadBase {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to };
}

/** A text message; `preview_url` is sent only when chosen, as the Cloud API defaults it to false. */
export function buildTextPayload(to: string, body: string, previewUrl?: boolean): TextPayload {
  const text: TextPayload['text'] = previewUrl === undefined ? { body } : { body, preview_url: previewUrl };
  return { ...base(to), type: 'text', text };
}

/** The media types that take a caption (the Cloud API refuses one on audio and stickers). */
export const CAPTIONED_MEDIA_TYPES: readonly MediaType[] = ['image', 'video', 'document'];

/**
 * A media message by link or by uploaded media id. The Cloud API refuses a caption on
 * audio and stickers and a filename on anything but a document, so those are left out
 * rather than sent to fail.
 */
export function buildMediaPayload(to: string, type: MediaType, media: MediaObject): MediaPayload {
  const object: MediaObject = media.id === undefined ? { link: media.link } : { id: media.id };
  if (media.caption !== undefined && CAPTIONED_MEDIA_TYPES.includes(type)) object.caption = media.caption;
  if (media.filename !== undefined && type === 'document') object.filename = media.filename;
  return { ...base(to), type, [type]: object } as MediaPayload;
}

/** A template message; `components` is omitted when the template has nothing to fill. */
export function buildTemplatePayload(to: string, input: TemplateInput): TemplatePayload {
  const components: TemplateComponentParameters[] = [];
  if (input.header) components.push({ type: 'header', parameters: [headerParameter(input.header)] });
  if (input.bodyVariables.length > 0) {
    components.push({ type: 'body', parameters: input.bodyVariables.map((text) => ({ type: 'text' as const, text })) });
  }
  const template: TemplatePayload['template'] = { name: input.name, language: { code: input.languageCode } };
  if (components.length > 0) template.components = components;
  return { ...base(to), type: 'template', template };
}

function headerParameter(header: TemplateHeaderInput): TemplateParameter {
  switch (header.type) {
    case 'text':
      return { type: 'text', text: header.text };
    case 'image':
      return { type: 'image', image: { link: header.link } };
    case 'video':
      return { type: 'video', video: { link: header.link } };
    case 'document':
      return { type: 'document', document: { link: header.link } };
  }
}

/**
 * Meta's limits on interactive messages (characters, entries), checked by the API before
 * the chat network and by the sandbox as the Cloud API checks them.
 */
export const INTERACTIVE_LIMITS = {
  headerText: 60,
  buttonBody: 1024,
  listBody: 4096,
  footer: 60,
  buttons: 3,
  buttonId: 256,
  buttonTitle: 20,
  listButton: 20,
  sections: 10,
  rows: 10,
  sectionTitle: 24,
  rowId: 200,
  rowTitle: 24,
  rowDescription: 72,
  ctaDisplayText: 20,
} as const;

export type InteractiveHeader = { type: 'text'; text: string } | ({ type: HeaderMediaType } & { [K in HeaderMediaType]?: MediaReference });

interface InteractiveBase {
  header?: InteractiveHeader;
  body: { text: string };
  footer?: { text: string };
}

export interface ReplyButton {
  type: 'reply';
  reply: { id: string; title: string };
}

export interface ListRow {
  id: string;
  title: string;
  description?: string;
}

export interface ListSection {
  title?: string;
  rows: ListRow[];
}

/** The Cloud API's `interactive` object: reply buttons, a list, or a call-to-action URL button. */
export type InteractiveObject =
  | (InteractiveBase & { type: 'button'; action: { buttons: ReplyButton[] } })
  | (InteractiveBase & { type: 'list'; action: { button: string; sections: ListSection[] } })
  | (InteractiveBase & { type: 'cta_url'; action: { name: 'cta_url'; parameters: { display_text: string; url: string } } });

export interface InteractivePayload extends PayloadBase {
  type: 'interactive';
  interactive: InteractiveObject;
}

export interface LocationObject {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

export interface LocationPayload extends PayloadBase {
  type: 'location';
  location: LocationObject;
}

/** An emoji on a message; an empty emoji removes the reaction sent before. */
export interface ReactionPayload extends PayloadBase {
  type: 'reaction';
  reaction: { message_id: string; emoji: string };
}

export function buildInteractivePayload(to: string, interactive: InteractiveObject): InteractivePayload {
  return { ...base(to), type: 'interactive', interactive };
}

export function buildLocationPayload(to: string, location: LocationObject): LocationPayload {
  return { ...base(to), type: 'location', location };
}

/**
 * What the Cloud API takes as a reaction: one emoji (a single grapheme that is a
 * pictograph, a flag or a keycap), or the empty string, which removes the reaction sent before.
 */
export function isReactionEmoji(value: string): boolean {
  if (value === '') return true;
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(value)];
  return graphemes.length === 1 && /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u.test(value);
}

export function buildReactionPayload(to: string, chatmid: string, emoji: string): ReactionPayload {
  return { ...base(to), type: 'reaction', reaction: { message_id: chatmid, emoji } };
}

/** The same payload quoting `chatmid` (Cloud API `context`). */
export function quoting<T extends SendPayload>(payload: T, chatmid: string): T {
  return { ...payload, context: { message_id: chatmid } };
}

/** Marks an inbound message read (`status: read`), optionally showing the typing indicator until the next send. */
export interface ReadPayload {
  messaging_product: 'whatsapp';
  status: 'read';
  message_id: string;
  typing_indicator?: { type: 'text' };
}

export function buildReadPayload(chatmid: string, typingIndicator = false): ReadPayload {
  const payload: ReadPayload = { messaging_product: 'whatsapp', status: 'read', message_id: chatmid };
  return typingIndicator ? { ...payload, typing_indicator: { type: 'text' } } : payload;
}
