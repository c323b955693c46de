import * as v from 'valibot';

/**
 * A schema with what the OpenAPI document says of it: a description, and an example when
 * given. Parameters (every one needs both: shared/openapi/document.ts refuses one without)
 * and response views are documented with it, on their own schemas. Only metadata: it
 * changes nothing a schema accepts.
 */
export const described = <T extends v.GenericSchema>(schema: T, description: string, example?: unknown) =>
  example === undefined ? v.pipe(schema, v.description(description)) : v.pipe(schema, v.description(description), v.examples([example]));
