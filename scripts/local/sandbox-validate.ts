import { countTemplateVariables, type GraphTemplate } from '../../shared/chat/templates';
import type { MetaErrorSpec } from './sandbox-catalog';
import { object, refuse, Refusal, type Json } from './sandbox-refusal';
import { checkContext, checkInteractive, checkLocation, checkMediaReference, checkReaction, type MediaLookup, type SendLookups } from './sandbox-validate-rich';

/**
 * Validates a send body the way the Cloud API does, strict where Meta is strict
 * (types, required fields, template parameters) and lenient where it is lenient
 * (`recipient_type` and `preview_url` may be absent, `language.policy` is allowed,
 * a template without variables needs no `components`).
 */

export type SendKind = 'free_form' | 'template';

export type SendCheck = { ok: true; to: string; waId: string; kind: SendKind; template?: GraphTemplate } | { ok: false; error: MetaErrorSpec };

const MEDIA_TYPES = ['image', 'video', 'document', 'audio', 'sticker'];
const CAPTIONED_TYPES = ['image', 'video', 'document'];
const TEXT_LIMIT = 4096;

/**
 * Checks a send body against the Cloud API's rules and the WABA's templates; `lookups`
 * tell which messages a quote or a reaction may name and which media ids the number holds.
 */
export function validateSend(body: unknown, templates: readonly GraphTemplate[], lookups: SendLookups): SendCheck {
  try {
    return checkSend(body, templates, lookups);
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.spec };
    throw error;
  }
}

function checkSend(body: unknown, templates: readonly GraphTemplate[], { conversation, holdsMedia }: SendLookups): SendCheck {
  const message = object(body, 'the request body');
  if (message.messaging_product === undefined) refuse(131008, 'The parameter messaging_product is required.');
  if (message.messaging_product !== 'whatsapp') refuse(100, "Param messaging_product must be 'whatsapp'.");
  if (message.recipient_type !== undefined && message.recipient_type !== 'individual') {
    refuse(100, "Param recipient_type must be 'individual'.");
  }
  const to = recipient(message.to);
  const waId = canonicalWaId(to);
  // The Cloud API treats a body without `type` as text.
  const type = message.type ?? 'text';
  checkContext(message.context, waId, conversation);
  if (type === 'text') checkText(message.text);
  else if (type === 'interactive') checkInteractive(message.interactive, holdsMedia);
  else if (type === 'location') checkLocation(message.location);
  else if (type === 'reaction') checkReaction(message.reaction, waId, conversation);
  else if (typeof type === 'string' && MEDIA_TYPES.includes(type)) checkMedia(type, message[type], holdsMedia);
  else if (type === 'template') {
    const template = checkTemplate(message.template, templates, holdsMedia);
    return { ok: true, to, waId, kind: 'template', template };
  } else refuse(100, `Param type '${String(type)}' is not supported by the sandbox.`);
  return { ok: true, to, waId, kind: 'free_form' };
}

/**
 * The WhatsApp id Meta reports for a number. Brazilian mobile numbers registered
 * before the ninth digit came in are known without it, and Meta rewrites them.
 */
export function canonicalWaId(digits: string): string {
  const brazil = /^55(\d{2})9(\d{8})$/.exec(digits);
  return brazil ? `55${brazil[1]}${brazil[2]}` : digits;
}

/** Digits with country code, a leading `+` tolerated as Meta does. */
function recipient(value: unknown): string {
  if (value === undefined) refuse(131008, 'The parameter to is required.');
  if (typeof value !== 'string' || !/^\+?\d{7,15}$/.test(value)) {
    refuse(100, 'Param to must be a phone number of digits with country code.');
  }
  return value.replace(/^\+/, '');
}

function checkText(value: unknown): void {
  const text = object(value, 'text');
  if (typeof text.body !== 'string' || text.body === '') refuse(131008, "The parameter text['body'] is required.");
  if (text.body.length > TEXT_LIMIT) refuse(100, `Param text['body'] must be at most ${TEXT_LIMIT} characters long.`);
  if (text.preview_url !== undefined && typeof text.preview_url !== 'boolean') refuse(100, "Param text['preview_url'] must be a boolean.");
}

function checkMedia(type: string, value: unknown, holdsMedia: MediaLookup): void {
  const media = object(value, type);
  checkMediaReference(media, type, holdsMedia);
  if (media.caption !== undefined && (!CAPTIONED_TYPES.includes(type) || typeof media.caption !== 'string')) {
    refuse(100, `Param ${type}['caption'] is not valid here.`);
  }
  if (media.filename !== undefined && (type !== 'document' || typeof media.filename !== 'string')) {
    refuse(100, `Param ${type}['filename'] is not valid here.`);
  }
}

function checkTemplate(value: unknown, templates: readonly GraphTemplate[], holdsMedia: MediaLookup): GraphTemplate {
  const request = object(value, 'template');
  if (typeof request.name !== 'string' || request.name === '') refuse(131008, "The parameter template['name'] is required.");
  const language = object(request.language, "template['language']");
  if (typeof language.code !== 'string' || language.code === '') refuse(131008, "The parameter template['language']['code'] is required.");
  if (language.policy !== undefined && language.policy !== 'deterministic') refuse(100, "Param language['policy'] must be 'deterministic'.");
  const template = templates.find((candidate) => candidate.name === request.name && candidate.language === language.code);
  // Meta answers a template that is not approved as if it did not exist in that language.
  if (!template || template.status !== 'APPROVED') {
    refuse(132001, `template name (${request.name}) does not exist in ${language.code}`);
  }
  checkTemplateParameters(template, request.components, holdsMedia);
  return template;
}

function checkTemplateParameters(template: GraphTemplate, value: unknown, holdsMedia: MediaLookup): void {
  if (value !== undefined && !Array.isArray(value)) refuse(100, "Param template['components'] must be an array.");
  const components = (value ?? []).map((component: unknown) => object(component, 'template component'));
  const expected = countTemplateVariables(template.components);
  const body = components.find((component: Json) => component.type === 'body');
  const header = components.find((component: Json) => component.type === 'header');
  const bodyParameters = parameters(body);
  if (bodyParameters.length !== expected.bodyVariables) {
    refuse(132000, `body: number of localizable_params (${bodyParameters.length}) does not match the expected number of params (${expected.bodyVariables})`);
  }
  bodyParameters.forEach((parameter) => checkTextParameter(parameter, 'body'));
  checkHeader(expected.header, header, holdsMedia);
}

function checkHeader(expected: ReturnType<typeof countTemplateVariables>['header'], header: Json | undefined, holdsMedia: MediaLookup): void {
  const given = parameters(header);
  if (expected === null) {
    if (given.length > 0) refuse(132000, 'header: the template has no header to fill');
    return;
  }
  if (expected.format === 'TEXT') {
    if (given.length !== expected.variables) {
      refuse(132000, `header: number of localizable_params (${given.length}) does not match the expected number of params (${expected.variables})`);
    }
    given.forEach((parameter) => checkTextParameter(parameter, 'header'));
    return;
  }
  const type = expected.format.toLowerCase();
  const media = given.length === 1 && given[0].type === type ? given[0][type] : undefined;
  if (media === undefined)
    refuse(132000, `header: Format mismatch, expected ${expected.format}, received ${given.length === 0 ? 'none' : String(given[0].type).toUpperCase()}`);
  checkMediaReference(object(media, `header ${type}`), type, holdsMedia);
}

function parameters(component: Json | undefined): Json[] {
  if (component === undefined || component.parameters === undefined) return [];
  if (!Array.isArray(component.parameters)) refuse(100, 'Param parameters must be an array.');
  return component.parameters.map((parameter: unknown) => object(parameter, 'parameter'));
}

function checkTextParameter(parameter: Json, where: string): void {
  if (parameter.type !== 'text' || typeof parameter.text !== 'string') refuse(100, `${where}: parameters must be {type:'text', text}`);
  // The Cloud API's rules for template text parameters (body and header): not empty or blank, no newline, tab or long run of spaces.
  if (parameter.text.trim() === '') refuse(131008, `${where}: Param text cannot be empty`);
  if (/[\n\r\t]| {5,}/.test(parameter.text)) refuse(132018, `${where}: Param text cannot have new-line/tab characters or more than 4 consecutive spaces`);
}
