import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../shared/config';
import { recordFigures } from '../support/log-audit';
import type { Endpoint, Method } from '../support/endpoints';
import { usePrivateStore } from '../support/private-store';
import { scanRaw, snapshotDiff, snapshotTable, type TableSnapshot } from '../support/table';
import { callWithin, expectEnvelope, expectNoServerError, isolateChatNetwork, liftRateLimits, Tally, unique } from './helpers';

/**
 * OWASP API4 — hostile input, over every endpoint of the route table and both GET
 * and POST. This file has a dynalite of its own, so "the table is byte-for-byte
 * unchanged after rejected requests" compares the whole table (rate-limit windows
 * aside), not a filtered view of a store other files write to.
 */

const store = await usePrivateStore();
const restoreLimits = liftRateLimits();
isolateChatNetwork();
process.env.WHATSAPP_APP_SECRET ??= 'hostile-input-app-secret';
const { callApi } = await import('../support/api');
const { createTenant } = await import('../support/tenants');
const { loadEndpoints, METHODS, parameterAccepts, validShapedValue } = await import('../support/endpoints');
const { checkInvariants, checkNothingDropped } = await import('../support/invariants');
const { asQueryString, restProxyEvent } = await import('../support/api');
const { handler: webhook } = await import('../../functions/webhook-whatsapp');
const { signPayload } = await import('../../shared/chat/signature');
const { getChannel } = await import('../../shared/data/channels');
const { attachChatmid } = await import('../../shared/data/messages');

const endpoints = await loadEndpoints();
const tally = new Tally();

/** Parameter names under which keys are refused with 401 (tested in keys-and-secrets). */
const KEY_NAMES = new Set(['apikey', 'api_key', 'x-api-key', 'key', 'access_token']);
/** The middleware's content-type rules (shared/http/middleware/parameters.ts), to generate types it must refuse. */
const JSON_TYPE = /^application\/(.+\+)?json\s*(;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const CONTROL_CHARS = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u000e', '\u001b', '\u001f', '\u007f'];

// ---- Arbitraries --------------------------------------------------------------------------

const hugeString = fc.oneof(
  fc.integer({ min: 100_000, max: 102_400 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom('é', '漢', '🙂', 'a\u0301').map((unit) => unit.repeat(Math.ceil(100_000 / unit.length))),
);
/** The longest string a parameter's schema declares (`maxLength` anywhere in its pipe), if any. */
function declaredMaxLength(schema: unknown): number | undefined {
  const { pipe, type, requirement } = (schema ?? {}) as { pipe?: unknown[]; type?: string; requirement?: unknown };
  if (type === 'max_length' && typeof requirement === 'number') return requirement;
  for (const item of pipe ?? []) {
    if (item === schema) continue;
    const found = declaredMaxLength(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * How long a string must be to be too long for the parameter: 100 KB, or one character
 * past its declared maximum for a parameter that takes more (chat/media/upload's base64
 * `data`, where 100 KB of `x` is a valid file).
 */
function tooLongLength(endpoint: Endpoint, name: string, method: Method): number {
  if (!parameterAccepts(endpoint, name, 'x'.repeat(102_400), method)) return 100_000;
  const max = declaredMaxLength(endpoint.params[name]);
  if (max === undefined) throw new Error(`${endpoint.path} ${name} takes 100 KB strings and declares no maxLength`);
  return max + 1;
}
const hugeStringFor = (endpoint: Endpoint, name: string, method: Method) => {
  const length = tooLongLength(endpoint, name, method);
  return length === 100_000 ? hugeString : fc.constant('x'.repeat(length));
};

const hugeArray = fc.constantFrom('v', '1', '').map((entry) => Array.from({ length: 10_000 }, (_, i) => (entry === '1' ? i : `${entry}${i % 10}`)));

function nested(depth: number, objects: boolean): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = objects && i % 2 ? { n: value } : [value];
  return value;
}
const deeplyNested = fc.tuple(fc.integer({ min: 1_000, max: 3_000 }), fc.boolean()).map(([depth, objects]) => nested(depth, objects));

/**
 * A valid-shaped value of the parameter with a control character inside it (so
 * nothing else is wrong with it; at either end, trimming would remove it).
 */
function insertControlChar(endpoint: Endpoint, name: string, at: number, char: string): string {
  const shaped = validShapedValue(name, endpoint.params[name]);
  const valid = shaped.length >= 2 ? shaped : shaped + shaped;
  const i = 1 + (at % (valid.length - 1));
  return valid.slice(0, i) + char + valid.slice(i);
}
const withControlChar = (endpoint: Endpoint, name: string) =>
  fc.tuple(fc.nat(), fc.constantFrom(...CONTROL_CHARS)).map(([at, char]) => insertControlChar(endpoint, name, at, char));

/** Values no parameter of any endpoint may accept: the documented maxima and the character rules. */
const universallyInvalid = (endpoint: Endpoint, name: string, method: Method) =>
  fc.oneof(
    hugeStringFor(endpoint, name, method),
    hugeArray,
    deeplyNested,
    withControlChar(endpoint, name),
    // contacts/import's rows take any array of objects: a bad row (such as {}) is reported in data.errors, not refused as a whole.
    ...(method === 'POST'
      ? [
          fc.constant(null),
          ...(parameterAccepts(endpoint, name, [{}], method) ? [] : [fc.constant([{}])]),
          fc.constant({ nested: { deeper: { deepest: true } } }),
        ]
      : []),
  );

const PHONE_BASES = [
  '14155550100',
  '442079460958',
  '4915112345678',
  '33142685300',
  '5511987654321',
  '819012345678',
  '61412345678',
  '27821234567',
  '919876543210',
];

/** One real number in one of the notations people use, with what it must normalize to (or be refused). */
const phoneInOddFormat = fc.tuple(fc.constantFrom(...PHONE_BASES), fc.nat({ max: 16 })).map(([digits, style]) => {
  const cc = digits.startsWith('1') || digits.startsWith('7') ? digits.slice(0, 1) : digits.slice(0, 2);
  const rest = digits.slice(cc.length);
  const groups = rest.match(/.{1,3}/g)!.join(' ');
  const written = [
    `+${digits}`,
    digits,
    `00${digits}`,
    `+${cc} ${groups}`,
    `+${cc}-${rest.match(/.{1,3}/g)!.join('-')}`,
    `+${cc} (${rest.slice(0, 3)}) ${rest.slice(3)}`,
    `${cc}.${rest.match(/.{1,4}/g)!.join('.')}`,
    `  +${digits}\t`,
    `+ ${digits}`,
    `tel:+${digits}`,
    `+${digits} ext. 12`,
    `++${digits}`,
    `${digits}+`,
    `+${digits}`.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))),
    `+${digits.replace(/0/g, 'O')}`,
    digits.slice(0, 5),
    `+${digits}${digits}`,
  ][style];
  return { written, digits };
});

const oddValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\t',
    '\n',
    'NaN',
    'Infinity',
    '-Infinity',
    '-1',
    '0',
    '1.5',
    '1e3',
    '0x1F',
    '-0',
    '9007199254740993',
    'null',
    'undefined',
    'true',
    'false',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    '<script>alert(1)</script>',
    "' OR '1'='1' --",
    '../../etc/passwd',
    '%00',
    '\u202eevil',
    'zero\u200bwidth',
    '🙂',
    'Ω≈ç√∫',
    'ＡＢＣ',
    '١٢٣',
    'x'.repeat(101),
    'x'.repeat(1_001),
    'a,b,,c',
    'k:v',
    'k:v,k2:v2',
    '#FFF',
    '#GGGGGG',
    'ftp://example.com/x',
    'javascript:alert(1)',
    'http://',
    'a@b',
    'lone\ud800surrogate',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean())),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}') as unknown),
  phoneInOddFormat.map(({ written }) => written),
);

/**
 * Whether the parameter's schema refuses any odd value at all: a filter nothing passes
 * never ends (over GET every value arrives as a string, and chat/media/upload's `data`
 * takes any string; its base64 is checked after the schema).
 */
function refusesSomeOddValue(endpoint: Endpoint, name: string, method: Method): boolean {
  return fc.sample(oddValue, { numRuns: 300, seed: 1 }).some((value) => !parameterAccepts(endpoint, name, value, method));
}

const extraName = (endpoint: Endpoint) =>
  fc
    .oneof(
      fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        'workspaceId',
        'userId',
        'role',
        'channelIds',
        'keyId',
        'principalId',
        'pk',
        'sk',
        'entity',
        'id',
        'createdAt',
        'indexPending',
        'contactCount',
        'isAdmin',
        'toString',
        'hasOwnProperty',
        'valueOf',
      ),
      fc.string({ minLength: 1, maxLength: 12 }),
    )
    .filter((name) => !(name in endpoint.params) && !KEY_NAMES.has(name.toLowerCase()) && !/^body\d+$/i.test(name));

type Mutation = { kind: 'set'; name: string; value: unknown } | { kind: 'remove'; name: string };

function defineOwn(target: Record<string, unknown>, name: string, value: unknown) {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** base ⊕ extras ⊕ mutations, built with own properties only (so `__proto__` is a key, never a prototype). */
function buildParams(endpoint: Endpoint, mutations: Mutation[], extras: Record<string, unknown>) {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(extras)) defineOwn(params, name, value);
  for (const [name, value] of Object.entries(endpoint.base)) defineOwn(params, name, value);
  for (const mutation of mutations) {
    if (mutation.kind === 'remove') delete params[mutation.name];
    else defineOwn(params, mutation.name, mutation.value);
  }
  return params;
}

interface RawRequest {
  body: string;
  contentType?: string;
  /** The parameter the 400 must name. */
  parameter: 'body' | 'Content-Type';
  label: string;
}

/** Whole-request hostility: broken JSON, non-object JSON, wrong Content-Type, bodies above the limit. */
const rawRequest = (endpoint: Endpoint): fc.Arbitrary<RawRequest> => {
  const validBody = JSON.stringify(endpoint.base);
  const notJson = (text: string) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  };
  return fc.oneof(
    fc
      .tuple(
        fc.string({ minLength: 1, maxLength: 60 }).filter((s) => s.trim() !== '' && notJson(s)),
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.api+json', undefined),
      )
      .map(([body, contentType]) => ({ body, contentType, parameter: 'body' as const, label: 'invalid JSON' })),
    fc
      .constantFrom('{', '{"a":', '{"a":1,}', "{'a':1}", '{"a":1}}', '\u0000{}', '{"a":NaN}', '[{"a":1}', 'undefined')
      .map((body) => ({ body, contentType: 'application/json', parameter: 'body' as const, label: 'invalid JSON' })),
    fc
      .jsonValue({ maxDepth: 3 })
      .filter((value) => value === null || typeof value !== 'object' || Array.isArray(value))
      .map((value) => ({ body: JSON.stringify(value), contentType: 'application/json', parameter: 'body' as const, label: 'JSON that is not an object' })),
    fc
      .oneof(
        fc.constantFrom(
          'text/plain',
          'application/xml',
          'text/html',
          'multipart/form-data; boundary=x',
          'application/octet-stream',
          'application/jsonp',
          'text/json',
          'application/javascript',
          'image/png',
          '*/*',
          'json',
        ),
        fc.stringMatching(/^[a-z]{1,10}\/[a-z0-9.+-]{1,14}$/),
      )
      .filter((type) => !JSON_TYPE.test(type) && !FORM_TYPE.test(type))
      .map((contentType) => ({ body: validBody, contentType, parameter: 'Content-Type' as const, label: 'wrong Content-Type' })),
    fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('x', 'é', '🙂')).map(([over, unit]) => ({
      // Characters under the limit but bytes above it, for the multi-byte units.
      body: JSON.stringify({ ...endpoint.base, padding: unit.repeat(Math.ceil((maxBodyBytes(endpoint) + over) / Buffer.byteLength(unit))) }),
      contentType: 'application/json',
      parameter: 'body' as const,
      label: 'body above the size limit',
    })),
    fc
      .string({ maxLength: 30 })
      .map((junk) => `{${junk}`)
      .filter(notJson)
      .map((body) => ({ body, contentType: 'application/x-www-form-urlencoded', parameter: 'body' as const, label: 'invalid JSON labelled as a form' })),
  );
};

// ---- Tests ------------------------------------------------------------------------------

let rejecting: Awaited<ReturnType<typeof createTenant>>;
let tolerating: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  rejecting = await createTenant(1);
  tolerating = await createTenant(1);
});

afterAll(async () => {
  recordFigures('hostile-input', {
    endpoints: endpoints.length,
    endpointPaths: endpoints.map((endpoint) => endpoint.path),
    requestsSent: tally.get('requests'),
    badInputsTried: tally.get('bad inputs'),
    rejectedWith4xx: tally.get('4xx'),
    acceptedOddValues: tally.get('2xx'),
    responses5xx: tally.get('5xx'),
    tableDiffsAfterRejections: tally.get('table diffs'),
    objectInternalNamesTried: tally.get('object-internal names'),
    acknowledgedValuesChecked: tally.get('acknowledged values checked'),
    valuesDroppedAfter200: tally.get('dropped after 200'),
    absurdNumbersTried: tally.get('absurd numbers'),
    signedWebhookDeliveries: tally.get('signed webhook deliveries'),
    listValuesTried: tally.get('list values'),
    reservedReferencesTried: tally.get('reserved references'),
    maxBodyBytes: MAX_BODY_BYTES,
  });
  restoreLimits();
  await store.close();
});

async function send(
  endpoint: Endpoint,
  apiKey: string,
  method: Method,
  request: { params?: Record<string, unknown>; body?: string; headers?: Record<string, string> },
) {
  tally.add('requests');
  const response = await callWithin(callApi, endpoint.handler, { apiKey, method, ...request });
  tally.add(response.status >= 500 ? '5xx' : response.status >= 400 ? '4xx' : '2xx');
  return response;
}

/** The parameter a 400 names; a path into it (`customFieldsData.city`) names the parameter too. An unknown name is named whole (it may hold dots). */
const namedParameter = (response: { body: any }): string | undefined => {
  const parameter = response.body.details?.parameter as string | undefined;
  return response.body.error === 'unknown_parameter' ? parameter : parameter?.split('.')[0];
};

/** The endpoint's body limit: its route row's, else the API's (contacts/import takes 1 MiB). */
const maxBodyBytes = (endpoint: Endpoint) => endpoint.route.maxBodyBytes ?? MAX_BODY_BYTES;

/**
 * The request as callApi would build it from `params`, with a POST's JSON body serialized
 * here once, so that its size (above the endpoint's limit the refusal names `body`) is
 * known without a second pass over a 100 KB or 10,000-entry value.
 */
function asRequest(
  method: Method,
  params: Record<string, unknown>,
): { request: { params?: Record<string, unknown>; body?: string; headers?: Record<string, string> }; bytes: number } {
  if (method === 'GET') return { request: { params }, bytes: 0 };
  const body = JSON.stringify(params);
  return { request: { body, headers: { 'Content-Type': 'application/json' } }, bytes: Buffer.byteLength(body) };
}

async function expectTableUnchanged(before: TableSnapshot) {
  const after = await snapshotTable();
  const diff = snapshotDiff(before, after);
  if (diff.added.length || diff.removed.length) tally.add('table diffs');
  expect(diff, 'table changed after rejected requests').toEqual({ added: [], removed: [] });
}

describe.each(endpoints)('hostile input to $path', (endpoint) => {
  const names = Object.keys(endpoint.params);

  describe.each(METHODS)('%s', (method) => {
    it('refuses every invalid value, missing parameter and broken body with a 4xx naming it, never a 500 or a hang, and writes nothing', async () => {
      // Prepare
      const before = await snapshotTable();
      // Each parameter's invalid values, built once (not per generated value: the odd values it refuses are sampled to build it).
      const invalidOf = new Map(
        names.map((name) => [
          name,
          fc
            .oneof(
              { weight: 2, arbitrary: universallyInvalid(endpoint, name, method) },
              ...(refusesSomeOddValue(endpoint, name, method)
                ? [{ weight: 3, arbitrary: oddValue.filter((value) => !parameterAccepts(endpoint, name, value, method)) }]
                : []),
            )
            .map((value): Mutation => ({ kind: 'set', name, value })),
        ]),
      );
      const invalidSet = names.length ? fc.constantFrom(...names).chain((name) => invalidOf.get(name)!) : undefined;
      const removal = endpoint.required.length ? fc.constantFrom(...endpoint.required).map((name): Mutation => ({ kind: 'remove', name })) : undefined;
      const mutation = [invalidSet, removal].filter((arb): arb is fc.Arbitrary<Mutation> => arb !== undefined);
      const parameterLevel = mutation.length
        ? fc
            .record({
              mutations: fc.array(fc.oneof(...mutation), { minLength: 1, maxLength: 3 }),
              extras: fc.dictionary(extraName(endpoint), oddValue, { maxKeys: 3 }),
            })
            .map((r) => ({ kind: 'params' as const, ...r }))
        : undefined;
      const requestLevel = rawRequest(endpoint).map((raw) => ({ kind: 'raw' as const, raw }));
      const hostile = parameterLevel ? fc.oneof(parameterLevel, requestLevel) : requestLevel;
      // Act + Assess
      await fc.assert(
        fc.asyncProperty(hostile, async (attempt) => {
          let response;
          let named: Set<string>;
          if (attempt.kind === 'raw') {
            tally.add('bad inputs');
            response = await send(endpoint, rejecting.adminKey, method, {
              body: attempt.raw.body,
              headers: attempt.raw.contentType ? { 'Content-Type': attempt.raw.contentType } : {},
            });
            named = new Set([attempt.raw.parameter]);
          } else {
            tally.add('bad inputs', attempt.mutations.length);
            const { request, bytes } = asRequest(method, buildParams(endpoint, attempt.mutations, attempt.extras));
            response = await send(endpoint, rejecting.adminKey, method, request);
            // A name the endpoint does not define is refused too, and before any value is checked.
            named = new Set([...attempt.mutations.map((m) => m.name), ...Object.keys(attempt.extras)]);
            if (bytes > maxBodyBytes(endpoint)) named.add('body');
          }
          expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          expectEnvelope(response);
          expect([...named], `${response.body.message}`).toContain(namedParameter(response));
        }),
        { numRuns: 30 },
      );
      await expectTableUnchanged(before);
    });

    it('answers every odd value (unicode, types, prototype keys, odd phone notations, extra parameters) below 500, naming the parameter when it refuses', async () => {
      // Prepare
      const sets = names.length
        ? fc.array(
            fc.constantFrom(...names).chain((name) => oddValue.map((value): Mutation => ({ kind: 'set', name, value }))),
            { minLength: 1, maxLength: 3 },
          )
        : fc.constant([] as Mutation[]);
      // Act + Assess
      await fc.assert(
        fc.asyncProperty(sets, fc.dictionary(extraName(endpoint), fc.oneof(oddValue, deeplyNested), { maxKeys: 4 }), async (mutations, extras) => {
          tally.add('bad inputs', mutations.length + Object.keys(extras).length);
          const params = buildParams(endpoint, mutations, extras);
          const { request, bytes } = asRequest(method, params);
          if (bytes > maxBodyBytes(endpoint)) return;
          // What counts is each parameter's final value (a later mutation may overwrite an earlier one).
          const refused = new Set([
            ...mutations.map((m) => m.name).filter((name) => !parameterAccepts(endpoint, name, params[name], method)),
            ...Object.keys(extras),
          ]);
          const response = await send(endpoint, tolerating.adminKey, method, request);
          expectNoServerError(response, JSON.stringify(response.body), { acceptedWhole: refused.size === 0 });
          expectEnvelope(response);
          if (refused.size) {
            expect(response.status).toBe(400);
            expect([...refused], `${response.body.message}`).toContain(namedParameter(response));
          }
        }),
        { numRuns: 15 },
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  it.each(METHODS)('refuses a 100 KB string, a 10,000-entry array, deep nesting and control characters in every parameter (%s)', async (method) => {
    // Prepare
    const before = await snapshotTable();
    // Every control character is tried by the properties above; here one of each kind (NUL, BEL, ESC, DEL).
    const samples = (name: string) => [
      'x'.repeat(tooLongLength(endpoint, name, method)),
      Array.from({ length: 10_000 }, (_, i) => `v${i % 10}`),
      nested(2_000, true),
      ...['\u0000', '\u0007', '\u001b', '\u007f'].map((char, i) => insertControlChar(endpoint, name, i, char)),
    ];
    // Act + Assess
    for (const name of names) {
      for (const value of samples(name)) {
        tally.add('bad inputs');
        const { request, bytes } = asRequest(method, buildParams(endpoint, [{ kind: 'set', name, value }], {}));
        const response = await send(endpoint, rejecting.adminKey, method, request);
        const expected = bytes > maxBodyBytes(endpoint) ? 'body' : name;
        // The value's start names it in a failure (a whole 100 KB or 2,000-deep value is serialized for no one).
        const shown = `${name}=${Array.isArray(value) ? `[${String(value.slice(0, 3))}, …]` : String(value).slice(0, 40)}`;
        expect(response.status, `${shown}: ${JSON.stringify(response.body)}`).toBe(400);
        expectEnvelope(response);
        expect(namedParameter(response), `${shown}: ${response.body.message}`).toBe(expected);
      }
    }
    await expectTableUnchanged(before);
  });

  it('refuses parameters it does not define (unknown_parameter, naming one of them) and never stores them', async () => {
    // Prepare
    const marker = unique('extra_');
    const forged = [
      'workspaceId',
      'userId',
      'keyId',
      'role',
      'channelIds',
      'id',
      'pk',
      'sk',
      'entity',
      'createdAt',
      'indexPending',
      'contactCount',
      'revoked',
      'isAdmin',
      'constructor',
      'prototype',
      '__proto__',
      marker,
    ];
    const extras: Record<string, unknown> = {};
    for (const name of forged.filter((name) => !(name in endpoint.params))) defineOwn(extras, name, `${marker}-${name}`);
    // Act
    const responses = [];
    for (const method of METHODS) {
      tally.add('bad inputs', Object.keys(extras).length);
      responses.push(await send(endpoint, tolerating.adminKey, method, { params: buildParams(endpoint, [], extras) }));
    }
    const stored = JSON.stringify(await scanRaw());
    // Assess
    for (const response of responses) {
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expectEnvelope(response);
      expect(response.body.error).toBe('unknown_parameter');
      expect(Object.keys(extras)).toContain(namedParameter(response));
    }
    expect(stored).not.toContain(marker);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('documented clamps and number rules', () => {
  const list = endpoints.find((endpoint) => endpoint.path === 'contacts/list')!;

  it('clamps a contacts/list limit above 200 to 200, GET and POST alike, and keeps 1–200 as given', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        fc.oneof(fc.integer({ min: 201, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 1, max: 200 })),
        async (method, limit) => {
          tally.add('bad inputs');
          const response = await send(list, rejecting.adminKey, method, { params: { limit: method === 'GET' ? String(limit) : limit } });
          expect(response.status, JSON.stringify(response.body)).toBe(200);
          expect(response.body.pagination.limit).toBe(Math.min(limit, 200));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('refuses NaN, negative, zero and non-integer page and limit with a 400 naming them', async () => {
    const before = await snapshotTable();
    const bad = fc.oneof(
      fc.constantFrom('NaN', 'Infinity', '-Infinity', '0', '-0', '', ' ', '1.5', '2.0000001', '1e2', '0x10', 'one', '[]', '{}', 'null', '١٢'),
      fc.integer({ max: 0 }),
      fc.double({ noInteger: true }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), fc.constantFrom('page', 'limit'), bad, async (method, name, value) => {
        tally.add('bad inputs');
        const response = await send(list, rejecting.adminKey, method, { params: { [name]: method === 'GET' ? String(value) : value } });
        expect(response.status, `${name}=${String(value)}: ${JSON.stringify(response.body)}`).toBe(400);
        expect(response.body.details.parameter).toBe(name);
      }),
      { numRuns: 50 },
    );
    await expectTableUnchanged(before);
  });
});

describe('phone numbers in every odd notation', () => {
  const phoneParams = endpoints.flatMap((endpoint) =>
    Object.keys(endpoint.params)
      .filter(
        (name) =>
          parameterAccepts(endpoint, name, '+1 (415) 555-0100', 'POST') &&
          !parameterAccepts(endpoint, name, 'probe_1', 'POST') &&
          !parameterAccepts(endpoint, name, 'https://example.com/probe.png', 'POST'),
      )
      .map((name) => ({ endpoint, name })),
  );

  it('finds the phone parameters of the route table', () => {
    expect(phoneParams.map(({ endpoint, name }) => `${endpoint.path}:${name}`)).toContain('contacts/manage:phoneNumber');
  });

  it.each(phoneParams.map(({ endpoint, name }) => [`${endpoint.path} ${name}`, endpoint, name] as const))(
    '%s: normalizes to the one right number or refuses naming it; never another number',
    async (_label, endpoint, name) => {
      const tenant = await createTenant(1);
      const outcomes = new Map<string, string>();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...METHODS), phoneInOddFormat, fc.boolean(), async (method, { written, digits }, asNumber) => {
          tally.add('bad inputs');
          const value = asNumber && /^\d+$/.test(written) ? Number(written) : written;
          const response = await send(endpoint, tenant.adminKey, method, { params: { ...endpoint.base, [name]: value } });
          expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
          expectEnvelope(response);
          if (response.status === 400 && ['invalid_parameter', 'missing_parameter'].includes(response.body.error) && namedParameter(response) === name) return;
          // Accepted: whatever the answer, the number it worked on is the real one.
          const echoed = response.body.data?.phone ?? response.body.data?.to;
          if (echoed !== undefined) expect(echoed, `${JSON.stringify(written)} became ${echoed}`).toBe(digits);
          outcomes.set(String(written), digits);
        }),
        { numRuns: 30 },
      );
      const report = await checkInvariants({ workspaceId: tenant.workspaceId });
      expect(report.violations).toEqual([]);
      expect(report.contacts).toBeLessThanOrEqual(new Set(outcomes.values()).size);
    },
  );
});

describe('custom field values', () => {
  it('refuses control characters in custom field values, as in every other parameter', async () => {
    // Prepare
    const manageField = endpoints.find((endpoint) => endpoint.path === 'custom-fields/manage')!;
    const manageContact = endpoints.find((endpoint) => endpoint.path === 'contacts/manage')!;
    const tenant = await createTenant(1);
    await send(manageField, tenant.adminKey, 'POST', { params: { name: 'city' } });
    const before = await snapshotTable();
    // Act
    const responses = [];
    for (const method of METHODS) {
      for (const char of CONTROL_CHARS) {
        tally.add('bad inputs');
        responses.push(
          await send(manageContact, tenant.adminKey, method, {
            params: { phoneNumber: '+14155550100', customFieldsData: method === 'GET' ? `city:Par${char}is` : { city: `Par${char}is` } },
          }),
        );
      }
    }
    // Assess
    for (const response of responses) {
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(namedParameter(response)).toBe('customFieldsData');
    }
    await expectTableUnchanged(before);
  });
});

// ---- Object internals, absurd numbers, list values, reserved prefixes ---------------------

/** Names that are members of every plain JavaScript object. */
const INTERNAL_NAMES = ['__proto__', 'constructor', 'prototype', 'valueOf', 'toString', 'hasOwnProperty'];
const endpointAt = (path: string) => endpoints.find((endpoint) => endpoint.path === path)!;
const ownObject = (entries: Array<[string, unknown]>) => {
  const target: Record<string, unknown> = {};
  for (const [name, value] of entries) defineOwn(target, name, value);
  return target;
};
let phoneCounter = 0;
const nextPhone = () => `1415555${String(1000 + (phoneCounter++ % 9000)).padStart(4, '0')}`;

describe('object internals as names: stored like any name or refused, never dropped after a 200', () => {
  it('defines custom fields and labels named after object internals (or refuses a field naming name), and a 200 from contacts/manage keeps every value it was sent', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const channelId = tenant.channelIds[0];
    const refusedFields = new Set<string>();
    for (const name of INTERNAL_NAMES) {
      for (const method of METHODS) {
        tally.add('object-internal names', 2);
        const field = await send(endpointAt('custom-fields/manage'), tenant.adminKey, method, { params: { name } });
        const label = await send(endpointAt('labels/manage'), tenant.adminKey, method, { params: { name } });
        expect(field.status, JSON.stringify(field.body)).toBeLessThan(500);
        expectEnvelope(field);
        if (field.status !== 200) {
          expect(field.status).toBe(400);
          expect(namedParameter(field)).toBe('name');
          refusedFields.add(name);
        }
        expect(label.status, JSON.stringify(label.body)).toBe(200);
      }
    }
    await send(endpointAt('labels/manage'), tenant.adminKey, 'POST', { params: { name: 'Smith, Jr.' } });
    // Act + Assess
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        fc.constantFrom('pairs', 'json'),
        fc.subarray(INTERNAL_NAMES, { minLength: 1 }),
        fc.subarray([...INTERNAL_NAMES, 'Smith, Jr.']),
        fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .-]{0,18}[A-Za-z0-9]$/),
        async (method, getForm, keys, labelNames, value) => {
          tally.add('object-internal names', keys.length + labelNames.length);
          const customFieldsData = ownObject(keys.map((key) => [key, value]));
          const phone = nextPhone();
          const params =
            method === 'POST'
              ? { phoneNumber: `+${phone}`, customFieldsData, labelNames }
              : {
                  phoneNumber: phone,
                  customFieldsData: getForm === 'json' ? JSON.stringify(customFieldsData) : keys.map((key) => `${key}:${value}`).join(','),
                  labelNames: JSON.stringify(labelNames),
                };
          const response = await send(endpointAt('contacts/manage'), tenant.adminKey, method, { params });
          expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
          expectEnvelope(response);
          if (response.status === 200) {
            tally.add('acknowledged values checked', keys.length + labelNames.length);
            const dropped = await checkNothingDropped({ workspaceId: tenant.workspaceId, channelId, phone, sent: { customFieldsData, labelNames } });
            if (dropped.length) tally.add('dropped after 200', dropped.length);
            expect(dropped).toEqual([]);
          } else {
            // Only a name that cannot be stored is refused, and the refusal names customFieldsData.
            expect(response.status).toBe(400);
            expect(namedParameter(response)).toBe('customFieldsData');
            expect(
              keys.some((key) => refusedFields.has(key)),
              response.body.message,
            ).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
    const report = await checkInvariants({ workspaceId: tenant.workspaceId });
    expect(report.violations).toEqual([]);
  });

  it.each(endpoints)('$path: object-internal parameter names in the query string, headers, a form body and a JSON body never answer 5xx', async (endpoint) => {
    // Prepare
    const base = asQueryString(endpoint.base);
    // Act + Assess
    for (const name of INTERNAL_NAMES) {
      tally.add('object-internal names', 4);
      const requests = [
        send(endpoint, tolerating.adminKey, 'GET', { params: ownObject([...Object.entries(base), [name, 'x']]) }),
        send(endpoint, tolerating.adminKey, 'POST', { params: ownObject([...Object.entries(endpoint.base), [name, 'x']]) }),
        send(endpoint, tolerating.adminKey, 'POST', {
          body: new URLSearchParams([...Object.entries(base), [name, 'x']]).toString(),
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
        send(endpoint, tolerating.adminKey, 'GET', { params: endpoint.base, headers: ownObject([[name, 'x']]) as Record<string, string> }),
      ];
      for (const [i, response] of (await Promise.all(requests)).entries()) {
        // The header is no parameter: that request is the valid base request.
        expectNoServerError(response, `${name}: ${JSON.stringify(response.body)}`, { acceptedWhole: i === requests.length - 1 });
        expectEnvelope(response);
      }
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('absurd numbers', () => {
  const ABSURD = [
    '9'.repeat(400),
    '1e308',
    '-1e308',
    '9007199254740993',
    '18446744073709551616',
    '-0',
    '0x7fffffff',
    'Infinity',
    1e308,
    -1e308,
    Number.MAX_VALUE,
    2 ** 53 + 2,
    -(2 ** 63),
  ];

  it.each([
    ['contacts/list', 'page'],
    ['contacts/list', 'limit'],
    ['labels/manage', 'displayOrder'],
  ])('%s %s: boundary and absurd numbers are a clamp or a 400 naming it, never a 5xx', async (path, name) => {
    // Prepare
    const endpoint = endpointAt(path);
    const before = await snapshotTable();
    // Act + Assess
    for (const method of METHODS) {
      for (const value of ABSURD) {
        tally.add('absurd numbers');
        const response = await send(endpoint, rejecting.adminKey, method, { params: { ...endpoint.base, [name]: method === 'GET' ? String(value) : value } });
        expect(response.status, `${name}=${String(value)}: ${JSON.stringify(response.body)}`).toBeLessThan(500);
        expectEnvelope(response);
        if (response.status !== 200) {
          expect(response.status).toBe(400);
          expect(namedParameter(response)).toBe(name);
        } else expect(response.body.pagination?.limit ?? 200).toBeLessThanOrEqual(200);
      }
    }
    if (path !== 'labels/manage') await expectTableUnchanged(before);
  });

  it('acknowledges signed webhook deliveries with absurd timestamps, error codes and ids, and chat/message/status keeps answering', async () => {
    // Prepare: a message of the tenant's channel, as a send leaves it
    const tenant = await createTenant(1);
    const channel = (await getChannel({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }))!;
    const chatmid = `wamid.hostile${Date.now()}`;
    await attachChatmid({
      chatmid,
      workspaceId: tenant.workspaceId,
      channelId: channel.id,
      messageId: 'msg_hostile',
      direction: 'outbound',
      type: 'text',
      content: { body: 'x' },
      phone: '14155550100',
      at: Date.now(),
      phoneNumberId: channel.phoneNumberId,
    });
    const timestamp = fc.oneof(
      fc.constantFrom(
        '9000000000000',
        '99999999999999',
        '0',
        '-1',
        '1e3',
        '',
        ' ',
        'NaN',
        '1700000000.5',
        1e300,
        -5,
        1.5,
        Number.MAX_SAFE_INTEGER,
        2 ** 53 + 2,
        null,
        {},
        [],
      ),
      fc.stringMatching(/^\d{1,40}$/),
      fc.double(),
    );
    const code = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1e300, -1e300, 2 ** 53 + 2, '131026', null));
    const id = fc.oneof(fc.constant(chatmid), fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('x'.repeat(3_000), `wamid.${'y'.repeat(600)}`));
    // Act + Assess
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('sent', 'delivered', 'read', 'failed'),
        timestamp,
        code,
        id,
        fc.boolean(),
        async (status, ts, errorCode, statusId, inbound) => {
          tally.add('signed webhook deliveries');
          tally.add('absurd numbers');
          const value = inbound
            ? {
                contacts: [{ profile: { name: 'Odd' }, wa_id: '14155550100' }],
                messages: [{ from: '14155550100', id: statusId === chatmid ? `${chatmid}.in` : statusId, timestamp: ts, type: 'text', text: { body: 'hi' } }],
              }
            : { statuses: [{ id: statusId, status, timestamp: ts, recipient_id: '14155550100', errors: [{ code: errorCode, title: 'Odd' }] }] };
          const raw = JSON.stringify({
            object: 'whatsapp_business_account',
            entry: [
              {
                id: 'waba',
                changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: channel.phoneNumberId }, ...value } }],
              },
            ],
          });
          const event = restProxyEvent({
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signPayload(raw, process.env.WHATSAPP_APP_SECRET!) },
            body: raw,
            requestId: 'hostile',
            stage: 'test',
            path: '/webhooks/whatsapp',
          });
          const result = await webhook(event);
          expect(result.statusCode, `${JSON.stringify(ts)} ${JSON.stringify(errorCode)}`).toBe(200);
          const read = await send(endpointAt('chat/message/status'), tenant.adminKey, 'GET', { params: { chatmid } });
          expect(read.status, JSON.stringify(read.body)).toBe(200);
          for (const at of [read.body.data.timestamp, read.body.data.deliveredAt, read.body.data.readAt])
            if (at !== null) expect(Number.isNaN(Date.parse(at))).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('list values with commas, newlines and runs of spaces', () => {
  it('refuses template variables and headers with newlines, tabs or more than four spaces with a 400 naming them; commas inside a JSON array never split a value', async () => {
    // Prepare
    const endpoint = endpointAt('chat/templates/send');
    const before = await snapshotTable();
    const bad = fc
      .tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\t', '     ', '        '), fc.string({ maxLength: 8 }))
      .map(([a, gap, b]) => `x${a}${gap}${b}x`);
    // Act + Assess
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), fc.constantFrom('variables', 'body1', 'header'), bad, async (method, name, value) => {
        tally.add('list values');
        const params: Record<string, unknown> = { ...endpoint.base, templateName: 'order_update' };
        if (name === 'variables') params.variables = method === 'GET' ? JSON.stringify(['ok', value]) : ['ok', value];
        else params[name] = value;
        const response = await send(endpoint, rejecting.adminKey, method, { params });
        expect(response.status, JSON.stringify(response.body)).toBe(400);
        expect(namedParameter(response)).toBe(name);
      }),
      { numRuns: 40 },
    );
    for (const method of METHODS) {
      tally.add('list values');
      const variables = ['Smith, Jr.', 'A-1, A-2'];
      const response = await send(endpoint, rejecting.adminKey, method, {
        params: { ...endpoint.base, templateName: 'order_update', variables: method === 'GET' ? JSON.stringify(variables) : variables },
      });
      // No template is stored in this file's store: the lookup answers, never a count error from a split value.
      expect(response.status, JSON.stringify(response.body)).toBe(404);
    }
    await expectTableUnchanged(before);
  });
});

describe('reserved apiReference prefix', () => {
  it.each(['chat/templates/send', 'chat/message/send'])(
    '%s refuses an apiReference in the automations namespace with a 400 naming it, and writes nothing',
    async (path) => {
      // Prepare
      const endpoint = endpointAt(path);
      const before = await snapshotTable();
      // Act + Assess
      for (const method of METHODS) {
        for (const reference of ['automation:ex_0123456789abcdef:0', ' automation:ex_x:1', 'automation:']) {
          tally.add('reserved references');
          const response = await send(endpoint, rejecting.adminKey, method, { params: { ...endpoint.base, apiReference: reference } });
          expect(response.status, JSON.stringify(response.body)).toBe(400);
          expect(namedParameter(response)).toBe('apiReference');
        }
      }
      await expectTableUnchanged(before);
    },
  );
});
