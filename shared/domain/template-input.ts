import type { HeaderMediaType, TemplateHeaderInput, TemplateInput } from '../chat/payloads';
import type { TemplateRecord } from '../data/templates';
import { templateTextIssue } from '../schema/chat-params';
import { InvalidInputError } from '../errors';

/**
 * Checks a template send's variables and header against the stored template, so a
 * mismatch is a 400 that says what the template expects, before anything is sent.
 */

export interface TemplateSendInput {
  to: string;
  templateName: string;
  languageCode?: string;
  /** From `variables` or `body1`, `body2`, …; undefined when neither was given. */
  bodyVariables?: string[];
  /** Which form the caller used, to name it in errors. */
  variablesFrom: 'variables' | 'bodyN';
  header?: string;
  image?: string;
  video?: string;
  document?: string;
  mediaUrl?: string;
  mediaType?: HeaderMediaType;
  apiReference?: string;
}

interface GivenMedia {
  type?: HeaderMediaType;
  link: string;
  parameter: string;
}

export function checkTemplateInput(template: TemplateRecord, input: TemplateSendInput): TemplateInput {
  const label = `Template "${template.name}" (${template.language})`;
  const bodyVariables = input.bodyVariables ?? [];
  if (bodyVariables.length !== template.bodyVariables) {
    const parameter =
      input.variablesFrom === 'bodyN' && bodyVariables.length > 0 ? `body${Math.min(bodyVariables.length, template.bodyVariables) + 1}` : 'variables';
    const expected = template.bodyVariables === 0 ? 'no body variables' : `${template.bodyVariables} body variable(s), {{1}} to {{${template.bodyVariables}}}`;
    throw new InvalidInputError(
      `${label} expects ${expected}, but ${bodyVariables.length} were given. Pass them in order as variables (comma-separated) or as body1, body2, ….`,
      parameter,
      'invalid_parameter',
      { expectedBodyVariables: template.bodyVariables, given: bodyVariables.length },
    );
  }
  // Values rendered by an automation (contact fields) are checked here too, before anything is written.
  bodyVariables.forEach((value, i) => {
    const issue = templateTextIssue(value);
    if (issue)
      throw new InvalidInputError(
        `Invalid parameter ${input.variablesFrom === 'bodyN' ? `body${i + 1}` : 'variables'}: ${input.variablesFrom === 'bodyN' ? '' : `entry ${i + 1} `}${issue}.`,
        input.variablesFrom === 'bodyN' ? `body${i + 1}` : 'variables',
      );
  });
  if (input.header !== undefined && templateTextIssue(input.header))
    throw new InvalidInputError(`Invalid parameter header: ${templateTextIssue(input.header)}.`, 'header');
  return { name: template.name, languageCode: template.language, bodyVariables, header: checkHeader(template, input, label) };
}

function checkHeader(template: TemplateRecord, input: TemplateSendInput, label: string): TemplateHeaderInput | undefined {
  const media = givenMedia(input);
  const expected = template.header;
  if (expected === null || expected === undefined) {
    if (input.header !== undefined) throw new InvalidInputError(`${label} has no header, so header cannot be filled.`, 'header');
    if (media) throw new InvalidInputError(`${label} has no media header, so ${media.parameter} cannot be used.`, media.parameter);
    return undefined;
  }
  if (expected.format === 'TEXT') {
    if (media) throw new InvalidInputError(`${label} has a text header, not a media header: pass header instead of ${media.parameter}.`, media.parameter);
    if (expected.variables === 0) {
      if (input.header !== undefined) throw new InvalidInputError(`${label} has a fixed header text without a variable, so header cannot be filled.`, 'header');
      return undefined;
    }
    if (input.header === undefined) throw new InvalidInputError(`${label} expects a header text variable: pass header.`, 'header', 'missing_parameter');
    return { type: 'text', text: input.header };
  }
  const kind = expected.format.toLowerCase() as HeaderMediaType;
  const how = `pass ${kind}=<https URL> (or mediaUrl with mediaType=${kind})`;
  if (input.header !== undefined) throw new InvalidInputError(`${label} has a ${expected.format} header, not a text header: ${how}.`, 'header');
  if (!media) throw new InvalidInputError(`${label} expects an ${expected.format} header: ${how}.`, kind, 'missing_parameter');
  if (media.type !== undefined && media.type !== kind) {
    throw new InvalidInputError(
      `${label} expects an ${expected.format} header, but a ${media.type} was given: ${how}.`,
      media.parameter === 'mediaUrl' ? 'mediaType' : media.parameter,
    );
  }
  return { type: kind, link: media.link };
}

/** The one header media of the request (image, video, document, or mediaUrl with an optional mediaType). */
function givenMedia(input: TemplateSendInput): GivenMedia | undefined {
  const given: GivenMedia[] = [];
  for (const type of ['image', 'video', 'document'] as const) {
    const link = input[type];
    if (link !== undefined) given.push({ type, link, parameter: type });
  }
  if (input.mediaUrl !== undefined) given.push({ type: input.mediaType, link: input.mediaUrl, parameter: 'mediaUrl' });
  else if (input.mediaType !== undefined)
    throw new InvalidInputError('mediaType needs mediaUrl: pass the header media link as mediaUrl.', 'mediaUrl', 'missing_parameter');
  if (given.length > 1) {
    throw new InvalidInputError(`Pass one header media only; got ${given.map((media) => media.parameter).join(' and ')}.`, given[1].parameter);
  }
  return given[0];
}
