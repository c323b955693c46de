import * as v from 'valibot';
import { CorruptItemError } from '../errors';
import { compiledItem } from './item-check';

/**
 * Stored entities, each declared once: a valibot schema of its `entity` tag and its
 * attributes. From it come the TypeScript type (`Stored<typeof X>`), the parse every typed
 * read of client.ts and batch.ts makes of what it read (`getItem(key, X)`), and the tag
 * every write carries (`X.tag`). The domain's views and the OpenAPI document take their
 * field types from these schemas where a view shows a stored attribute as it is.
 *
 * A read checks the declared attributes and keeps every other attribute as stored (the
 * key, the outbox's attributes): a read-modify-write never drops what a schema does not
 * name, and the type shows only what the schema declares. An item that does not fit its
 * schema (another version wrote it, or it was damaged) is a {@link CorruptItemError},
 * never a silently wrong shape.
 */

/** An entity's schema: a loose object of its tag and attributes, with the tag at hand for writes. */
export type EntitySchema<Tag extends string, Entries extends v.ObjectEntries> = v.LooseObjectSchema<
  { entity: v.LiteralSchema<Tag, undefined> } & Entries,
  undefined
> & {
  readonly tag: Tag;
};

/** Declares a stored entity: its tag (written here and nowhere else) and its attributes. */
export function entity<const Tag extends string, const Entries extends v.ObjectEntries>(tag: Tag, entries: Entries): EntitySchema<Tag, Entries> {
  return Object.assign(v.looseObject({ entity: v.literal(tag), ...entries }), { tag });
}

/**
 * What a read made with `schema` returns: the declared attributes of an object schema
 * (its loose rest stays on the object, untyped), else the schema's output.
 */
export type Stored<S extends v.GenericSchema> =
  S extends v.LooseObjectSchema<infer Entries, infer _Message> ? v.InferOutput<v.ObjectSchema<Entries, undefined>> : v.InferOutput<S>;

/** A schema a read may take: any valibot schema of an item (an entity, a projection of one, a key). */
export type ItemSchema = v.GenericSchema<Record<string, unknown>, unknown>;

/** Parses one item read from the table with its schema; a mismatch is a {@link CorruptItemError}. */
export function parseItem<S extends ItemSchema>(schema: S, item: Record<string, unknown>): Stored<S> {
  // The compiled check first (item-check.ts: the same acceptance, without valibot's cost); valibot decides the rest.
  if (compiledItem(schema)?.(item)) return item as Stored<S>;
  const result = v.safeParse(schema, item);
  if (result.success) return result.output as Stored<S>;
  throw new CorruptItemError(mismatch(schema, item, result.issues));
}

/** Parses each item of a page read from the table. */
export function parseItems<S extends ItemSchema>(schema: S, items: readonly Record<string, unknown>[] | undefined): Stored<S>[] {
  return (items ?? []).map((item) => parseItem(schema, item));
}

/**
 * What is wrong, for the log: the entity, and each attribute's path with the type it
 * should have and the type it has. Never a value or the key, which may hold personal data
 * (a contact's phone number is its sort key).
 */
function mismatch(schema: ItemSchema, item: Record<string, unknown>, issues: readonly v.BaseIssue<unknown>[]): string {
  const declared = (schema as { entries?: { entity?: { literal?: unknown } } }).entries?.entity?.literal;
  const kind = typeof declared === 'string' ? declared : typeof item.entity === 'string' ? item.entity : 'item';
  const found = issues.map((issue) => `${v.getDotPath(issue) ?? '(item)'}: expected ${issue.expected ?? issue.type}, got ${typeOf(issue.input)}`);
  return `A stored ${kind} does not have its declared shape: ${found.join('; ')}`;
}

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : value instanceof Set ? 'set' : typeof value);

/** An item's key, as a keys-only read (a projection, an index) gives it. */
export const ItemKey = v.looseObject({ pk: v.string(), sk: v.string() });

/** `schema` with the item's key declared too: for reads whose caller needs the key (to delete the item, to tell items apart). */
export const keyed = <Entries extends v.ObjectEntries>(schema: { entries: Entries }) => v.looseObject({ ...schema.entries, ...ItemKey.entries });

/** An entity's attributes without its tag: what a write gives ({@link tagged} adds the tag). */
export type Attributes<S extends v.GenericSchema> = Omit<Stored<S>, 'entity'>;

/** The item a write stores for `schema` under `key`: the key, the entity's tag and its attributes. */
export function tagged<Tag extends string, Entries extends v.ObjectEntries, K extends object>(
  schema: EntitySchema<Tag, Entries>,
  key: K,
  attributes: Attributes<EntitySchema<Tag, Entries>>,
): K & { entity: Tag } & Record<string, unknown> {
  return { ...key, entity: schema.tag, ...attributes };
}
