import { INTERACTIVE_LIMITS as L, isReactionEmoji } from '../../shared/chat/payloads';
import { object, refuse, type Json } from './sandbox-refusal';

/**
 * The Cloud API's checks of interactive, location and reaction messages and of `context`
 * (a quote), as Meta answers them: 131008 for what is missing, 131009 ("Parameter value
 * is not valid") for a value out of Meta's limits or naming a message the conversation
 * does not have, 100 for a wrong type of value.
 */

/** The customer (wa_id) a message the business number sent or received belongs to, or undefined for a message it does not know. */
export type ConversationLookup = (chatmid: string) => string | undefined;

/** Whether the business number holds media under this id (uploaded to it, or received by it). */
export type MediaLookup = (mediaId: string) => boolean;

/** What a send is checked against besides its body: the number's conversations and media. */
export interface SendLookups {
  conversation: ConversationLookup;
  holdsMedia: MediaLookup;
}

/**
 * A media object (a message's or a header's) names its file by `link` (http or https; the
 * sandbox fetches none) or by the `id` of media the number holds: Meta refuses an id it
 * does not hold for that number, before accepting the message, with 100 naming the parameter.
 */
export function checkMediaReference(media: Json, where: string, holdsMedia: MediaLookup): void {
  if (media.id !== undefined) {
    if (typeof media.id !== 'string' || !holdsMedia(media.id)) refuse(100, `Param ${where}['id'] is not a valid whatsapp business account media attachment ID`);
    return;
  }
  if (typeof media.link !== 'string') refuse(131008, `The parameter ${where}['link'] or ${where}['id'] is required.`);
  if (!/^https?:\/\/\S+$/i.test(media.link)) refuse(100, `Param ${where}['link'] must be an http or https URL.`);
}

const HEADER_MEDIA = ['image', 'video', 'document'];

export function checkInteractive(value: unknown, holdsMedia: MediaLookup): void {
  const interactive = object(value, 'interactive');
  const type = interactive.type;
  if (type === undefined) refuse(131008, "The parameter interactive['type'] is required.");
  if (type !== 'button' && type !== 'list' && type !== 'cta_url') refuse(100, "Param interactive['type'] must be one of {BUTTON, LIST, CTA_URL}.");
  textField(object(interactive.body, "interactive['body']"), 'text', "interactive['body']", type === 'list' ? L.listBody : L.buttonBody);
  if (interactive.footer !== undefined) textField(object(interactive.footer, "interactive['footer']"), 'text', "interactive['footer']", L.footer);
  if (interactive.header !== undefined) checkHeader(object(interactive.header, "interactive['header']"), type, holdsMedia);
  const action = object(interactive.action, "interactive['action']");
  if (type === 'button') checkButtons(action);
  else if (type === 'list') checkList(action);
  else checkCtaUrl(action);
}

function checkHeader(header: Json, type: string, holdsMedia: MediaLookup): void {
  if (header.type === 'text') return void textField(header, 'text', 'header', L.headerText);
  if (type === 'list') refuse(131009, 'Header type must be text for a list message.');
  if (typeof header.type !== 'string' || !HEADER_MEDIA.includes(header.type)) refuse(131009, 'Header type must be one of text, image, video, document.');
  const where = `header['${header.type}']`;
  checkMediaReference(object(header[header.type], where), where, holdsMedia);
}

function checkButtons(action: Json): void {
  const buttons = list(action.buttons, "action['buttons']");
  if (buttons.length < 1 || buttons.length > L.buttons) refuse(131009, `Invalid buttons count. Min allowed buttons: 1, Max allowed buttons: ${L.buttons}.`);
  const replies = buttons.map((entry, i) => {
    const button = object(entry, `action['buttons'][${i}]`);
    if (button.type !== 'reply') refuse(131009, `Button type must be reply (buttons[${i}]).`);
    const reply = object(button.reply, `buttons[${i}]['reply']`);
    return {
      id: textField(reply, 'id', `buttons[${i}]['reply']`, L.buttonId),
      title: textField(reply, 'title', `Button title (buttons[${i}])`, L.buttonTitle),
    };
  });
  if (new Set(replies.map((reply) => reply.id)).size !== replies.length) refuse(131009, 'Duplicate button id.');
  if (new Set(replies.map((reply) => reply.title)).size !== replies.length) refuse(131009, 'Button title is not unique.');
}

function checkList(action: Json): void {
  textField(action, 'button', "action['button']", L.listButton);
  const sections = list(action.sections, "action['sections']").map((entry, i) => object(entry, `sections[${i}]`));
  if (sections.length < 1 || sections.length > L.sections) refuse(131009, `Invalid sections count. Min allowed: 1, Max allowed: ${L.sections}.`);
  const rowIds: string[] = [];
  for (const [i, section] of sections.entries()) {
    if (section.title !== undefined || sections.length > 1) textField(section, 'title', `sections[${i}]['title']`, L.sectionTitle);
    const rows = list(section.rows, `sections[${i}]['rows']`).map((entry, j) => object(entry, `sections[${i}]['rows'][${j}]`));
    if (rows.length < 1) refuse(131009, `Section ${i} has no rows.`);
    for (const [j, row] of rows.entries()) {
      const where = `sections[${i}]['rows'][${j}]`;
      rowIds.push(textField(row, 'id', where, L.rowId));
      textField(row, 'title', `Row title (${where})`, L.rowTitle);
      if (row.description !== undefined) textField(row, 'description', `Row description (${where})`, L.rowDescription);
    }
  }
  if (rowIds.length > L.rows) refuse(131009, `Total row count exceed max allowed count: ${L.rows}.`);
  if (new Set(rowIds).size !== rowIds.length) refuse(131009, 'Row id is not unique.');
}

function checkCtaUrl(action: Json): void {
  if (action.name !== 'cta_url') refuse(131009, "Param action['name'] must be cta_url.");
  const parameters = object(action.parameters, "action['parameters']");
  textField(parameters, 'display_text', 'Display text', L.ctaDisplayText);
  if (typeof parameters.url !== 'string' || !/^https?:\/\/\S+$/i.test(parameters.url)) refuse(131009, "Param parameters['url'] must be an http or https URL.");
}

export function checkLocation(value: unknown): void {
  const location = object(value, 'location');
  for (const [field, limit] of [
    ['latitude', 90],
    ['longitude', 180],
  ] as const) {
    if (location[field] === undefined) refuse(131008, `The parameter location['${field}'] is required.`);
    const n = typeof location[field] === 'string' ? Number(location[field]) : location[field];
    if (typeof n !== 'number' || !Number.isFinite(n)) refuse(100, `Param location['${field}'] must be a number.`);
    if (Math.abs(n) > limit) refuse(131009, `Param location['${field}'] is out of range.`);
  }
}

export function checkReaction(value: unknown, waId: string, conversation: ConversationLookup): void {
  const reaction = object(value, 'reaction');
  if (typeof reaction.message_id !== 'string' || reaction.message_id === '') refuse(131008, "The parameter reaction['message_id'] is required.");
  if (typeof reaction.emoji !== 'string') refuse(131008, "The parameter reaction['emoji'] is required.");
  if (!isReactionEmoji(reaction.emoji)) refuse(131009, 'Reaction emoji is not valid: one emoji, or empty to remove the reaction.');
  if (conversation(reaction.message_id) !== waId) refuse(131009, `Message ${reaction.message_id} is not a message of this conversation.`);
}

/** A quote (`context.message_id`) must name a message of this conversation. */
export function checkContext(value: unknown, waId: string, conversation: ConversationLookup): void {
  if (value === undefined) return;
  const context = object(value, 'context');
  if (typeof context.message_id !== 'string' || context.message_id === '') refuse(131008, "The parameter context['message_id'] is required.");
  if (conversation(context.message_id) !== waId) refuse(131009, `Message ${context.message_id} is not a message of this conversation.`);
}

/** A required string field of 1 to `max` characters, as Meta words the refusal. */
function textField(holder: Json, field: string, what: string, max: number): string {
  const value = holder[field];
  if (value === undefined || value === '') refuse(131008, `The parameter ${what} ${field} is required.`);
  if (typeof value !== 'string') refuse(100, `Param ${what} ${field} must be a string.`);
  if (value.length > max) refuse(131009, `${what} length invalid. Min length: 1, Max length: ${max}.`);
  return value;
}

function list(value: unknown, what: string): unknown[] {
  if (value === undefined) refuse(131008, `The parameter ${what} is required.`);
  if (!Array.isArray(value)) refuse(100, `Param ${what} must be an array.`);
  return value;
}
