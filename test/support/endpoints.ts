import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as v from 'valibot';
import { API_ROUTES, type ApiRoute } from '../../shared/routes';
import type { Handler } from './api';

/**
 * Every endpoint of the route table with its function's exported `schema` and
 * `handler`, so matrix tests iterate the table and a new endpoint joins them by
 * its route-table row alone. Parameter names and a valid-shaped request are read
 * off the valibot schema (no per-endpoint fixture).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The HTTP methods every endpoint answers (parameters in the query string or the body). */
export type Method = 'GET' | 'POST';
export const METHODS: Method[] = ['GET', 'POST'];

export interface Endpoint {
  route: ApiRoute;
  path: string;
  handler: Handler;
  schema: v.GenericSchema;
  /** The top-level parameter schemas by name. */
  params: Record<string, v.GenericSchema>;
  /** Parameters without which the schema fails. */
  required: string[];
  /** A request the schema accepts: required parameters (and what whole-object checks need) with valid-shaped values. */
  base: Record<string, string>;
}

/** The object schema's entries, also behind `v.pipe(v.object(…), …)`. */
export function schemaEntries(schema: v.GenericSchema): Record<string, v.GenericSchema> {
  const withEntries = schema as unknown as { entries?: Record<string, v.GenericSchema>; pipe?: unknown[] };
  if (withEntries.entries) return withEntries.entries;
  for (const item of withEntries.pipe ?? []) {
    const entries = (item as { entries?: Record<string, v.GenericSchema> }).entries;
    if (entries) return entries;
  }
  return {};
}

/** Values tried, in order, to find one a parameter accepts (GET delivers strings, so strings come first). */
const VALID_SHAPED: string[] = [
  'probe_1',
  'probe.cursor_1',
  '+14155550123',
  'https://example.com/probe.png',
  'probe@example.com',
  '#FF8800',
  'en',
  'text',
  'image',
  'active',
  'pending',
  '1',
  'true',
  '[{"phoneNumber":"+14155550123"}]',
  '{"type":"button","body":{"text":"Probe"},"action":{"buttons":[{"type":"reply","reply":{"id":"probe_1","title":"Probe"}}]}}',
  '{"latitude":52.5,"longitude":13.4}',
  '{"messageId":"probe_1","emoji":"👍"}',
];

/**
 * Parameters whose schema takes any short string but whose handler checks more (chat/media/upload
 * checks the MIME type against WhatsApp's list and the base64 of `data`): a value the handler
 * accepts too, so an invalid value of another parameter is the one a refusal names.
 */
const VALID_BY_NAME: Record<string, string> = {
  mimeType: 'image/png',
  data: 'iVBORw0KGgo=',
};

export function validShapedValue(name: string, schema: v.GenericSchema): string {
  const found = [VALID_BY_NAME[name], ...VALID_SHAPED].find((value) => value !== undefined && v.safeParse(schema, value).success);
  if (found === undefined) throw new Error(`test/support/endpoints.ts: no valid-shaped value for parameter ${name}; add one to VALID_SHAPED`);
  return found;
}

/** The value as the handler receives it: GET turns everything into a string; POST round-trips JSON. */
export function delivered(value: unknown, method: 'GET' | 'POST'): unknown {
  if (method === 'GET') return typeof value === 'string' ? value : JSON.stringify(value);
  return (JSON.parse(JSON.stringify({ value })) as { value?: unknown }).value;
}

/** Whether a parameter's own schema accepts a value as delivered (the oracle of the hostile-input properties). */
export function parameterAccepts(endpoint: Endpoint, name: string, value: unknown, method: 'GET' | 'POST'): boolean {
  const schema = endpoint.params[name];
  return schema ? v.safeParse(schema, delivered(value, method)).success : true;
}

function baseRequest(schema: v.GenericSchema, params: Record<string, v.GenericSchema>, required: string[]): Record<string, string> {
  const base: Record<string, string> = Object.fromEntries(required.map((name) => [name, validShapedValue(name, params[name])]));
  if (v.safeParse(schema, base).success) return base;
  // A whole-object check (e.g. "automationId or automationName") wants an optional parameter too.
  for (const name of Object.keys(params)) {
    if (name in base || name === 'channelId') continue;
    const candidate = { ...base, [name]: validShapedValue(name, params[name]) };
    if (v.safeParse(schema, candidate).success) return candidate;
  }
  throw new Error(`test/support/endpoints.ts: cannot build a valid request for this schema from ${JSON.stringify(base)}`);
}

let loaded: Promise<Endpoint[]> | undefined;

/** Loads every route's function module once per test file. */
export function loadEndpoints(): Promise<Endpoint[]> {
  loaded ??= Promise.all(
    API_ROUTES.map(async (route) => {
      const module = (await import(/* @vite-ignore */ pathToFileURL(join(ROOT, route.entry)).href)) as { schema: v.GenericSchema; handler: Handler };
      if (!module.schema || !module.handler) throw new Error(`${route.entry} must export schema and handler`);
      const params = schemaEntries(module.schema);
      const required = Object.keys(params).filter((name) => !v.safeParse(params[name], undefined).success);
      return { route, path: route.path, handler: module.handler, schema: module.schema, params, required, base: baseRequest(module.schema, params, required) };
    }),
  );
  return loaded;
}

/** Parameter names that carry ids of other records, with the refusal README.md's "Rules every endpoint keeps" states for a foreign or unknown one. */
export const FOREIGN_ID_STATUS: Record<string, number> = {
  channelId: 403,
  chatmid: 403,
  automationId: 404,
  automationName: 404,
  contactId: 404,
  webhookId: 404,
  eventId: 404,
  mediaId: 404,
};

/**
 * Id parameters that name the chat network's objects, not the workspace's records: chat/message/send's
 * `mediaId` is media uploaded to the channel's number, which the chat network alone holds and checks.
 * A foreign one must be answered exactly as an unknown one, whatever that answer's status.
 */
export const CHAT_NETWORK_ID_PARAMS: Readonly<Record<string, readonly string[]>> = { 'chat/message/send': ['mediaId'] };

/** The status a foreign id in `name` must get from `path`, or undefined when only "the same as an unknown id" holds. */
export const foreignIdStatus = (path: string, name: string): number | undefined =>
  CHAT_NETWORK_ID_PARAMS[path]?.includes(name) ? undefined : FOREIGN_ID_STATUS[name];
