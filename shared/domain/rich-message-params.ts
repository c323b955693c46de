import * as v from 'valibot';
import { INTERACTIVE_LIMITS as L, isReactionEmoji } from '../chat/payloads';
import { described } from '../schema/docs';
import { CHAT_LIMITS, mediaId } from '../schema/chat-params';
import { httpUrl, text } from '../schema/params';

/**
 * The parameters of chat/message/send's richer messages, in the Cloud API's own shapes
 * (`interactive`, `location`, `reaction`) and with Meta's limits (shared/chat/payloads.ts
 * `INTERACTIVE_LIMITS`), so a message the chat network would refuse is a 400 naming the
 * parameter (`interactive.action.buttons.1.reply.title`) before anything is written.
 * Objects come as JSON, or on GET as the same JSON in a string.
 */

const isObject = (input: unknown): input is Record<string, unknown> => input !== null && typeof input === 'object' && !Array.isArray(input);

/** An object parameter: a JSON object, or (GET) the same JSON in a string, then checked by `schema`. */
export const jsonObject = <T extends v.GenericSchema>(schema: T) =>
  v.pipe(
    v.union([v.custom<Record<string, unknown>>(isObject), v.string()], 'must be a JSON object'),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (typeof dataset.value !== 'string') return dataset.value;
      try {
        const parsed: unknown = JSON.parse(dataset.value);
        if (isObject(parsed)) return parsed;
      } catch {
        // Reported below, as for any other string that is no object.
      }
      addIssue({ message: 'must be a JSON object' });
      return NEVER;
    }),
    // The union above hands on an object; the schema checks its shape.
    schema as unknown as v.GenericSchema<Record<string, unknown>, v.InferOutput<T>>,
  );

/** An object of exactly these fields; its size stated for the OpenAPI document (a strict object has no more). */
const closed = <E extends v.ObjectEntries>(entries: E) => v.pipe(v.strictObject(entries), v.metadata({ maxProperties: Object.keys(entries).length }));

/** A message id of the chat network (`wamid.…`). */
export const chatmid = () => text(CHAT_LIMITS.chatmid);

/** A header's file, as the Cloud API names it: a public `link` or the `id` chat/media/upload answered, not both. */
const headerMedia = v.union(
  [v.strictObject({ link: httpUrl() }), v.strictObject({ id: mediaId() })],
  'must be {link} (an http or https URL) or {id} (a media id chat/media/upload answered), not both',
);

const header = v.variant(
  'type',
  [
    v.strictObject({ type: v.literal('text'), text: text(L.headerText) }),
    v.strictObject({ type: v.literal('image'), image: headerMedia }),
    v.strictObject({ type: v.literal('video'), video: headerMedia }),
    v.strictObject({ type: v.literal('document'), document: headerMedia }),
  ],
  'type must be one of text, image, video, document',
);

const body = (max: number) => v.strictObject({ text: text(max) });
const footer = v.strictObject({ text: text(L.footer) });

/** No two entries may share `key` (Meta refuses duplicate button ids and titles, and duplicate row ids). */
const unique = <T>(what: string, key: (item: T) => string) =>
  v.check((items: T[]) => new Set(items.map(key)).size === items.length, `must not repeat a ${what}`);

const replyButton = v.strictObject({
  type: v.literal('reply'),
  reply: v.strictObject({ id: text(L.buttonId), title: text(L.buttonTitle) }),
});

const buttons = closed({
  type: v.literal('button'),
  header: v.optional(header),
  body: body(L.buttonBody),
  footer: v.optional(footer),
  action: v.strictObject({
    buttons: v.pipe(
      v.array(replyButton, 'must be an array of reply buttons'),
      v.minLength(1, 'must have at least one button'),
      v.maxLength(L.buttons, `must have at most ${L.buttons} buttons`),
      unique<v.InferOutput<typeof replyButton>>('button id', (button) => button.reply.id),
      unique<v.InferOutput<typeof replyButton>>('button title', (button) => button.reply.title),
    ),
  }),
});

const row = v.strictObject({ id: text(L.rowId), title: text(L.rowTitle), description: v.optional(text(L.rowDescription)) });
const section = v.strictObject({
  title: v.optional(text(L.sectionTitle)),
  rows: v.pipe(v.array(row, 'must be an array of rows'), v.minLength(1, 'must have at least one row')),
});
type Section = v.InferOutput<typeof section>;

const list = closed({
  type: v.literal('list'),
  header: v.optional(v.strictObject({ type: v.literal('text'), text: text(L.headerText) })),
  body: body(L.listBody),
  footer: v.optional(footer),
  action: v.strictObject({
    button: text(L.listButton),
    sections: v.pipe(
      v.array(section, 'must be an array of sections'),
      v.minLength(1, 'must have at least one section'),
      v.maxLength(L.sections, `must have at most ${L.sections} sections`),
      v.check((sections: Section[]) => sections.reduce((sum, s) => sum + s.rows.length, 0) <= L.rows, `must have at most ${L.rows} rows in all`),
      v.check((sections: Section[]) => sections.length === 1 || sections.every((s) => s.title !== undefined), 'must each have a title when there are several'),
      v.check((sections: Section[]) => {
        const ids = sections.flatMap((s) => s.rows.map((r) => r.id));
        return new Set(ids).size === ids.length;
      }, 'must not repeat a row id'),
    ),
  }),
});

const ctaUrl = closed({
  type: v.literal('cta_url'),
  header: v.optional(header),
  body: body(L.buttonBody),
  footer: v.optional(footer),
  action: v.strictObject({
    name: v.literal('cta_url'),
    parameters: v.strictObject({ display_text: text(L.ctaDisplayText), url: httpUrl() }),
  }),
});

export const interactiveObject = v.variant('type', [buttons, list, ctaUrl], 'type must be one of button, list, cta_url');

export const interactive = () =>
  described(
    jsonObject(interactiveObject),
    'The Cloud API `interactive` object (type `interactive`): an optional `header` (text ≤ 60 characters, or image/video/document as `{link}` or `{id}` from chat/media/upload; a list takes only text); `button` (1–3 reply buttons, titles ≤ 20 characters, ids and titles unique), `list` (a button ≤ 20 characters opening up to 10 sections of up to 10 rows in all; row title ≤ 24, description ≤ 72) or `cta_url` (one URL button, display text ≤ 20). Body text ≤ 1024 characters (list: 4096), header text and footer ≤ 60.',
    {
      type: 'button',
      body: { text: 'Is your parcel damaged?' },
      action: {
        buttons: [
          { type: 'reply', reply: { id: 'refund', title: 'Refund' } },
          { type: 'reply', reply: { id: 'replace', title: 'Replacement' } },
        ],
      },
    },
  );

const coordinate = (limit: number) =>
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty(), v.transform(Number))], 'must be a number'),
    v.number('must be a number'),
    v.check((n) => Number.isFinite(n) && Math.abs(n) <= limit, `must be a number from -${limit} to ${limit}`),
  );

export const location = () =>
  described(
    jsonObject(
      closed({
        latitude: coordinate(90),
        longitude: coordinate(180),
        name: v.optional(text(CHAT_LIMITS.caption)),
        address: v.optional(text(CHAT_LIMITS.caption)),
      }),
    ),
    'A place (type `location`): `latitude`, `longitude`, optional `name` and `address`.',
    { latitude: 52.52, longitude: 13.405, name: 'Pickup point', address: 'Alexanderplatz 1, Berlin' },
  );

export const reaction = () =>
  described(
    jsonObject(
      closed({
        messageId: described(chatmid(), 'The chatmid of the message reacted to (of this contact, in this channel).', 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0'),
        emoji: v.pipe(v.string('must be a string'), v.check(isReactionEmoji, 'must be one emoji, or empty to remove the reaction')),
      }),
    ),
    'An emoji on a message (type `reaction`): `messageId` (a chatmid of this contact in this channel) and `emoji` (one emoji; empty removes the reaction).',
    { messageId: 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0', emoji: '👍' },
  );

export const replyTo = () =>
  described(
    chatmid(),
    'Quote a message: the chatmid of a message of this contact in this channel (inbound or outbound). The chat network shows it above the new one.',
    'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0',
  );
