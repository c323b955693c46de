import type * as v from 'valibot';

/**
 * A cheaper check of a read item against its schema, for the hot list reads (a page of
 * contacts, history entries, deliveries). Why by hand: valibot's parse builds a dataset per
 * attribute and a new object per item, a share of a list page's warm CPU too large to
 * ignore, and valibot has no compiled mode; a JSON Schema compiler (ajv) cannot say what
 * our items hold (DynamoDB sets, custom checks). The measurements, and the paths tried
 * instead, are in docs/PERFORMANCE.md, "Reads parsed by their entity" (bench/item-parse.ts).
 *
 * The schema is compiled once into plain predicates; an item that passes is the item as
 * read, its missing defaults filled in place. An item that does not pass, and a schema
 * using what the compiler does not know (transforms, checks other than integer and regex),
 * go to valibot, which decides and names what is wrong, so the two never disagree on what
 * is accepted: the compiled check accepts only what valibot accepts, and leaves valibot to
 * refuse (test/shared/item-check.test.ts, by property). A nested object's keys its schema
 * does not name are kept as read, where valibot's parse would drop them.
 */

type Check = (value: unknown) => boolean;

const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
type Schema = v.GenericSchema & { type: string; pipe?: readonly Piece[] };
type Piece = { kind: string; type: string; requirement?: unknown };

/** An item schema as compiled: true when the item passes (its absent defaults then filled in place), false for valibot to decide. */
export type AcceptItem = (item: Record<string, unknown>) => boolean;

const compiled = new WeakMap<v.GenericSchema, AcceptItem | null>();

/** The schema's compiled check, or undefined when it uses what the compiler does not know. */
export function compiledItem(schema: v.GenericSchema): AcceptItem | undefined {
  let found = compiled.get(schema);
  if (found === undefined) {
    found = compileItem(schema as Schema) ?? null;
    compiled.set(schema, found);
  }
  return found ?? undefined;
}

/** A loose object of attributes the compiler knows, or a union of such (the first that passes). */
function compileItem(schema: Schema): AcceptItem | undefined {
  if (schema.pipe) return undefined;
  if (schema.type === 'union') {
    const options = (schema as unknown as { options: Schema[] }).options.map(compileItem);
    if (options.some((option) => !option)) return undefined;
    return (item) => options.some((accept) => accept!(item));
  }
  const entries = (schema as unknown as { entries?: Record<string, Schema> }).entries;
  if (schema.type !== 'loose_object' || !entries) return undefined;
  const checks = compileEntries(entries);
  if (!checks) return undefined;
  const defaults: Array<[string, unknown]> = [];
  for (const [key, entry] of Object.entries(entries)) {
    const fallback = (entry as { default?: unknown }).default;
    if (mayBeAbsent(entry) && fallback !== undefined) defaults.push([key, fallback]);
  }
  return (item) => {
    if (!checks(item)) return false;
    for (const [key, fallback] of defaults) if (item[key] === undefined) item[key] = typeof fallback === 'function' ? (fallback as () => unknown)() : fallback;
    return true;
  };
}

/** An entry valibot lets an object lack (else a missing key is refused, even for a schema of any value). */
const mayBeAbsent = (entry: Schema) => entry.type === 'optional' || entry.type === 'nullish';

/** An object's entries as one predicate on the object, or undefined when the compiler does not know one of them. */
function compileEntries(entries: Record<string, Schema>): ((record: Record<string, unknown>) => boolean) | undefined {
  const checks: Array<[string, Check, boolean]> = [];
  for (const [key, entry] of Object.entries(entries)) {
    const check = compile(entry);
    if (!check) return undefined;
    checks.push([key, check, mayBeAbsent(entry)]);
  }
  return (record) => {
    for (const [key, check, optional] of checks) if (!((optional || key in record) && check(record[key]))) return false;
    return true;
  };
}

/** A predicate equivalent to the schema's acceptance, or undefined when the compiler does not know the schema. */
function compile(schema: Schema): Check | undefined {
  const wrapped = (schema as { wrapped?: Schema }).wrapped;
  const base = baseCheck(schema, wrapped);
  if (!base || !schema.pipe) return base;
  // A pipe: its first piece is the schema itself; the others are checks the compiler knows, or metadata.
  const pieces: Check[] = [];
  for (const piece of schema.pipe.slice(1)) {
    if (piece.kind === 'metadata') continue;
    if (piece.type === 'integer') pieces.push((value) => Number.isInteger(value));
    else if (piece.type === 'regex') pieces.push((value) => (piece.requirement as RegExp).test(value as string));
    else return undefined;
  }
  return (value) => base(value) && pieces.every((check) => check(value));
}

function baseCheck(schema: Schema, wrapped: Schema | undefined): Check | undefined {
  switch (schema.type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'number':
      return (value) => typeof value === 'number' && !Number.isNaN(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'unknown':
      return () => true;
    case 'never':
      return () => false;
    case 'literal': {
      const literal = (schema as unknown as { literal: unknown }).literal;
      return (value) => value === literal;
    }
    case 'picklist': {
      const options = new Set((schema as unknown as { options: readonly unknown[] }).options);
      return (value) => options.has(value);
    }
    case 'custom':
      return (schema as unknown as { check: Check }).check;
    case 'optional':
    case 'nullable':
    case 'nullish': {
      const inner = wrapped && compile(wrapped);
      if (!inner) return undefined;
      const allowsUndefined = schema.type !== 'nullable';
      const allowsNull = schema.type !== 'optional';
      return (value) => (value === undefined && allowsUndefined) || (value === null && allowsNull) || inner(value);
    }
    case 'array': {
      const item = compile((schema as unknown as { item: Schema }).item);
      return item && ((value) => Array.isArray(value) && value.every(item));
    }
    case 'set': {
      const item = compile((schema as unknown as { value: Schema }).value);
      return item && ((value) => value instanceof Set && [...value].every(item));
    }
    case 'object':
    case 'loose_object': {
      // Nested: accepted as valibot accepts it (an object of such attributes); its other keys are kept as read.
      const entries = compileEntries((schema as unknown as { entries: Record<string, Schema> }).entries);
      return entries && ((value) => isObject(value) && entries(value as Record<string, unknown>));
    }
    case 'record': {
      const key = compile((schema as unknown as { key: Schema }).key);
      const item = compile((schema as unknown as { value: Schema }).value);
      if (!key || !item) return undefined;
      return (value) => isObject(value) && Object.entries(value as Record<string, unknown>).every(([name, entry]) => key(name) && item(entry));
    }
    case 'union': {
      const options = (schema as unknown as { options: Schema[] }).options.map(compile);
      if (options.some((option) => !option)) return undefined;
      return (value) => options.some((option) => option!(value));
    }
    default:
      return undefined;
  }
}
