import { distance } from 'fastest-levenshtein';
import type * as v from 'valibot';

/**
 * The parameters an endpoint defines, read from its valibot schema (never restated): the
 * entries of its object (a pipe keeps the object's entries on itself) and the name
 * patterns its `v.metadata` declares as `patternProperties` for the OpenAPI document
 * (chat/templates/send's `body1`, `body2`, …). shared/http refuses any other name.
 */
export class DefinedParameters {
  private readonly names: ReadonlySet<string>;
  private readonly patterns: readonly RegExp[];

  constructor(schema: v.GenericSchema) {
    const { entries, pipe = [] } = schema as unknown as { entries?: Record<string, unknown>; pipe?: readonly unknown[] };
    if (!entries) throw new Error(`An endpoint's schema must be an object of parameters (got ${schema.type})`);
    this.names = new Set(Object.keys(entries));
    this.patterns = pipe.flatMap((item) => {
      const { type, metadata } = item as { type?: string; metadata?: { patternProperties?: Record<string, unknown> } };
      return type === 'metadata' ? Object.keys(metadata?.patternProperties ?? {}).map((pattern) => new RegExp(pattern)) : [];
    });
  }

  /** Whether `name` is a parameter of the endpoint. */
  defines(name: string): boolean {
    return this.names.has(name) || this.patterns.some((pattern) => pattern.test(name));
  }

  /**
   * The defined name closest to an unknown one, when it is close enough to be what the
   * caller meant: by edit distance (case-insensitive) at most half the longer name, or one
   * name starting with the other (`phone` → `phoneNumber`); ties go to the first defined.
   */
  closestTo(unknown: string): string | undefined {
    const typed = unknown.toLowerCase();
    let best: { name: string; distance: number } | undefined;
    for (const name of this.names) {
      const defined = name.toLowerCase();
      const edits = distance(typed, defined);
      const prefix = Math.min(typed.length, defined.length) >= 3 && (defined.startsWith(typed) || typed.startsWith(defined));
      const close = prefix || edits <= Math.floor(Math.max(typed.length, defined.length) / 2);
      if (close && (!best || edits < best.distance)) best = { name, distance: edits };
    }
    return best?.name;
  }
}
