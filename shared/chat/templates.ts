/**
 * Message templates as the Graph API lists them, and how many variables a send must fill.
 */

/** One component of a template record (`HEADER`, `BODY`, `FOOTER`, `BUTTONS`). */
export interface GraphTemplateComponent {
  type: string;
  format?: string;
  text?: string;
  [key: string]: unknown;
}

/** A template record of `GET /{waba-id}/message_templates`. */
export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: GraphTemplateComponent[];
  [key: string]: unknown;
}

export type MediaHeaderFormat = 'IMAGE' | 'VIDEO' | 'DOCUMENT';

export type TemplateHeaderShape = null | { format: 'TEXT'; variables: number } | { format: MediaHeaderFormat };

/** What a send of a template must supply. */
export interface TemplateVariableCounts {
  bodyVariables: number;
  header: TemplateHeaderShape;
}

const MEDIA_FORMATS: readonly string[] = ['IMAGE', 'VIDEO', 'DOCUMENT'];

/**
 * Counts the variables of a template from its Graph components. Placeholders are
 * positional (`{{1}}`, `{{2}}`, …) and a repeated one is filled once, so distinct
 * numbers are counted. Component types and formats are compared case-insensitively
 * because hand-written fixtures are not always upper case.
 */
export function countTemplateVariables(components: readonly GraphTemplateComponent[] | undefined): TemplateVariableCounts {
  const list = Array.isArray(components) ? components : [];
  const body = list.find((component) => upper(component?.type) === 'BODY');
  const header = list.find((component) => upper(component?.type) === 'HEADER');
  return { bodyVariables: countPlaceholders(body?.text), header: headerShape(header) };
}

/** The header a send must fill; other header formats (e.g. LOCATION) are not supported by this service. */
function headerShape(header: GraphTemplateComponent | undefined): TemplateHeaderShape {
  if (!header) return null;
  const format = upper(header.format) || 'TEXT';
  if (format === 'TEXT') return { format: 'TEXT', variables: countPlaceholders(header.text) };
  if (MEDIA_FORMATS.includes(format)) return { format: format as MediaHeaderFormat };
  return null;
}

/** Distinct `{{n}}` placeholders in a text. */
function countPlaceholders(text: unknown): number {
  if (typeof text !== 'string') return 0;
  const numbers = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) numbers.add(String(Number(match[1])));
  return numbers.size;
}

function upper(value: unknown): string {
  return typeof value === 'string' ? value.toUpperCase() : '';
}
