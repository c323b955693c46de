import { metaError, type MetaErrorSpec } from './sandbox-catalog';

/** How the sandbox's request checks refuse: thrown from deep inside, caught once where the request is answered. */

export type Json = Record<string, unknown>;

export class Refusal extends Error {
  constructor(readonly spec: MetaErrorSpec) {
    super(spec.message);
  }
}

export function refuse(code: number, details: string): never {
  throw new Refusal(metaError(code, details));
}

/** `value` as a JSON object, or Meta's refusal naming `what`: 131008 when absent, 100 when not an object. */
export function object(value: unknown, what: string): Json {
  if (value === undefined) refuse(131008, `The parameter ${what} is required.`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse(100, `Param ${what} must be an object.`);
  return value as Json;
}
