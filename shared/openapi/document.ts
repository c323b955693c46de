import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { DEFAULT_RATE_LIMITS } from '../config';
import { EVENT_SCHEMAS, eventSummary } from '../events/event-schemas';
import { EVENT_TYPES } from '../events/event-types';
import type { PortalResponse } from '../domain/portal-views';
import { API_BASE_PATH, API_ROUTES, OPENAPI_PATH, PORTAL_API_PATH, PORTAL_ROUTES, type ApiRoute, type PortalRoute, type RateLimitClass } from '../routes';
import { componentName, type EndpointResponse, type ErrorStatus } from '../schema/responses';
import { COMMON_ERROR_STATUSES, ERROR_STATUS_DOCS, ErrorResponse, Pagination } from './responses';

/**
 * Builds the OpenAPI 3.1 document from the route table and what each endpoint's function
 * file exports (loaded by scripts/openapi.ts, since production code never imports
 * functions/): its valibot `schema` (the parameters, each with its description and
 * example) and its `response` (the answer: a view schema of shared/domain, described
 * field by field). Nothing in the document is written per endpoint here: `npm run
 * openapi` writes it to docs/openapi.json, the openapi function serves that file, and the
 * tests compare it with a fresh build.
 */

export const OPENAPI_VERSION = '3.1.0';
export const API_VERSION = '1.0.0';
/** The document's own path below the API base (served without an API key). */
export const OPENAPI_DOCUMENT_PATH = OPENAPI_PATH.slice(API_BASE_PATH.length);

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
};
type Operation = Record<string, unknown>;

/** What a route's function file declares: what it takes (`schema`) and what it answers (`response`). */
export interface RouteContract {
  schema: v.GenericSchema;
  response: EndpointResponse;
}

/** Each route's contract, by route path. */
export type RouteContracts = Record<string, RouteContract>;

/** What a portal function file declares: its parameters and its bare JSON answer. */
export interface PortalContract {
  schema: v.GenericSchema;
  response: PortalResponse;
}

/** Each portal route's contract, by function name. */
export type PortalContracts = Record<string, PortalContract>;

const toRef = ({ referenceId }: { referenceId: string }) => `#/components/schemas/${referenceId}`;
const responseConversion = (components: Record<string, v.GenericSchema>): ConversionConfig => ({
  target: 'draft-2020-12',
  errorMode: 'throw',
  definitions: components,
  overrideRef: toRef,
});
/**
 * Parameters are converted from the schemas' output side: GET delivers strings and
 * the schemas transform them, so the last schema of each pipe states the canonical
 * JSON type (integer, boolean, array, object) with its limits. Checks and transforms
 * that have no JSON Schema form are skipped; `v.metadata` after them states what they
 * enforce, and `v.description` and `v.examples` what the parameter means.
 */
const PARAMETER_CONVERSION: ConversionConfig = { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'output' };

function convert(schema: v.GenericSchema, config: ConversionConfig): JsonSchema {
  const { $schema: _schema, $defs: _defs, ...rest } = toJsonSchema(schema, config) as JsonSchema;
  return rest;
}

const pascal = (route: ApiRoute) => route.name;
const camel = (route: ApiRoute) => route.name.charAt(0).toLowerCase() + route.name.slice(1);
const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

interface Header {
  description: string;
  schema: JsonSchema;
  example: string | number;
}

const HEADERS: Record<string, Header> = {
  'X-Request-Id': {
    description: 'Id of this request (API Gateway’s request id); quote it to support. On every response.',
    schema: { type: 'string' },
    example: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
  },
  'Cache-Control': { description: 'API answers are never cached.', schema: { type: 'string' }, example: 'no-store' },
  'X-Content-Type-Options': { description: 'Always nosniff.', schema: { type: 'string' }, example: 'nosniff' },
  'RateLimit-Policy': {
    description: 'The route class’s policy (IETF httpapi draft): quota `q` per window `w` seconds.',
    schema: { type: 'string' },
    example: '"api_read";q=120;w=60',
  },
  RateLimit: {
    description: 'Remaining requests `r` and seconds `t` until the window resets (IETF httpapi draft).',
    schema: { type: 'string' },
    example: '"api_read";r=119;t=60',
  },
  'RateLimit-Limit': { description: 'Requests allowed per window for this route class and API user.', schema: { type: 'integer', minimum: 1 }, example: 120 },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 }, example: 119 },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer', minimum: 0 }, example: 60 },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 }, example: 42 },
};
const BASE_HEADERS = ['X-Request-Id', 'Cache-Control', 'X-Content-Type-Options'];
const RATE_LIMIT_HEADERS = ['RateLimit-Policy', 'RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

const header = (name: string, required: boolean) => ({ ...HEADERS[name], required });

/** Error responses: which headers each status always carries. */
function errorResponse(status: ErrorStatus): Record<string, unknown> {
  const doc = ERROR_STATUS_DOCS[status];
  const headers: Record<string, unknown> = Object.fromEntries(BASE_HEADERS.map((name) => [name, header(name, true)]));
  // The limiter ran before most refusals (not before the authorizer's 401 or API Gateway's own throttling).
  for (const name of RATE_LIMIT_HEADERS) headers[name] = header(name, false);
  if (status === 429) headers['Retry-After'] = header('Retry-After', true);
  if (status === 503) headers['Retry-After'] = header('Retry-After', false);
  return {
    description: `${doc.description} Error codes: ${doc.codes.map((code) => `\`${code}\``).join(', ')}.`,
    headers,
    content: { 'application/json': { schema: ref('schemas', 'ErrorResponse'), example: { success: false, ...doc.example } } },
  };
}

function successEnvelope(response: EndpointResponse): v.GenericSchema {
  const entries: v.ObjectEntries = {
    success: v.literal(true),
    data: response.data,
    message: v.optional(
      response.message === undefined
        ? v.pipe(v.string(), v.description('Human-readable summary'))
        : v.pipe(v.string(), v.description('Human-readable summary'), v.examples([response.message])),
    ),
  };
  if (response.envelope === 'pagination') entries.pagination = Pagination;
  if (response.envelope === 'total') entries.total = v.pipe(v.number(), v.integer(), v.description('Number of items'));
  if (response.envelope === 'nextCursor')
    entries.nextCursor = v.pipe(v.nullable(v.string()), v.description('Opaque cursor of the next page (pass it as `cursor`), or null'));
  return v.strictObject(entries);
}

/** The schemas a schema is made of, itself first, depth first (entries, items, wrapped and piped schemas, options). */
function* schemasIn(schema: v.GenericSchema): Generator<v.GenericSchema> {
  yield schema;
  const parts = schema as unknown as { entries?: v.ObjectEntries; item?: unknown; wrapped?: unknown; value?: unknown; options?: unknown[]; pipe?: unknown[] };
  const nested = [...Object.values(parts.entries ?? {}), parts.item, parts.wrapped, parts.value, ...(parts.options ?? []), ...(parts.pipe ?? []).slice(1)];
  for (const part of nested) if ((part as { kind?: string } | undefined)?.kind === 'schema') yield* schemasIn(part as v.GenericSchema);
}

/** The named views (shared/schema/responses.ts `component`) the answers use, in route order: `components.schemas`. */
function responseComponents(envelopes: readonly v.GenericSchema[]): Record<string, v.GenericSchema> {
  const components: Record<string, v.GenericSchema> = {};
  for (const schema of envelopes.flatMap((envelope) => [...schemasIn(envelope)])) {
    const name = componentName(schema);
    if (name === undefined) continue;
    if (components[name] && components[name] !== schema) throw new Error(`Two different response schemas are named ${name}`);
    components[name] = schema;
  }
  return components;
}

interface RouteParameters {
  schema: JsonSchema & { properties: Record<string, JsonSchema>; required?: string[] };
  example: Record<string, unknown>;
}

/**
 * The route's parameters as one object schema, each property with the description and
 * example written on its valibot schema, plus a request example: the one written on the
 * whole schema, else every parameter's example at once. Rules of the whole request the
 * schema states in `v.metadata` (anyOf, patternProperties) stay on the object.
 */
function routeParameters(route: Pick<ApiRoute, 'path' | 'entry'>, schema: v.GenericSchema): RouteParameters {
  const {
    type: _type,
    properties: generated = {},
    required: generatedRequired,
    examples: requestExamples,
    ...rules
  } = convert(schema, PARAMETER_CONVERSION) as {
    type?: string;
    properties?: Record<string, JsonSchema>;
    required?: string[];
    examples?: Record<string, unknown>[];
  };
  const properties: Record<string, JsonSchema> = {};
  const composed: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(generated)) {
    const { description, examples, ...rest } = property as JsonSchema & { description?: string; examples?: unknown[] };
    if (!description || examples?.length !== 1)
      throw new Error(
        `Parameter ${name} of ${route.path} needs a description and one example: write them on its schema in ${route.entry} (described, shared/schema/docs.ts)`,
      );
    properties[name] = { description, ...rest, examples };
    composed[name] = examples[0];
  }
  const required = generatedRequired?.length ? generatedRequired : undefined;
  return {
    // Strict: a name the endpoint does not define is a 400 unknown_parameter (shared/http/middleware/parameters.ts).
    schema: { type: 'object', properties, ...(required && { required }), additionalProperties: false, ...rules },
    example: requestExamples?.[0] ?? composed,
  };
}

/** The request example of a route: the one written on its schema, else every parameter's example at once. */
export function documentedRequest(route: ApiRoute, schema: v.GenericSchema): Record<string, unknown> {
  return routeParameters(route, schema).example;
}

function queryParameters(params: RouteParameters): Record<string, unknown>[] {
  return Object.entries(params.schema.properties).map(([name, property]) => {
    const { description, examples, ...schema } = property as JsonSchema & { description: string; examples: unknown[] };
    const base = { name, in: 'query', description, required: params.schema.required?.includes(name) ?? false };
    if (schema.type === 'object') {
      // Objects go as JSON in the query string (or key:value pairs, see the description).
      return { ...base, content: { 'application/json': { schema, example: examples[0] } } };
    }
    const list = schema.type === 'array' ? { style: 'form', explode: false } : {};
    return { ...base, ...list, schema, example: examples[0] };
  });
}

function rateLimitText(rateClass: RateLimitClass): string {
  return `Rate limit class \`${rateClass}\`: ${DEFAULT_RATE_LIMITS[rateClass]} requests per minute per API user by default (configurable per deployment).`;
}

function operations(route: ApiRoute, { schema, response }: RouteContract): Record<string, Operation> {
  const params = routeParameters(route, schema);
  const statuses = [...new Set<ErrorStatus>([...COMMON_ERROR_STATUSES, ...(response.errors ?? [])])].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {
    200: {
      description: response.description,
      headers: Object.fromEntries([...BASE_HEADERS, ...RATE_LIMIT_HEADERS].map((name) => [name, ref('headers', name)])),
      content: { 'application/json': { schema: ref('schemas', `${pascal(route)}Response`) } },
    },
    ...Object.fromEntries(statuses.map((status) => [status, ref('responses', ERROR_STATUS_DOCS[status].name)])),
  };
  const hasRequired = (params.schema.required?.length ?? 0) > 0;
  const patternNote = params.schema.patternProperties ? ' Numbered parameters (body1, body2, …) are accepted as well; see the POST body schema.' : '';
  const roleNote = route.adminOnly ? '\n\nAdmin keys only: a team key gets 403 `forbidden`.' : '';
  return {
    post: {
      tags: [route.tag],
      summary: route.summary,
      description: `${route.summary}. Parameters as a JSON body (preferred for writes); GET takes the same parameters in the query string.${roleNote}\n\n${rateLimitText(route.rateLimitClass)}`,
      operationId: camel(route),
      requestBody: {
        required: hasRequired,
        content: { 'application/json': { schema: ref('schemas', `${pascal(route)}Params`), example: params.example } },
      },
      responses,
      'x-rate-limit-class': route.rateLimitClass,
    },
    get: {
      tags: [route.tag],
      summary: route.summary,
      description: `The same as POST ${route.path}, with the parameters in the query string (lists comma-separated, objects as JSON).${patternNote}${roleNote}\n\n${rateLimitText(route.rateLimitClass)}`,
      operationId: `${camel(route)}Get`,
      parameters: queryParameters(params),
      responses,
      'x-rate-limit-class': route.rateLimitClass,
    },
  };
}

/**
 * The developer portal's API (docs/PORTAL.md): below {@link PORTAL_API_PATH}, outside the
 * API's base, so each path item names its own server (`/portal`, the path `/api/…`); one
 * method per route, the user pool's ID token as bearer instead of an API key, the bare
 * JSON answer, errors in the API's envelope.
 */
const PORTAL_SERVER = PORTAL_API_PATH.slice(0, PORTAL_API_PATH.lastIndexOf('/'));
const PORTAL_PATH_PREFIX = PORTAL_API_PATH.slice(PORTAL_SERVER.length);
const PORTAL_ERROR_STATUSES = [400, 401, 403, 429, 500] as const;

function portalOperation(route: PortalRoute, { schema, response }: PortalContract, conversion: ConversionConfig): Operation {
  const params = routeParameters(route, schema);
  const statuses = [...new Set<ErrorStatus>([...PORTAL_ERROR_STATUSES, ...(response.errors ?? [])])].sort((a, b) => a - b);
  const inputs =
    route.method === 'GET'
      ? { parameters: queryParameters(params) }
      : {
          requestBody: {
            required: (params.schema.required?.length ?? 0) > 0,
            content: { 'application/json': { schema: params.schema, example: params.example } },
          },
        };
  return {
    tags: ['Developer portal'],
    summary: route.summary,
    description: `${route.summary}. Signed in to the portal: the user pool's ID token as \`Authorization: Bearer\`, and the permission \`settings:api\` (else 403). Answers the JSON itself, no envelope; refusals are the API's envelope.\n\n${rateLimitText(route.rateLimitClass)} (the signed-in user's API user's limit)`,
    operationId: route.name.charAt(0).toLowerCase() + route.name.slice(1),
    security: [{ PortalIdToken: [] }],
    ...inputs,
    responses: {
      200: {
        description: response.description,
        headers: Object.fromEntries([...BASE_HEADERS, ...RATE_LIMIT_HEADERS].map((name) => [name, ref('headers', name)])),
        content: { 'application/json': { schema: convert(response.body, conversion) } },
      },
      ...Object.fromEntries(statuses.map((status) => [status, ref('responses', ERROR_STATUS_DOCS[status].name)])),
    },
    'x-rate-limit-class': route.rateLimitClass,
  };
}

function portalPaths(contracts: PortalContracts, conversion: ConversionConfig): OpenApiDocument['paths'] {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of PORTAL_ROUTES) {
    const contract = contracts[route.name];
    if (!contract) throw new Error(`No schema and response for ${route.name}: export them from ${route.entry}`);
    const item = (paths[`${PORTAL_PATH_PREFIX}/${route.path}`] ??= {
      servers: [{ url: PORTAL_SERVER, description: 'The developer portal (relative to the host that serves this document)' }],
    } as unknown as Record<string, Operation>);
    item[route.method.toLowerCase()] = portalOperation(route, contract, conversion);
  }
  return paths;
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Channels: 'The channels (business phone numbers) a key may use.',
  Contacts: 'Contacts of a channel, matched by phone number.',
  Labels: 'Labels of a channel, matched by name.',
  'Custom fields': 'Custom field definitions of a channel, matched by name.',
  Chat: 'Templates and messages on the chat network (WhatsApp Cloud API).',
  Automations: 'Automations of a channel and their triggers.',
  'Developer portal':
    'The developer portal’s own API (what the page at /portal/ calls, usable by scripts): keys, their usage and requests, the channels’ webhook subscriptions. Authorized by the portal user pool’s ID token, not an API key.',
  Events: 'What the service POSTs to your webhook subscriptions (the `webhooks` section), one schema per event type; events/list shows the same bodies.',
  Documentation: 'This document.',
};

function description(routes: readonly ApiRoute[]): string {
  const classes = (Object.keys(DEFAULT_RATE_LIMITS) as RateLimitClass[])
    .map(
      (rateClass) =>
        `| \`${rateClass}\` | ${DEFAULT_RATE_LIMITS[rateClass]} | ${
          routes
            .filter((route) => route.rateLimitClass === rateClass)
            .map((route) => route.path)
            .join(', ') || '—'
        } |`,
    )
    .join('\n');
  const codes = (Object.keys(ERROR_STATUS_DOCS) as unknown as ErrorStatus[])
    .map((status) => `| ${status} | ${ERROR_STATUS_DOCS[status].codes.map((code) => `\`${code}\``).join(', ')} |`)
    .join('\n');
  return [
    'Manage one workspace of a WhatsApp-Business-style messaging product: channels, contacts, labels, custom fields, templates and messages, automations.',
    '',
    '**Every endpoint takes GET and POST alike**: POST with a JSON body (preferred for writes), or GET with the same parameters in the query string. Unknown parameters are ignored.',
    '',
    '**Every answer is one JSON envelope**: `{"success": true, "data": …, "message": …}` or `{"success": false, "error": "<code>", "message": "…", "details": {"parameter": …}}`, with `X-Request-Id` on every response.',
    '',
    '**Authentication**: an API key in `X-API-Key: <key>` (preferred) or `Authorization: Bearer <key>`; never in the URL or body (401). Click **Authorize** to try the endpoints here. Running `npm start`? The demo keys are in `DATA_DIR/demo.json` (default `.data/demo.json`): the Acme admin key sees two channels.',
    '',
    '**Rate limits** per API user and minute (all keys of a user share them), announced in `RateLimit-*` headers; a 429 carries `Retry-After`:',
    '',
    '| class | requests per minute (default) | endpoints |',
    '|---|---|---|',
    classes,
    '',
    '**Error codes** (`error`) by status:',
    '',
    '| status | codes |',
    '|---|---|',
    codes,
  ].join('\n');
}

const DELIVERY_HEADERS: Record<string, { description: string; example: string }> = {
  'webhook-id': { description: 'The event id: the same on every attempt (deduplicate by it).', example: 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8' },
  'webhook-timestamp': { description: 'Unix seconds of this attempt (signed; refuse old ones).', example: '1738315800' },
  'webhook-signature': {
    description: "`v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the secret's decoded bytes; several, space-separated, during a rotation.",
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
};

/**
 * The `webhooks` section (OpenAPI 3.1): one POST per event type, its body the type's
 * schema (shared/events/event-schemas.ts), signed by the Standard Webhooks headers.
 */
function webhooks(): Record<string, { post: Operation }> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const schemaName = componentName(EVENT_SCHEMAS[type]);
      if (!schemaName) throw new Error(`The ${type} event schema has no component name`);
      const post: Operation = {
        tags: ['Events'],
        summary: type,
        description: `${eventSummary(type)}\n\nPOSTed to every active subscription (webhooks/manage) whose \`events\` take \`${type}\`, signed by the Standard Webhooks headers; the same body is in events/list. Any 2xx within 10 seconds acknowledges it; anything else is retried by the schedule in docs/EVENTS.md.`,
        operationId: `${schemaName.charAt(0).toLowerCase()}${schemaName.slice(1)}`,
        security: [],
        parameters: Object.entries(DELIVERY_HEADERS).map(([name, { description, example }]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
          example,
        })),
        requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', schemaName) } } },
        responses: { '2XX': { description: 'Acknowledged: the delivery succeeded (any 2xx within 10 seconds).' } },
      };
      return [type, { post }];
    }),
  );
}

/** The whole document, deterministic for a given route table and contracts. */
export function buildOpenApiDocument(contracts: RouteContracts, routes: readonly ApiRoute[] = API_ROUTES, portal: PortalContracts = {}): OpenApiDocument {
  const contractOf = (route: ApiRoute) => {
    const contract = contracts[route.path];
    if (!contract) throw new Error(`No schema and response for ${route.path}: export them from ${route.entry}`);
    return contract;
  };
  const envelopes = routes.map((route) => successEnvelope(contractOf(route).response));
  const portalBodies = Object.values(portal).map((contract) => contract.response.body);
  const components = responseComponents([...envelopes, ...portalBodies, ...Object.values(EVENT_SCHEMAS)]);
  const conversion = responseConversion(components);
  const paths: OpenApiDocument['paths'] = {};
  const schemaComponents: Record<string, JsonSchema> = {};
  routes.forEach((route, i) => {
    paths[`/${route.path}`] = operations(route, contractOf(route));
    schemaComponents[`${pascal(route)}Params`] = routeParameters(route, contractOf(route).schema).schema;
    schemaComponents[`${pascal(route)}Response`] = convert(envelopes[i], conversion);
  });
  paths[OPENAPI_DOCUMENT_PATH] = {
    get: {
      tags: ['Documentation'],
      summary: 'This OpenAPI document (public: no API key)',
      operationId: 'openApiDocument',
      security: [],
      responses: {
        200: {
          description: 'The OpenAPI 3.1 document of this API.',
          headers: { 'X-Request-Id': ref('headers', 'X-Request-Id') },
          content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } },
        },
      },
    },
  };
  const hasPortal = Object.keys(portal).length > 0;
  if (hasPortal) Object.assign(paths, portalPaths(portal, conversion));
  const used = new Set(routes.map((route) => route.tag));
  const tags = [...new Set(routes.map((route) => route.tag)), ...(hasPortal ? ['Developer portal'] : []), 'Events', 'Documentation'].filter(
    (tag) => tag === 'Documentation' || tag === 'Events' || tag === 'Developer portal' || used.has(tag as ApiRoute['tag']),
  );
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Workspace messaging API',
      version: API_VERSION,
      description: description(routes),
    },
    servers: [{ url: API_BASE_PATH, description: 'This deployment (relative to the host that serves this document)' }],
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    webhooks: webhooks(),
    components: {
      schemas: {
        ...schemaComponents,
        ...toJsonSchemaDefs(components, conversion),
        ErrorResponse: convert(ErrorResponse, conversion),
      },
      responses: Object.fromEntries(
        (Object.keys(ERROR_STATUS_DOCS) as unknown as ErrorStatus[]).map((status) => [
          ERROR_STATUS_DOCS[status].name,
          errorResponse(Number(status) as ErrorStatus),
        ]),
      ),
      headers: Object.fromEntries([...BASE_HEADERS, ...RATE_LIMIT_HEADERS].map((name) => [name, header(name, true)])),
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key (preferred form).' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The same API key as `Authorization: Bearer <key>`.' },
        ...(hasPortal && {
          PortalIdToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The developer portal’s user pool (Amazon Cognito; locally its stand-in) ID token, as `Authorization: Bearer <idToken>`: sign in with InitiateAuth (USER_PASSWORD_AUTH) and send AuthenticationResult.IdToken. Checked for signature, issuer, audience (the portal’s app client), expiry and token_use `id` (docs/PORTAL.md).',
          },
        }),
      },
    },
  };
}

/** The committed form: two-space JSON with a trailing newline. */
export function serializeDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
