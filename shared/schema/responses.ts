import * as v from 'valibot';
import { described } from './docs';

/**
 * What an endpoint answers, declared beside what it takes: each function file exports a
 * `response` ({@link EndpointResponse}) whose `data` is a view schema of shared/domain,
 * written with the helpers below. The OpenAPI generator (shared/openapi/document.ts)
 * turns them into the document's response schemas, the contract test checks every answer
 * of the end-to-end suite against that document, and `apiEndpoint` holds the handler to
 * the declared `data` at compile time.
 *
 * View objects are strict (no undocumented fields in the document); a view shows a stored
 * attribute through the entity's own schema (shared/data) where it shows it as stored.
 */

const isoTimestamp = v.pipe(v.string(), v.isoTimestamp());
/** An ISO 8601 time in UTC. */
export const timestamp = (description: string) => described(isoTimestamp, `${description} (ISO 8601, UTC)`, '2025-01-31T09:30:00.000Z');
/** An ISO 8601 time in UTC, or null. */
export const nullableTimestamp = (description: string) => v.pipe(v.nullable(isoTimestamp), v.description(`${description} (ISO 8601, UTC), or null`));

/** The `created` flag of a manage call's answer. */
export const created = described(v.boolean(), 'true when this call created the record, false when it updated one', true);

const components = new WeakMap<v.GenericSchema, string>();

/**
 * A view the OpenAPI document names (`components.schemas.<name>`, referenced wherever it
 * appears) instead of writing it out in place.
 */
export function component<S extends v.GenericSchema>(name: string, schema: S): S {
  components.set(schema, name);
  return schema;
}

/** The name a view was given by {@link component}, if any. */
export const componentName = (schema: v.GenericSchema): string | undefined => components.get(schema);

/** An object view: the schema's entries, each read from a record. */
type ObjectView =
  | v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>
  | v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>;

/**
 * A record as `view` shows it: exactly the view's fields, each as the record has it. A stored
 * item's key, tag and other attributes never reach an answer; what a field needs beyond
 * a copy (a default, a rename) the caller gives in `record`.
 */
export function viewOf<V extends ObjectView>(view: V, record: object): v.InferOutput<V> {
  const source = record as Record<string, unknown>;
  const shown: Record<string, unknown> = {};
  for (const name of Object.keys(view.entries)) shown[name] = source[name];
  return shown as v.InferOutput<V>;
}

/** Error statuses an endpoint may answer (shared/openapi/responses.ts documents each). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503;

/** What an endpoint answers: its function file exports it as `response`. */
export interface EndpointResponse<Data extends v.GenericSchema = v.GenericSchema> {
  /** The success envelope's `data`. */
  data: Data;
  /** What `data` holds, for the 200 response's description. */
  description: string;
  /** Envelope fields beside `data` and `message`: `pagination` (page-numbered lists), `total` or `nextCursor` (cursor-paged lists). */
  envelope?: 'pagination' | 'total' | 'nextCursor';
  /** Error statuses beyond the ones every endpoint may answer. */
  errors?: readonly ErrorStatus[];
  /** An example of the envelope's `message`, when the endpoint writes one. */
  message?: string;
}

/** Declares an endpoint's answer (typed, so `apiEndpoint` can hold the handler to `data`). */
export const endpointResponse = <Data extends v.GenericSchema>(response: EndpointResponse<Data>): EndpointResponse<Data> => response;
