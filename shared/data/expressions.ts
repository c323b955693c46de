/**
 * DynamoDB expressions built from attribute names and values, so no call site writes
 * an expression string, a `#name` or a `:value` by hand. Every attribute is referred
 * to through a generated name placeholder (DynamoDB reserves hundreds of words:
 * `name`, `status`, `type`, `error`…), except the table's own key attributes `pk` and
 * `sk`, which are written as they are.
 */

/** One attribute (`'status'`), or a path into a map attribute (`['customFields', key]`). */
export type AttributePath = string | readonly string[];

const KEY_ATTRIBUTES = new Set(['pk', 'sk']);
const PLAIN_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

/** Allocates the name and value placeholders of one command's expressions. */
export class ExpressionScope {
  private readonly names: Record<string, string> = {};
  private readonly values: Record<string, unknown> = {};
  private readonly placeholderOf = new Map<string, string>();
  private nameCount = 0;
  private valueCount = 0;

  /** The placeholder path of an attribute path (`#customFields.#n0`); `pk` and `sk` stay bare. */
  path(path: AttributePath): string {
    return (typeof path === 'string' ? [path] : path).map((name, i) => (i === 0 && KEY_ATTRIBUTES.has(name) ? name : this.name(name))).join('.');
  }

  /** A value placeholder (`:v0`), one per call. */
  value(value: unknown): string {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The command's ExpressionAttributeNames / ExpressionAttributeValues, each left out when empty. */
  attributes(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } {
    return {
      ...(Object.keys(this.names).length ? { ExpressionAttributeNames: { ...this.names } } : {}),
      ...(Object.keys(this.values).length ? { ExpressionAttributeValues: { ...this.values } } : {}),
    };
  }

  /** A condition rendered with this scope's placeholders (a ConditionExpression or FilterExpression). */
  condition(condition: Condition): string {
    switch (condition.test) {
      case 'exists':
        return `attribute_exists(${this.path(condition.path)})`;
      case 'notExists':
        return `attribute_not_exists(${this.path(condition.path)})`;
      case 'contains':
        return `contains(${this.path(condition.path)}, ${this.value(condition.value)})`;
      case 'notContains':
        return `NOT contains(${this.path(condition.path)}, ${this.value(condition.value)})`;
      case 'beginsWith':
        return `begins_with(${this.path(condition.path)}, ${this.value(condition.value)})`;
      case 'sizeIs':
        return `size(${this.path(condition.path)}) = ${this.value(condition.size)}`;
      case 'oneOf':
        return `${this.path(condition.path)} IN (${condition.values.map((value) => this.value(value)).join(', ')})`;
      case 'AND':
      case 'OR':
        return condition.conditions.map((part) => `(${this.condition(part)})`).join(` ${condition.test} `);
      default:
        return `${this.path(condition.path)} ${condition.test} ${this.value(condition.value)}`;
    }
  }

  private name(name: string): string {
    const known = this.placeholderOf.get(name);
    if (known) return known;
    // Readable `#status` where the name allows it; `#n<i>` for any other name (phone digits, custom-field keys).
    let placeholder = PLAIN_NAME.test(name) ? `#${name}` : `#n${this.nameCount++}`;
    while (placeholder in this.names) placeholder = `#n${this.nameCount++}`;
    this.names[placeholder] = name;
    this.placeholderOf.set(name, placeholder);
    return placeholder;
  }
}

/**
 * A condition of a write (or a query's filter), as data: {@link when} builds it, and the
 * command that carries it renders it into its own scope ({@link ExpressionScope.condition}).
 */
export type Condition =
  | { test: 'exists' | 'notExists'; path: AttributePath }
  | { test: '=' | '<' | '<=' | '>'; path: AttributePath; value: unknown }
  | { test: 'contains' | 'notContains' | 'beginsWith'; path: AttributePath; value: unknown }
  | { test: 'sizeIs'; path: AttributePath; size: number }
  | { test: 'oneOf'; path: AttributePath; values: readonly unknown[] }
  | { test: 'AND' | 'OR'; conditions: readonly Condition[] };

const compare =
  (test: '=' | '<' | '<=' | '>') =>
  (path: AttributePath, value: unknown): Condition => ({ test, path, value });

/** Conditions for writes (and filters for queries). */
export const when = {
  exists: (path: AttributePath): Condition => ({ test: 'exists', path }),
  notExists: (path: AttributePath): Condition => ({ test: 'notExists', path }),
  /** The item is there (its partition key exists). */
  itemExists: (): Condition => ({ test: 'exists', path: 'pk' }),
  /** No item is there. */
  itemAbsent: (): Condition => ({ test: 'notExists', path: 'pk' }),
  /** A set or list attribute does not hold `value` (also true when the attribute is absent). */
  notContains: (path: AttributePath, value: unknown): Condition => ({ test: 'notContains', path, value }),
  eq: compare('='),
  lt: compare('<'),
  lte: compare('<='),
  gt: compare('>'),
  /** A string attribute starts with `prefix`. */
  beginsWith: (path: AttributePath, prefix: string): Condition => ({ test: 'beginsWith', path, value: prefix }),
  /** A list, map, set or string attribute has exactly `size` elements (characters). */
  sizeIs: (path: AttributePath, size: number): Condition => ({ test: 'sizeIs', path, size }),
  oneOf: (path: AttributePath, values: readonly unknown[]): Condition => ({ test: 'oneOf', path, values }),
  and: (...conditions: Condition[]): Condition => ({ test: 'AND', conditions }),
  or: (...conditions: Condition[]): Condition => ({ test: 'OR', conditions }),
  /** A set (or string) attribute holds `value`. */
  contains: (path: AttributePath, value: unknown): Condition => ({ test: 'contains', path, value }),
};

/** An update's clauses, in the order they are added. */
export interface UpdateClauses {
  set: string[];
  remove: string[];
  add: string[];
  delete: string[];
}

/** Renders update clauses as one UpdateExpression (`SET … REMOVE … ADD … DELETE …`). */
export function updateExpression(clauses: UpdateClauses): string {
  const parts = [
    clauses.set.length ? `SET ${clauses.set.join(', ')}` : '',
    clauses.remove.length ? `REMOVE ${clauses.remove.join(', ')}` : '',
    clauses.add.length ? `ADD ${clauses.add.join(', ')}` : '',
    clauses.delete.length ? `DELETE ${clauses.delete.join(', ')}` : '',
  ].filter(Boolean);
  if (!parts.length) throw new Error('An update needs at least one clause');
  return parts.join(' ');
}
