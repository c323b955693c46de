import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './generated/api';

/**
 * A small typed client for the Workspace messaging API, on openapi-fetch. Its types
 * are generated from docs/openapi.json by `npm run openapi` (client/generated/api.d.ts),
 * so paths, parameters and answers are checked by the compiler:
 *
 * ```ts
 * const api = createWorkspaceClient({ baseUrl: 'http://127.0.0.1:3000/api/workspace/v1', apiKey });
 * const { data, error } = await api.POST('/contacts/list', { body: { limit: 20, search: 'bo' } });
 * if (data) for (const contact of data.data) console.log(contact.name, contact.phone);
 * else console.error(error?.error, error?.message);
 * ```
 */

export type { components, operations, paths } from './generated/api';
export type WorkspaceClient = Client<paths>;

/** Named schemas of the document, e.g. `Schema<'Channel'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface WorkspaceClientOptions {
  /** The API base, e.g. `http://127.0.0.1:3000/api/workspace/v1` or the stack's `ApiUrl` output. */
  baseUrl: string;
  /** Sent as `X-API-Key` (never in the URL); only /openapi.json answers without one. */
  apiKey?: string;
  /** Another fetch (tests, retries, tracing); defaults to the global fetch. */
  fetch?: (input: Request) => Promise<Response>;
  /** openapi-fetch middleware (onRequest/onResponse). */
  middleware?: Middleware[];
}

/**
 * GET parameters the way the API reads them: lists and objects as JSON, so values
 * that contain commas arrive whole (`["Smith, Jr.","A-1"]`; openapi-fetch's default
 * would repeat list keys and use deepObject brackets).
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) search.set(name, JSON.stringify(value.map(String)));
    else if (typeof value === 'object') search.set(name, JSON.stringify(value));
    else search.set(name, String(value));
  }
  return search.toString();
}

export function createWorkspaceClient(options: WorkspaceClientOptions): WorkspaceClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.apiKey ? { 'X-API-Key': options.apiKey } : {},
    querySerializer: serializeQuery,
    ...(options.fetch && { fetch: options.fetch }),
  });
  if (options.middleware?.length) client.use(...options.middleware);
  return client;
}
