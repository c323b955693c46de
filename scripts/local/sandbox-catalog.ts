import { createHash } from 'node:crypto';
import type { GraphTemplate } from '../../shared/chat/templates';

/**
 * What the sandbox chat network knows up front: the templates every business
 * number gets (README, "Messaging on the (sandbox) chat network") and Meta's error vocabulary.
 */

/** A template record without its id, which depends on the WABA. */
type TemplateSeed = Pick<GraphTemplate, 'name' | 'language' | 'status' | 'category' | 'components'> & Record<string, unknown>;

const TEMPLATE_SEEDS: readonly TemplateSeed[] = [
  {
    name: 'hello_world',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'POSITIONAL',
    components: [{ type: 'BODY', text: 'Hello World' }],
  },
  {
    name: 'order_update',
    language: 'en',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'POSITIONAL',
    components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Ann', '123']] } }],
  },
  {
    name: 'promo_image',
    language: 'en',
    status: 'APPROVED',
    category: 'MARKETING',
    parameter_format: 'POSITIONAL',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://example.com/promo.jpg'] } },
      { type: 'BODY', text: '{{1}}', example: { body_text: [['Summer sale: 20% off']] } },
    ],
  },
  {
    name: 'draft_offer',
    language: 'en',
    status: 'PENDING',
    category: 'MARKETING',
    parameter_format: 'POSITIONAL',
    components: [{ type: 'BODY', text: 'Offer {{1}}', example: { body_text: [['10% off']] } }],
  },
];

/**
 * The templates of one WABA. Ids are derived from the WABA and the template so
 * they are numeric like Meta's and stable across restarts of the local stack.
 */
export function templatesForWaba(wabaId: string): GraphTemplate[] {
  return TEMPLATE_SEEDS.map((seed) => ({ ...seed, id: numericId(`${wabaId}/${seed.name}/${seed.language}`) }));
}

function numericId(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex').slice(0, 13);
  return String(parseInt(hex, 16)).padStart(16, '1');
}

/** A Meta error the sandbox answers with, before it becomes an HTTP body. */
export interface MetaErrorSpec {
  httpStatus: number;
  code: number;
  message: string;
  details?: string;
}

/** Titles Meta uses for the codes the service maps; others get a generic one. */
const ERROR_TITLES: Record<number, string> = {
  100: 'Invalid parameter',
  190: 'Invalid OAuth access token',
  130429: 'Rate limit hit',
  131000: 'Something went wrong',
  131008: 'Required parameter is missing',
  131009: 'Parameter value is not valid',
  131026: 'Message undeliverable',
  131047: 'Re-engagement message',
  131053: 'Media upload error',
  131056: '(Business Account, Consumer Account) pair rate limit hit',
  132000: 'Number of parameters does not match the expected number of params',
  132001: 'Template name does not exist in the translation',
  132018: 'There was an issue with the parameters in your template.',
};

export function errorTitle(code: number): string {
  return ERROR_TITLES[code] ?? 'Message failed to send';
}

/** The HTTP status Meta pairs with a code when it refuses a request outright. */
function httpStatusFor(code: number): number {
  if (code === 190) return 401;
  if (code === 132001) return 404;
  return 400;
}

/** A refusal with Meta's usual status for the code. */
export function metaError(code: number, details?: string): MetaErrorSpec {
  return { httpStatus: httpStatusFor(code), code, message: `(#${code}) ${errorTitle(code)}`, details };
}

/** The Graph API error body: `{ error: { message, type, code, error_data, fbtrace_id } }`. */
export function metaErrorBody(spec: MetaErrorSpec, fbtraceId: string): Record<string, unknown> {
  const error: Record<string, unknown> = {
    message: spec.message,
    // Meta labels nearly every Graph error OAuthException, whatever its cause.
    type: 'OAuthException',
    code: spec.code,
    fbtrace_id: fbtraceId,
  };
  if (spec.details !== undefined) error.error_data = { messaging_product: 'whatsapp', details: spec.details };
  return { error };
}

/** Text for webhook status errors, as Meta words the common ones. */
export function statusErrorMessage(code: number): string {
  if (code === 131047) {
    return 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.';
  }
  if (code === 131026) return 'Message undeliverable.';
  return errorTitle(code);
}
