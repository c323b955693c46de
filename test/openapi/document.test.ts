import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, EVENTS_DOC_FILE, generateArtifacts, loadRouteContracts, OPENAPI_FILE, README_FILE } from '../../scripts/openapi';
import type { RouteContracts } from '../../shared/openapi/document';
import { EVENT_TYPES } from '../../shared/events/event-types';
import { API_ROUTES, PORTAL_API_PATH, PORTAL_ROUTES } from '../../shared/routes';

type Json = Record<string, any>;

/** Every schema a parameter may take: itself, or each alternative of an anyOf or oneOf (a valibot variant). */
const alternatives = (schema: Json): Json[] => {
  const options = schema.anyOf ?? schema.oneOf;
  return options ? options.flatMap(alternatives) : [schema];
};

/** What a parameter schema lacks: a type, and the limits that fit the type. */
function missingLimits(schema: Json): string[] {
  return alternatives(schema).flatMap((alt) => {
    switch (alt.type) {
      case 'string':
        // A fixed-length pattern (anchored, no + or *) limits the length too.
        return alt.maxLength !== undefined || alt.enum || /^\^[^+*]*\$$/.test(alt.pattern ?? '') ? [] : ['maxLength, enum or a fixed-length pattern'];
      case 'integer':
      case 'number':
        return alt.minimum !== undefined && alt.maximum !== undefined ? [] : ['minimum and maximum'];
      case 'array':
        return [...(alt.maxItems === undefined ? ['maxItems'] : []), ...missingLimits(alt.items ?? {}).map((m) => `items: ${m}`)];
      case 'object':
        return alt.maxProperties === undefined ? ['maxProperties'] : [];
      case 'boolean':
        return [];
      default:
        return [`a type (got ${JSON.stringify(alt)})`];
    }
  });
}

describe('the OpenAPI document', () => {
  let generated: { json: string; types: string; readme: string; eventsDoc: string };
  let document: Json;
  let contracts: RouteContracts;

  beforeAll(async () => {
    [generated, contracts] = await Promise.all([generateArtifacts(), loadRouteContracts()]);
    document = JSON.parse(generated.json);
  }, 60_000);

  it('is committed exactly as generated, with the client types (else: npm run openapi)', async () => {
    // Act
    const [committedJson, committedTypes] = await Promise.all([readFile(OPENAPI_FILE, 'utf8'), readFile(CLIENT_TYPES_FILE, 'utf8')]);

    // Assess
    expect(committedJson, 'docs/openapi.json is stale: run npm run openapi and commit it').toBe(generated.json);
    expect(committedTypes, 'client/generated/api.d.ts is stale: run npm run openapi and commit it').toBe(generated.types);
    expect(generated.json.endsWith('}\n')).toBe(true);
  });

  it('is in the README as generated: every endpoint with its request example, and the rate-limit classes (else: npm run openapi)', async () => {
    // Act
    const committed = await readFile(README_FILE, 'utf8');

    // Assess
    expect(committed, "README.md's generated sections are stale: run npm run openapi and commit it").toBe(generated.readme);
    for (const route of API_ROUTES) expect(committed).toContain(`| \`${route.path}\` | ${route.summary} | \`${route.rateLimitClass}\` |`);
  });

  it('is in docs/EVENTS.md as generated: every event type with every field of its data (else: npm run openapi)', async () => {
    // Act
    const committed = await readFile(EVENTS_DOC_FILE, 'utf8');

    // Assess
    expect(committed, "docs/EVENTS.md's generated section is stale: run npm run openapi and commit it").toBe(generated.eventsDoc);
    for (const type of EVENT_TYPES) expect(committed).toContain(`#### \`${type}\``);
    expect(committed).toMatch(/\| `data\.source` \| `"keyword"` \\\| `"api"` \\\| `"import"` \| What changed it/);
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    // Act
    const result = await new Validator().validate(document);

    // Assess
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('describes the API: version 1.0.0, a relative server, both auth schemes', () => {
    // Assess
    expect(document.info).toMatchObject({ title: 'Workspace messaging API', version: '1.0.0' });
    expect(document.servers).toEqual([expect.objectContaining({ url: '/api/workspace/v1' })]);
    expect(document.components.securitySchemes).toEqual({
      ApiKeyAuth: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      BearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      PortalIdToken: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    expect(document.security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
    expect(document.paths['/openapi.json'].get.security).toEqual([]);
  });

  it('has GET and POST of every route, with a declared response schema and unique operation ids', () => {
    // Prepare
    const operationIds = Object.values<Json>(document.paths).flatMap((item) =>
      Object.entries<Json>(item)
        .filter(([key]) => key !== 'servers')
        .map(([, op]) => op.operationId),
    );

    for (const route of API_ROUTES) {
      // Act
      const item = document.paths[`/${route.path}`];

      // Assess
      expect(contracts[route.path].response, `${route.entry} exports no response`).toBeDefined();
      expect(Object.keys(item ?? {}).sort(), route.path).toEqual(['get', 'post']);
      for (const op of [item.get, item.post]) {
        expect(op.summary).toBe(route.summary);
        expect(op.tags).toEqual([route.tag]);
        expect(op['x-rate-limit-class']).toBe(route.rateLimitClass);
        expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${route.name}Response` });
        for (const status of ['400', '401', '403', '429', '500']) expect(op.responses[status], `${route.path} ${status}`).toBeDefined();
      }
    }
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('has every portal route at its own path and server, behind the user pool’s ID token, with its answer and refusals', () => {
    for (const route of PORTAL_ROUTES) {
      // Act
      const item = document.paths[`/api/${route.path}`];
      const op = item?.[route.method.toLowerCase()];

      // Assess: /portal + /api/<path> = PORTAL_API_PATH/<path>
      expect(`${item.servers[0].url}/api/${route.path}`).toBe(`${PORTAL_API_PATH}/${route.path}`);
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.security).toEqual([{ PortalIdToken: [] }]);
      expect(op.tags).toEqual(['Developer portal']);
      expect(op.operationId).toBe(route.name.charAt(0).toLowerCase() + route.name.slice(1));
      expect(op.responses['200'].content['application/json'].schema).toEqual(expect.any(Object));
      for (const status of ['400', '401', '403', '429']) expect(op.responses[status], `${route.path} ${status}`).toBeDefined();
      if (route.method === 'GET') expect(op.requestBody).toBeUndefined();
      else expect(op.parameters).toBeUndefined();
    }
    expect(document.paths['/api/keys/revoke'].post.responses['404']).toBeDefined();
    expect(document.paths['/api/webhooks'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Webhook' },
    });
  });

  it('has a webhooks section with one schema per event type, every field of data described, and events/list shows the same schemas', () => {
    // Prepare
    const resolve = (schema: Json): Json => (schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema);
    /** Every property below `schema` (through refs, items and anyOf) without a description. */
    const undescribed = (schema: Json, where: string): string[] => {
      const node = resolve(schema);
      const own = Object.entries<Json>(node.properties ?? {}).flatMap(([name, property]) => [
        ...(resolve(property).description || property.description ? [] : [`${where}.${name}`]),
        ...undescribed(property, `${where}.${name}`),
      ]);
      const nested = [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.items ? [node.items] : [])].flatMap((part: Json) => undescribed(part, where));
      return [...own, ...nested];
    };

    // Act
    const webhooks: Json = document.webhooks;
    const listed: Json = document.components.schemas.Event;

    // Assess
    expect(Object.keys(webhooks)).toEqual([...EVENT_TYPES]);
    for (const type of EVENT_TYPES) {
      const post = webhooks[type].post;
      expect(post.parameters.map((p: Json) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const event = resolve(post.requestBody.content['application/json'].schema);
      expect(event.properties.type).toMatchObject({ const: type });
      expect(event.additionalProperties, type).toBe(false);
      const data = resolve(event.properties.data);
      expect(data.additionalProperties, `${type} data`).toBe(false);
      expect(Object.keys(data.properties), type).toContain('channelId');
      expect(undescribed(data, type)).toEqual([]);
      expect(listed.oneOf).toContainEqual(post.requestBody.content['application/json'].schema);
    }
    expect(listed.oneOf).toHaveLength(EVENT_TYPES.length);
    expect(resolve(resolve(webhooks['contact.opted_out'].post.requestBody.content['application/json'].schema).properties.data).required).toEqual([
      'channelId',
      'contact',
      'source',
    ]);
  });

  it('documents every parameter with a type, format or limits, a description and an example', () => {
    for (const route of API_ROUTES) {
      // Prepare
      const params: Json = document.components.schemas[`${route.name}Params`];
      const query: Json[] = document.paths[`/${route.path}`].get.parameters;

      // Assess
      expect(query.map((p) => p.name)).toEqual(Object.keys(params.properties));
      for (const [name, property] of Object.entries<Json>(params.properties)) {
        const where = `${route.path} ${name}`;
        expect(property.description, where).toMatch(/\S{3}/);
        expect(property.examples, where).toHaveLength(1);
        expect(missingLimits(property), where).toEqual([]);
      }
      for (const parameter of query) {
        expect(parameter.in).toBe('query');
        expect(parameter.example ?? parameter.content?.['application/json']?.example, `${route.path} ${parameter.name}`).toBeDefined();
      }
    }
    // Spot checks that formats, defaults and limits come through from the valibot schemas.
    expect(document.components.schemas.ContactsManageParams.properties.email).toMatchObject({ type: 'string', format: 'email', maxLength: 254 });
    expect(document.components.schemas.ContactsManageParams.properties.profilePictureUrl).toMatchObject({ type: 'string', format: 'uri', maxLength: 2048 });
    expect(document.components.schemas.ContactsListParams.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
    expect(document.components.schemas.CustomFieldsManageParams.properties.isRequired).toMatchObject({ type: 'boolean' });
    expect(document.components.schemas.ContactsManageParams.required).toEqual(['phoneNumber']);
  });

  it('gives examples every schema accepts: each parameter’s, and each request body the endpoint itself accepts', () => {
    // Prepare
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);

    for (const route of API_ROUTES) {
      const params: Json = document.components.schemas[`${route.name}Params`];
      const example = document.paths[`/${route.path}`].post.requestBody.content['application/json'].example;
      for (const [name, property] of Object.entries<Json>(params.properties)) {
        // Act
        const valid = ajv.validate(property, property.examples[0]);

        // Assess
        expect(valid, `${route.path} ${name}: ${ajv.errorsText()}`).toBe(true);
      }
      const parsed = v.safeParse(contracts[route.path].schema, example);
      expect(parsed.success, `${route.path} example ${JSON.stringify(parsed.issues?.map((i) => i.message))}`).toBe(true);
      expect(ajv.validate(params, example), `${route.path} example: ${ajv.errorsText()}`).toBe(true);
    }
  });

  it('documents the envelope: each error status, and the 429 with Retry-After and the RateLimit headers', () => {
    // Prepare
    const { responses, headers, schemas: components } = document.components;

    // Assess
    expect(components.ErrorResponse).toMatchObject({ required: ['success', 'error'], additionalProperties: false });
    expect(Object.keys(responses)).toEqual([
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'NotFound',
      'Conflict',
      'PayloadTooLarge',
      'TooManyRequests',
      'InternalError',
      'BadGateway',
      'ServiceUnavailable',
    ]);
    expect(responses.TooManyRequests.headers['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer' } });
    for (const name of ['RateLimit-Policy', 'RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
      expect(responses.TooManyRequests.headers[name], name).toBeDefined();
      expect(headers[name], name).toMatchObject({ required: true });
    }
    for (const response of Object.values<Json>(responses)) {
      expect(response.headers['X-Request-Id']).toMatchObject({ required: true });
      expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    }
    expect(components.ContactsListResponse.required).toEqual(['success', 'data', 'pagination']);
  });
});
