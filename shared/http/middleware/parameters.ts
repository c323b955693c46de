import httpJsonBodyParser from '@middy/http-json-body-parser';
import * as v from 'valibot';
import { MAX_BODY_BYTES } from '../../config';
import type { ParameterRequest } from '../context';
import { KEY_PARAMETER_NAMES, keyParameterInUrl } from '../../auth/key-placement';
import { InvalidInputError, KeyInUrlError, UnauthenticatedError } from '../../errors';
import { headerValue } from '../../schema/headers';
import { DefinedParameters } from '../../schema/parameter-names';
import { jsonErrorPosition } from '../json-error-position';

// The content type is checked above (JSON or none), so the parser only parses; its .d.ts lacks this option.
const jsonBody = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);
const JSON_TYPE = /^application\/(.+\+)?json\s*(;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * Merges the query string and the body into one parameter object (the body wins on
 * a clash), as the API treats GET and POST alike. A form-typed body that starts
 * with `{` is read as JSON (what `curl -d '{…}'` sends). JSON bodies go through middy's
 * JSON parser; its own 415/422 become our 400. Bodies of other types, oversized
 * bodies and non-object JSON are refused; a key in the parameters is a 401 (in the URL:
 * one that says the key is exposed).
 */
export function requestParameters(maxBodyBytes = MAX_BODY_BYTES) {
  return {
    before: async function mergeParameters(request: ParameterRequest) {
      const { event } = request;
      const query = { ...(event.queryStringParameters ?? {}) };
      const keyInUrl = keyParameterInUrl(query);
      if (keyInUrl !== undefined) throw new KeyInUrlError(keyInUrl);
      const body = await readBody(request, maxBodyBytes);
      const params: Record<string, unknown> = Object.assign(Object.create(null), query, body);
      for (const name of Object.keys(params)) {
        if (KEY_PARAMETER_NAMES.has(name.toLowerCase())) {
          throw new UnauthenticatedError('API keys are never accepted in the body: send X-API-Key or Authorization: Bearer.');
        }
      }
      request.context.api.params = params;
    },
  };
}

async function readBody(request: ParameterRequest, maxBodyBytes: number): Promise<Record<string, unknown>> {
  const { event } = request;
  const raw = event.body;
  if (raw === null || raw === undefined || raw === '') return {};
  const bytes = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
  if (bytes > maxBodyBytes) throw new InvalidInputError(`The request body exceeds ${maxBodyBytes} bytes.`, 'body', 'payload_too_large');
  const contentType = headerValue(event.headers, 'content-type') ?? '';
  if (FORM_TYPE.test(contentType)) {
    const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
    // `curl -d '{…}'` labels JSON as a form; no real form body starts with a brace.
    if (!text.trimStart().startsWith('{')) return Object.fromEntries(new URLSearchParams(text));
  } else if (contentType !== '' && !JSON_TYPE.test(contentType)) {
    throw new InvalidInputError('Send the body as application/json (or application/x-www-form-urlencoded).', 'Content-Type', 'unsupported_content_type');
  }
  if (raw.trim() === '') return {};
  try {
    await jsonBody.before!(request as never);
  } catch {
    throw invalidJson(event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw);
  }
  const parsed: unknown = event.body;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InvalidInputError('The JSON body must be an object of parameters.', 'body', 'invalid_json');
  }
  return parsed as Record<string, unknown>;
}

/** The 400 for a body that is no JSON, saying where it breaks: position, line and column (1-based). */
function invalidJson(text: string): InvalidInputError {
  const position = jsonErrorPosition(text);
  if (position === undefined) return new InvalidInputError('The request body is not valid JSON.', 'body', 'invalid_json');
  const lines = text.slice(0, position).split('\n');
  const [line, column] = [lines.length, lines[lines.length - 1].length + 1];
  const found = position < text.length ? `unexpected ${JSON.stringify(text[position])}` : 'it ends too early';
  return new InvalidInputError(
    `The request body is not valid JSON at position ${position} (line ${line}, column ${column}): ${found}.`,
    'body',
    'invalid_json',
    {
      position,
      line,
      column,
    },
  );
}

/**
 * Validates the merged parameters with the endpoint's valibot schema; a 400 names the
 * first bad parameter. A name the schema does not define is refused first, with the
 * closest defined one suggested: a typo must not pass as "not given".
 */
export function validParameters(schema: v.GenericSchema) {
  const defined = new DefinedParameters(schema);
  return {
    before: function validate(request: ParameterRequest) {
      const { params } = request.context.api;
      const unknown = Object.keys(params).find((name) => !defined.defines(name));
      if (unknown !== undefined) throw unknownParameter(unknown, defined.closestTo(unknown));
      const result = v.safeParse(schema, params, { abortPipeEarly: true });
      if (!result.success) throw toBadRequest(result.issues);
      request.context.api.input = result.output;
    },
  };
}

/** The 400 for a name the endpoint does not define (`name` as the caller wrote it; also per row by contacts/import), with the closest defined name when there is one. */
export function unknownParameter(name: string, suggestion: string | undefined): InvalidInputError {
  const hint = suggestion === undefined ? '' : ` Did you mean ${suggestion}?`;
  return new InvalidInputError(`Received unknown parameter: ${name}.${hint}`, name, 'unknown_parameter');
}

/** The 400 for failed validation, naming the first bad parameter (also used per row by contacts/import). */
export function toBadRequest(issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): InvalidInputError {
  const issue = issues[0];
  const parameter = issue.path?.map((item) => String(item.key)).join('.') || 'parameters';
  const missing = issue.input === undefined && issue.kind === 'schema';
  if (missing) return new InvalidInputError(`Missing required parameter: ${parameter}.`, parameter, 'missing_parameter');
  const message = issue.message.startsWith('Invalid') ? 'is invalid' : issue.message;
  return new InvalidInputError(`Invalid parameter ${parameter}: ${message}.`, parameter);
}
