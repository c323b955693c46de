import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { API_BASE_PATH } from '../../shared/routes';

/**
 * The contract check: every response the end-to-end suite receives (through
 * `stack.call` or the typed client of test/support/local-stack.ts) is validated
 * against the committed OpenAPI document, the one the service serves: the status
 * must be documented for that path and method, the body must match its schema
 * (ajv, JSON Schema 2020-12), and the required headers must be there and well-formed.
 * A violation throws where the call was made, so the test that made it fails.
 */

type Json = Record<string, any>;

const DOCUMENT_FILE = resolve(import.meta.dirname, '..', '..', 'docs', 'openapi.json');
const DOCUMENT_ID = 'openapi.json';

let state: { document: Json; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

function load() {
  if (state) return state;
  const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Json;
  // Not strict: the document's own keywords (openapi, paths, example, …) sit beside the schemas.
  // No meta-schema check of what is added: the document's root is not a schema, so checking it
  // against JSON Schema's meta-schema reaches none of its schemas (a broken component passes it)
  // and only compiles that meta-schema again in every test file's worker.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  state = { document, ajv, validators: new Map() };
  return state;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Follows `$ref`s inside the document; returns the object and its JSON pointer. */
function resolveRef(document: Json, pointer: string): { value: Json; pointer: string } {
  let current = pointer;
  for (let hops = 0; hops < 10; hops++) {
    const value = current
      .replace(/^#\//, '')
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((node, segment) => node?.[segment], document);
    if (value && typeof value.$ref === 'string') current = value.$ref;
    else return { value, pointer: current };
  }
  throw new Error(`$ref loop at ${pointer}`);
}

function validator(pointer: string): ValidateFunction {
  const { ajv, validators } = load();
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

export interface ObservedResponse {
  method: string;
  /** The full request URL. */
  url: string;
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined when empty). */
  body: unknown;
}

/** Everything about the response that disagrees with the document (empty when it conforms). */
export function contractViolations(response: ObservedResponse): string[] {
  const { document } = load();
  const pathname = new URL(response.url).pathname;
  const where = `${response.method} ${pathname} → ${response.status}`;
  if (!pathname.startsWith(`${API_BASE_PATH}/`)) return [`${where}: not below ${API_BASE_PATH}`];
  const path = pathname.slice(API_BASE_PATH.length).replace(/\/+$/, '');
  const method = response.method.toLowerCase();
  const operationPointer = `#/paths/${escapePointer(path)}/${method}`;
  const operation = resolveRef(document, operationPointer).value;

  let responsePointer: string;
  if (!operation) {
    // Unknown paths and verbs are the gateway's 404 in the error envelope.
    if (response.status !== 404) return [`${where}: undocumented path or method answered ${response.status}, not 404`];
    responsePointer = '#/components/responses/NotFound';
  } else {
    if (!operation.responses?.[String(response.status)]) return [`${where}: status ${response.status} is not documented for this operation`];
    responsePointer = `${operationPointer}/responses/${response.status}`;
  }
  const resolved = resolveRef(document, responsePointer);
  const violations: string[] = [];

  const contentType = response.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) violations.push(`${where}: Content-Type ${contentType || '(none)'} is not application/json`);
  const validate = validator(`${resolved.pointer}/content/${escapePointer('application/json')}/schema`);
  if (!validate(response.body)) {
    for (const error of validate.errors ?? []) violations.push(`${where}: body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
  }

  for (const [name, headerOrRef] of Object.entries<Json>(resolved.value.headers ?? {})) {
    const headerPointer = headerOrRef.$ref ?? `${resolved.pointer}/headers/${escapePointer(name)}`;
    const header = resolveRef(document, headerPointer);
    const value = response.headers.get(name);
    if (value === null) {
      if (header.value.required) violations.push(`${where}: required header ${name} is missing`);
      continue;
    }
    const type = header.value.schema?.type;
    const parsed = type === 'integer' || type === 'number' ? (/^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value) : value;
    const validateHeader = validator(`${header.pointer}/schema`);
    if (!validateHeader(parsed)) violations.push(`${where}: header ${name}: ${JSON.stringify(value)} ${validateHeader.errors?.[0]?.message}`);
  }
  return violations;
}

export class ContractViolationError extends Error {
  constructor(readonly violations: string[]) {
    super(`The response disagrees with docs/openapi.json:\n  ${violations.join('\n  ')}`);
    this.name = 'ContractViolationError';
  }
}

/** Throws a ContractViolationError when the response disagrees with the document. */
export function assertContract(response: ObservedResponse): void {
  const violations = contractViolations(response);
  if (violations.length > 0) throw new ContractViolationError(violations);
}

/** A fetch for the typed client that checks every response it returns. */
export function contractFetch(fetchImpl: typeof fetch = fetch): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await fetchImpl(request);
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    assertContract({ method: request.method, url: request.url, status: response.status, headers: response.headers, body });
    return response;
  };
}

/**
 * Everything about a webhook delivery's body that disagrees with the document's
 * `webhooks` section (empty when it conforms): an event type it does not list, or a body
 * that does not match that type's schema (shared/events/event-schemas.ts).
 */
export function eventViolations(body: unknown): string[] {
  const { document } = load();
  const type = (body as { type?: unknown } | null)?.type;
  const where = `delivery of ${JSON.stringify(type)}`;
  if (typeof type !== 'string' || !document.webhooks?.[type]?.post) return [`${where}: not an event type of the webhooks section`];
  const validate = validator(`#/webhooks/${escapePointer(type)}/post/requestBody/content/${escapePointer('application/json')}/schema`);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${where}: body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
}
