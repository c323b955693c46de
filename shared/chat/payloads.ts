/**
 * Builders of WhatsApp Cloud API send payloads (`POST /{phone-number-id}/messages`).
 * Pure functions, so handlers, tests and the sandbox agree on one format.
 */

export type MediaType = 'image' | 'video' | 'document' | 'audio';
export type HeaderMediaType = 'image' | 'video' | 'document';

interface PayloadBase {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
}

export interface TextPayload extends PayloadBase {
  type: 'text';
  text: { body: string; preview_url?: boolean };
}

export interface MediaObject {
  link: string;
  caption?: string;
  filename?: string;
}

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

export type SendPayload = TextPayload | MediaPayload | TemplatePayload;

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

/**
 * A media message by link. The Cloud API refuses a caption on audio and a filename
 * on anything but a document, so those are left out rather than sent to fail.
 */
export function buildMediaPayload(to: string, type: MediaType, media: MediaObject): MediaPayload {
  const object: MediaObject = { link: media.link };
  if (media.caption !== undefined && type !== 'audio') object.caption = media.caption;
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
