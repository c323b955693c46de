import * as v from 'valibot';
import { CHAT_LIMITS, languageCode } from '../schema/chat-params';
import { customFieldMap, LIMITS, nameList, text } from '../schema/params';
import { interactiveObject } from './rich-message-params';

/**
 * The steps of an automation, validated with valibot when an automation is created
 * (CLI `automation create --steps FILE`). A file holds a JSON array of steps, or an
 * object `{ "steps": [...] }`. Template variables and text bodies may use
 * `{{contact.name}}`, `{{contact.phone}}` and `{{contact.<custom field>}}`, each with a
 * fallback for a contact without the value: `{{contact.name|there}}`.
 */

export const MAX_STEPS = 50;
/** Longest single wait: 30 days. */
export const MAX_WAIT_SECONDS = 30 * 24 * 60 * 60;

const placeholderText = (max: number) => text(max);

const sendTemplate = v.object({
  type: v.literal('send_template'),
  templateName: text(CHAT_LIMITS.templateName),
  languageCode: v.optional(languageCode()),
  variables: v.optional(v.pipe(v.array(placeholderText(CHAT_LIMITS.variable), 'must be an array of strings'), v.maxLength(CHAT_LIMITS.variables))),
  header: v.optional(placeholderText(CHAT_LIMITS.variable)),
});

const sendText = v.object({
  type: v.literal('send_text'),
  body: placeholderText(LIMITS.messageBody),
});

/** Reply buttons, a list or a call-to-action URL, as chat/message/send takes `interactive` (Meta's limits; placeholders in the body text). */
const sendInteractive = v.object({
  type: v.literal('send_interactive'),
  interactive: interactiveObject,
});

const addLabels = v.object({ type: v.literal('add_labels'), labels: nameList(LIMITS.listEntries, LIMITS.name) });
const removeLabels = v.object({ type: v.literal('remove_labels'), labels: nameList(LIMITS.listEntries, LIMITS.name) });

const setCustomFields = v.object({
  type: v.literal('set_custom_fields'),
  // Checked by hand rather than with v.record, which drops keys named `constructor` or `prototype`.
  fields: v.pipe(
    v.custom<Record<string, unknown>>((input) => input !== null && typeof input === 'object' && !Array.isArray(input), 'must be an object'),
    v.check((fields) => Object.keys(fields).length > 0 && Object.keys(fields).length <= LIMITS.customFields, `must name 1 to ${LIMITS.customFields} fields`),
    v.check((fields) => Object.keys(fields).every((key) => key !== '' && key.length <= LIMITS.name), `names must be 1 to ${LIMITS.name} characters`),
    customFieldMap(
      v.union(
        [v.pipe(v.string(), v.maxLength(LIMITS.customFieldValue)), v.number(), v.boolean(), v.null()],
        'values must be strings, numbers, booleans or null',
      ),
    ),
  ),
});

const duration = (unit: number) =>
  v.optional(
    v.pipe(
      v.number('must be a number'),
      v.minValue(0, 'must not be negative'),
      v.transform((n) => n * unit),
    ),
  );

const wait = v.pipe(
  v.object({ type: v.literal('wait'), seconds: duration(1), minutes: duration(60), hours: duration(3600), days: duration(86_400) }),
  v.transform(({ seconds = 0, minutes = 0, hours = 0, days = 0 }) => ({ type: 'wait' as const, seconds: Math.round(seconds + minutes + hours + days) })),
  v.check((step) => step.seconds >= 1 && step.seconds <= MAX_WAIT_SECONDS, `a wait lasts from 1 second to ${MAX_WAIT_SECONDS / 86_400} days`),
);

export const STEP_TYPES = ['send_template', 'send_text', 'send_interactive', 'add_labels', 'remove_labels', 'set_custom_fields', 'wait'] as const;

const step = v.variant(
  'type',
  [sendTemplate, sendText, sendInteractive, addLabels, removeLabels, setCustomFields, wait],
  `type must be one of ${STEP_TYPES.join(', ')}`,
);

export const stepsSchema = v.pipe(v.array(step, 'steps must be an array'), v.maxLength(MAX_STEPS, `at most ${MAX_STEPS} steps`));

export type AutomationStep = v.InferOutput<typeof step>;

/** Parses a steps document; the error names the bad step, e.g. `step 2 (send_template): templateName: must not be empty`. */
export function parseSteps(document: unknown): AutomationStep[] {
  const list = document && typeof document === 'object' && !Array.isArray(document) && 'steps' in document ? (document as { steps: unknown }).steps : document;
  const result = v.safeParse(stepsSchema, list, { abortPipeEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue.path ?? [];
  const index = path.findIndex((item) => item.type === 'array' && typeof item.key === 'number');
  if (index === -1) throw new Error(`Invalid steps: ${issue.message}.`);
  const stepNumber = (path[index].key as number) + 1;
  const stepType = (Array.isArray(list) ? (list[stepNumber - 1] as { type?: unknown })?.type : undefined) ?? 'unknown type';
  const field = path
    .slice(index + 1)
    .map((item) => String(item.key))
    .join('.');
  const message = issue.kind === 'schema' && issue.input === undefined ? 'is required' : issue.message;
  throw new Error(`Invalid step ${stepNumber} (${String(stepType)}): ${field ? `${field}: ` : ''}${message}.`);
}

/**
 * Fills `{{contact.name}}`, `{{contact.phone}}` and `{{contact.<field>}}` (custom fields,
 * case-insensitive). A placeholder may name a fallback after `|` (`{{contact.name|there}}`),
 * used when the contact's value is absent or blank.
 */
export function renderPlaceholders(template: string, contact: { name?: string | null; phone: string; customFields?: Record<string, unknown> }): string {
  const fields = new Map(Object.entries(contact.customFields ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
  return template.replace(/\{\{\s*contact\.([^}|]+?)\s*(?:\|([^}]*))?\}\}/g, (_match, name: string, fallback: string | undefined) => {
    const key = name.toLowerCase();
    const value = key === 'name' ? contact.name : key === 'phone' ? contact.phone : fields.get(key);
    const text = value === undefined || value === null ? '' : String(value);
    return text.trim() === '' && fallback !== undefined ? fallback.trim() : text;
  });
}
