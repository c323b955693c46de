import * as v from 'valibot';
import { described } from './docs';
import { CONTROL_CHARS, listFromText, phone, text } from './params';

/**
 * Parameter schemas of the chat endpoints, on top of the shared ones in params.ts.
 * Limits follow the Cloud API where it has one (text body 4096, caption 1024,
 * template variable 1024, template name 512).
 */

export const CHAT_LIMITS = {
  variable: 1024,
  variables: 50,
  caption: 1024,
  filename: 255,
  templateName: 512,
  apiReference: 128,
  chatmid: 256,
  mediaId: 128,
  // RFC 6838 caps type and subtype at 127 characters each; parameters may follow.
  mimeType: 255,
} as const;

/** A language code such as en, en_US or pt_BR. */
export const languageCode = () => v.pipe(text(15), v.regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/, 'must be a language code such as en or en_US'));

/**
 * References that start with this belong to the automation runner
 * (`automation:<execution>:<step>`, shared/domain/automation-runner.ts): a caller's
 * send must never take the claim an automation's send relies on.
 */
export const RESERVED_API_REFERENCE_PREFIX = 'automation:';

export const apiReference = () =>
  described(
    v.pipe(
      text(CHAT_LIMITS.apiReference),
      v.check((s: string) => !s.startsWith(RESERVED_API_REFERENCE_PREFIX), `must not start with "${RESERVED_API_REFERENCE_PREFIX}" (reserved for automations)`),
    ),
    'Your reference for this send, an idempotency key per channel, recipient and 24 hours: the same reference with the same parameters answers the first send again (nothing is sent twice); with other parameters it is a 409. References starting with `automation:` are reserved for the automations’ own sends (400).',
    'order-1234',
  );

/**
 * The chat network's id of media uploaded to the channel's number (chat/media/upload's
 * `mediaId`): Meta's media ids are digits, so anything else is refused before the network.
 */
export const mediaId = () =>
  v.pipe(text(CHAT_LIMITS.mediaId), v.regex(/^\d+$/, 'must be a media id of the chat network (digits), as chat/media/upload answers it'));

/** `to`: the recipient of a send. */
export const recipient = () => described(phone(), 'Recipient phone number with country code, in any common notation.', '+14155550123');

/**
 * What the Cloud API refuses in a template's text parameters (body variables, the
 * header variable): a newline or tab, or more than four consecutive spaces. It answers
 * error 132018, and only after the send's records are written; so such a value is a 400
 * before anything is written.
 */
const TEMPLATE_TEXT_REFUSED = /[\n\r\t]| {5,}/;

/** Why a template text parameter (trimmed) would be refused by the chat network, or undefined. */
export function templateTextIssue(text: string): string | undefined {
  return TEMPLATE_TEXT_REFUSED.test(text) ? 'must not contain newlines, tabs or more than four consecutive spaces (the chat network refuses them)' : undefined;
}

/** A template's text header variable: as `text`, without what the chat network refuses. */
export const headerText = () =>
  v.pipe(
    text(CHAT_LIMITS.variable),
    v.check(
      (value: string) => templateTextIssue(value) === undefined,
      'must not contain newlines, tabs or more than four consecutive spaces (the chat network refuses them)',
    ),
  );

/** One template variable value: a non-empty string (numbers are accepted and kept as written). */
function variableIssue(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return 'must be a string';
  const trimmed = String(value).trim();
  if (trimmed === '') return 'must not be empty';
  if (trimmed.length > CHAT_LIMITS.variable) return `must be at most ${CHAT_LIMITS.variable} characters`;
  if (CONTROL_CHARS.test(trimmed)) return 'must not contain control characters';
  return templateTextIssue(trimmed);
}

/** `variables`: a JSON array of strings, or (GET) a JSON array or comma-separated string, in the order of {{1}}, {{2}}, … (never deduplicated). */
export const variableList = () =>
  v.pipe(
    v.union([v.array(v.union([v.string(), v.number()])), v.string()], 'must be a comma-separated string or an array of strings'),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const raw = dataset.value;
      const values = typeof raw === 'string' ? listFromText(raw) : raw;
      if (values.length > CHAT_LIMITS.variables) {
        addIssue({ message: `must have at most ${CHAT_LIMITS.variables} entries` });
        return NEVER;
      }
      for (const [i, value] of values.entries()) {
        const issue = variableIssue(value);
        if (issue) {
          addIssue({ message: `entry ${i + 1} ${issue}` });
          return NEVER;
        }
      }
      return values.map((value) => String(value).trim());
    }),
  );

const BODY_N = /^body([1-9]\d{0,2})$/;

/**
 * Collects `body1`, `body2`, … from the merged parameters. They must be numbered
 * from 1 without gaps, and cannot be combined with `variables`.
 * Returns the values in order, undefined when none is given, or an issue naming the parameter.
 */
export function collectBodyVariables(params: Record<string, unknown>): { values?: string[]; issue?: { parameter: string; message: string } } {
  const byIndex = new Map<number, unknown>();
  for (const [name, value] of Object.entries(params)) {
    const match = BODY_N.exec(name);
    if (match) byIndex.set(Number(match[1]), value);
  }
  if (byIndex.size === 0) return {};
  if (params.variables !== undefined) return { issue: { parameter: 'variables', message: 'pass either variables or body1, body2, …, not both' } };
  if (byIndex.size > CHAT_LIMITS.variables) return { issue: { parameter: 'body1', message: `at most ${CHAT_LIMITS.variables} body variables are allowed` } };
  const values: string[] = [];
  for (let i = 1; i <= byIndex.size; i++) {
    if (!byIndex.has(i)) return { issue: { parameter: `body${i}`, message: `is missing: body variables are numbered body1, body2, … without gaps` } };
    const issue = variableIssue(byIndex.get(i));
    if (issue) return { issue: { parameter: `body${i}`, message: issue } };
    values.push(String(byIndex.get(i)).trim());
  }
  return { values };
}
