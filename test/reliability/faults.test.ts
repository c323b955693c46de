import { BatchGetCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordFigures } from '../support/log-audit';
import type { Endpoint } from '../support/endpoints';
import { usePrivateStore } from '../support/private-store';
import { expectEnvelope, isolateChatNetwork, liftRateLimits, Tally } from './helpers';

/**
 * DynamoDB faults, per call, over every endpoint of the route table: throttling,
 * timeouts and internal errors injected at each DynamoDB call a request makes (the
 * fault-injecting middleware sits inside the SDK's retry loop; aws-sdk-client-mock
 * replaces the client's send). Transient faults are retried away; lasting ones end
 * in a clean 503/500 envelope within the Lambda budget; once the fault clears and
 * the documented repair has run, the table's invariants hold, and the request
 * succeeds when sent again.
 *
 * The file has a store of its own (the invariants are checked over the whole table)
 * and a frozen clock (the authorizer's key cache never expires mid-scenario, so
 * "the k-th DynamoDB call of a request" is the same call every time).
 */

const store = await usePrivateStore();
const restoreLimits = liftRateLimits();
isolateChatNetwork();
const { callApi } = await import('../support/api');
const { createTenant } = await import('../support/tenants');
const { injectFaults, serviceError } = await import('../support/faults');
const { checkInvariants, repairChannel } = await import('../support/invariants');
const { loadEndpoints, parameterAccepts } = await import('../support/endpoints');
const { db, tableName } = await import('../../shared/data/client');
const { clock } = await import('../../shared/clock');
const { contactIndexBucketOf, keys } = await import('../../shared/data/keys');
const { normalizePhone } = await import('../../shared/phone/phone');
type Tenant = Awaited<ReturnType<typeof createTenant>>;

const endpoints = await loadEndpoints();
const tally = new Tally();
const figures: Record<string, unknown> = {};
const LAMBDA_BUDGET_MS = 10_000;

interface FaultKind {
  label: string;
  make: () => Error;
  /** What the caller gets when the fault outlasts the retries. */
  status: 500 | 503;
}

const timeoutError = () =>
  Object.assign(new Error('Socket timed out without establishing a connection within 1000 ms'), { name: 'TimeoutError', $metadata: {} });
const KINDS: FaultKind[] = [
  { label: 'ThrottlingException', make: () => serviceError('ThrottlingException'), status: 503 },
  { label: 'ProvisionedThroughputExceededException', make: () => serviceError('ProvisionedThroughputExceededException'), status: 503 },
  { label: 'TimeoutError', make: timeoutError, status: 503 },
  { label: 'InternalServerError (500)', make: () => serviceError('InternalServerError', 500), status: 503 },
  { label: 'InternalFailure (500)', make: () => serviceError('InternalFailure', 500), status: 500 },
];

/** The client's retry strategy: its quota (token bucket), and the backoff delay it chooses before each retry. */
type RetryStrategy = { capacity: number; computeNextBackoffDelay: (attempt: number) => number };
const retryStrategy = async () => (await (db.config as unknown as { retryStrategy: () => Promise<RetryStrategy> }).retryStrategy()) as RetryStrategy;

/** The client's retry quota (token bucket): refilled before each scenario, as in a container after normal traffic. */
async function refillRetryQuota(): Promise<void> {
  (await retryStrategy()).capacity = 500;
}

/**
 * Fails the `position`-th DynamoDB call of what follows (retries of one call count
 * once), `times` attempts in a row — or, with `onward`, that call and every later one
 * (an outage from there on: what a crash at that call leaves). Position 0 fails
 * nothing and only counts calls.
 */
function faultAt(position: number, kind: FaultKind, times = Number.POSITIVE_INFINITY, onward = false) {
  const ordinals = new WeakMap<object, number>();
  let calls = 0;
  let failed = 0;
  const injected = injectFaults((_command, input) => {
    let ordinal = ordinals.get(input);
    if (ordinal === undefined) {
      ordinal = ++calls;
      ordinals.set(input, ordinal);
    }
    if (position > 0 && (ordinal === position || (onward && ordinal > position)) && failed < times) {
      failed++;
      return kind.make();
    }
    return undefined;
  });
  return { ...injected, calls: () => calls };
}

let tenant: Tenant;
let serial = 0;

/** A request that writes something new each time (fresh phone numbers and names), so every scenario takes the create path. */
function freshRequest(endpoint: Endpoint): Record<string, unknown> {
  serial++;
  const params: Record<string, unknown> = { ...endpoint.base };
  for (const name of endpoint.required) {
    const phone = `+1415556${String(1000 + serial).slice(-4)}`;
    if (parameterAccepts(endpoint, name, phone, 'POST') && !parameterAccepts(endpoint, name, 'probe_1', 'POST')) params[name] = phone;
    else if (parameterAccepts(endpoint, name, `probe_${serial}`, 'POST')) params[name] = `probe_${serial}`;
  }
  return params;
}

async function repairAndCheck() {
  for (const channelId of tenant.channelIds) await repairChannel(channelId);
  return checkInvariants();
}

beforeAll(async () => {
  tenant = await createTenant(1);
  // Definitions every contacts/manage call validates against, and a first contact, so lists have something to read.
  await callApi(endpoints.find((e) => e.path === 'labels/manage')!.handler, { apiKey: tenant.adminKey, params: { name: 'Seed' } });
  await callApi(endpoints.find((e) => e.path === 'contacts/manage')!.handler, {
    apiKey: tenant.adminKey,
    params: { phoneNumber: '+14155550100', labelNames: 'Seed' },
  });
  clock.freeze(Date.now());
});

afterEach(async () => {
  vi.restoreAllMocks();
  await refillRetryQuota();
});

afterAll(async () => {
  clock.reset();
  recordFigures('faults', {
    ...figures,
    requestsSent: tally.get('requests'),
    faultsInjected: tally.get('faults'),
    scenarios: tally.get('scenarios'),
    invariantViolationsAfterRepair: tally.get('violations after repair'),
  });
  restoreLimits();
  await store.close();
});

async function send(endpoint: Endpoint, params: Record<string, unknown>) {
  return sendAs(tenant, endpoint, params);
}

async function sendAs(caller: Tenant, endpoint: Endpoint, params: Record<string, unknown>) {
  tally.add('requests');
  const started = performance.now();
  const response = await callApi(endpoint.handler, { apiKey: caller.adminKey, params });
  return { response, ms: performance.now() - started };
}

describe.each(endpoints)('DynamoDB faults in $path', (endpoint) => {
  it(
    'retries transient faults at every call away, and after a lasting fault or an outage from any call leaves nothing half-written once repaired',
    { timeout: 120_000 },
    async () => {
      // Backoff sleeps are skipped here (Math.random → 0); their worst case has its own test below.
      vi.spyOn(Math, 'random').mockReturnValue(0);
      // Prepare: how many DynamoDB calls a fresh request makes on a warm container (caches filled), and what it answers
      await send(endpoint, freshRequest(endpoint));
      const counter = faultAt(0, KINDS[0]);
      const dry = await send(endpoint, freshRequest(endpoint));
      counter.remove();
      const positions = counter.calls();
      expect(dry.response.status).toBeLessThan(500);
      const perEndpoint = { calls: positions, transientRetried: 0, lasting: 0, needsRepair: [] as number[] };
      for (let position = 1; position <= positions; position++) {
        const kind = KINDS[(position + endpoints.indexOf(endpoint)) % KINDS.length];
        // Act 1: a transient fault (three failed attempts, the fourth succeeds)
        await refillRetryQuota();
        const transient = faultAt(position, kind, 3);
        const retried = await send(endpoint, freshRequest(endpoint));
        transient.remove();
        tally.add('faults', transient.count());
        // Assess 1
        expect(retried.response.status, `${kind.label} at call ${position}: ${JSON.stringify(retried.response.body)}`).toBe(dry.response.status);
        expect(transient.count()).toBe(3);
        perEndpoint.transientRetried++;
        // Act 2: a lasting fault at the same call
        await refillRetryQuota();
        const lasting = faultAt(position, kind);
        const params = freshRequest(endpoint);
        const failed = await send(endpoint, params);
        lasting.remove();
        tally.add('faults', lasting.count());
        tally.add('scenarios');
        // Assess 2: a clean envelope, after four attempts, within the budget
        expect(failed.response.status, `${kind.label} at call ${position}: ${JSON.stringify(failed.response.body)}`).toBe(kind.status);
        expectEnvelope(failed.response);
        expect(failed.response.body.error).toBe(kind.status === 503 ? 'service_unavailable' : 'internal_error');
        if (kind.status === 503) expect(failed.response.headers['Retry-After']).toBe('1');
        expect(JSON.stringify(failed.response.body)).not.toMatch(/arn:aws|secret|Exception|InternalFailure|TimeoutError|Socket/);
        expect(lasting.count()).toBe(4);
        expect(failed.ms).toBeLessThan(LAMBDA_BUDGET_MS);
        // Assess 3: what a crash at this call leaves, then the repair, then the invariants
        const before = await checkInvariants();
        if (before.violations.length) perEndpoint.needsRepair.push(position);
        const after = await repairAndCheck();
        tally.add('violations after repair', after.violations.length);
        expect(after.violations, `after ${kind.label} at call ${position} and the repair`).toEqual([]);
        // Assess 4: the same request, sent again, succeeds and keeps the invariants
        const again = await send(endpoint, params);
        expect(again.response.status, JSON.stringify(again.response.body)).toBe(dry.response.status);
        expect((await checkInvariants()).violations).toEqual([]);
        perEndpoint.lasting++;
        // Act 5: an outage from this call on (every later call fails too, clean-ups included)
        await refillRetryQuota();
        const outage = faultAt(position, kind, Number.POSITIVE_INFINITY, true);
        const outageParams = freshRequest(endpoint);
        const down = await send(endpoint, outageParams);
        outage.remove();
        tally.add('faults', outage.count());
        tally.add('scenarios');
        // Assess 5: the same clean envelope; after the repair, the invariants; then the request succeeds
        expect(down.response.status, `outage from call ${position}: ${JSON.stringify(down.response.body)}`).toBe(kind.status);
        expectEnvelope(down.response);
        if ((await checkInvariants()).violations.length && !perEndpoint.needsRepair.includes(position)) perEndpoint.needsRepair.push(position);
        const repaired = await repairAndCheck();
        tally.add('violations after repair', repaired.violations.length);
        expect(repaired.violations, `after an outage from call ${position} and the repair`).toEqual([]);
        expect((await send(endpoint, outageParams)).response.status).toBe(dry.response.status);
        expect((await checkInvariants()).violations).toEqual([]);
      }
      figures[endpoint.path] = perEndpoint;
    },
  );
});

describe('half-written contacts', () => {
  const manage = () => endpoints.find((e) => e.path === 'contacts/manage')!;

  it('finishes a contact left indexPending on its next touch, and counts one left uncounted on the recount repair', { timeout: 60_000 }, async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    // Prepare: the create path's calls (limiter, definitions, update, put, index, marker, count)
    const counter = faultAt(0, KINDS[0]);
    await send(manage(), freshRequest(manage()));
    counter.remove();
    const calls = counter.calls();
    const outcomes: Record<number, string> = {};
    for (const position of [calls - 2, calls - 1, calls]) {
      const params = freshRequest(manage());
      const fault = faultAt(position, KINDS[2]);
      await send(manage(), params);
      fault.remove();
      const broken = await checkInvariants();
      // Act: the next touch of the same contact
      await send(manage(), params);
      const touched = await checkInvariants();
      outcomes[position] = touched.violations.length ? 'recount' : 'next touch';
      // Assess
      expect(broken.violations.length, `crash at call ${position} leaves a visible half state`).toBeGreaterThan(0);
      if (position < calls) expect(touched.violations).toEqual([]);
      else expect(touched.violations.map((v) => v.check)).toEqual(['contact head count == contact items == index entries']);
      expect((await repairAndCheck()).violations).toEqual([]);
    }
    figures.halfWrittenContacts = { createCalls: calls, healedBy: outcomes };
  });
});

describe('the recount repair rebuilds the contact index', () => {
  const endpoint = (path: string) => endpoints.find((e) => e.path === path)!;
  const bucketSk = (bucket: number) => `CIDX#${bucket.toString(16).padStart(3, '0')}`;
  const pkOf = (own: Tenant) => keys.channelPartition({ workspaceId: own.workspaceId, channelId: own.channelIds[0] });

  async function manage(own: Tenant, phoneNumber: string, name: string) {
    const { response } = await sendAs(own, endpoint('contacts/manage'), { phoneNumber, name });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as { phone: string; name: string };
  }

  async function search(own: Tenant, text: string): Promise<string[]> {
    const { response } = await sendAs(own, endpoint('contacts/list'), { search: text });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body.data as Array<{ phone: string }>).map((contact) => contact.phone);
  }

  /** Every CIDX# item of the channel, read straight from the table. */
  async function indexItems(own: Tenant): Promise<Array<Record<string, string>>> {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pkOf(own), ':prefix': 'CIDX#' },
        ConsistentRead: true,
      }),
    );
    return (result.Items ?? []) as Array<Record<string, string>>;
  }

  const setEntry = (own: Tenant, sk: string, phone: string, name: string) =>
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: pkOf(own), sk },
        UpdateExpression: 'SET #p = :n',
        ExpressionAttributeNames: { '#p': phone },
        ExpressionAttributeValues: { ':n': name },
      }),
    );
  const removeEntry = (own: Tenant, phone: string) =>
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: pkOf(own), sk: bucketSk(contactIndexBucketOf(phone)) },
        UpdateExpression: 'REMOVE #p',
        ExpressionAttributeNames: { '#p': phone },
      }),
    );

  /** Each contact (phone → current name) sits in exactly the bucket contactIndexBucketOf names, lowercased, and no other CIDX item exists. */
  async function expectIndexOf(own: Tenant, contacts: Record<string, string>) {
    const items = await indexItems(own);
    const expectedBuckets = new Set(Object.keys(contacts).map((phone) => bucketSk(contactIndexBucketOf(phone))));
    expect(items.map((item) => item.sk).sort()).toEqual([...expectedBuckets].sort());
    const entries = items.flatMap((item) =>
      Object.entries(item)
        .filter(([key]) => key !== 'pk' && key !== 'sk')
        .map(([phone, name]) => ({ sk: item.sk, phone, name })),
    );
    expect(entries.sort((a, b) => a.phone.localeCompare(b.phone))).toEqual(
      Object.entries(contacts)
        .map(([phone, name]) => ({ sk: bucketSk(contactIndexBucketOf(phone)), phone, name: name.toLowerCase() }))
        .sort((a, b) => a.phone.localeCompare(b.phone)),
    );
  }

  it('migrates old-format buckets, corrects stale names, drops entries without a contact and adds missing contacts, then counts', async () => {
    // Prepare: five contacts through contacts/manage, one renamed
    const own = await createTenant(1);
    const [alice, bob, carol] = [
      await manage(own, '+14155550201', 'Alice'),
      await manage(own, '+14155550202', 'Bob'),
      await manage(own, '+14155550203', 'Carol'),
    ];
    await manage(own, '+14155550204', 'Dave');
    await manage(own, '+14155550205', 'Erin');
    await manage(own, '+14155550202', 'Beatrice');
    const ghost = '19995550100';
    // …then the index corrupted: Alice's entry only in an old 256-bucket item, Beatrice's older name, an entry with no contact, Carol's entry gone
    await removeEntry(own, alice.phone);
    await db.send(new PutCommand({ TableName: tableName(), Item: { pk: pkOf(own), sk: 'CIDX#ab', [alice.phone]: 'alice' } }));
    await setEntry(own, bucketSk(contactIndexBucketOf(bob.phone)), bob.phone, 'bob');
    await setEntry(own, bucketSk(contactIndexBucketOf(ghost)), ghost, 'ghost');
    await removeEntry(own, carol.phone);
    const broken = await checkInvariants({ channelId: own.channelIds[0] });
    const staleHitBefore = await search(own, 'bob');
    // Act
    const contactCount = await repairChannel(own.channelIds[0]);
    // Assess
    expect(broken.violations.length).toBeGreaterThan(0);
    expect(staleHitBefore).toEqual([bob.phone]);
    await expectIndexOf(own, { [alice.phone]: 'Alice', [bob.phone]: 'Beatrice', [carol.phone]: 'Carol', '14155550204': 'Dave', '14155550205': 'Erin' });
    expect(await search(own, 'beatrice')).toEqual([bob.phone]);
    expect(await search(own, 'bob')).toEqual([]);
    expect(await search(own, 'ghost')).toEqual([]);
    expect(await search(own, 'carol')).toEqual([carol.phone]);
    expect(contactCount).toBe(5);
    const page1 = await sendAs(own, endpoint('contacts/list'), {});
    expect(page1.response.body.pagination.total).toBe(5);
    expect((await checkInvariants({ channelId: own.channelIds[0] })).violations).toEqual([]);
  });

  it('keeps a rename and a create that land while their bucket is rewritten', async () => {
    // Prepare: a contact whose bucket the rebuild must rewrite (its entry is missing), and a new number in the same bucket
    const own = await createTenant(1);
    const xavier = await manage(own, '+14155550301', 'Xavier');
    await manage(own, '+14155550302', 'Other');
    await removeEntry(own, xavier.phone);
    const target = bucketSk(contactIndexBucketOf(xavier.phone));
    const newcomer = ['415', '212', '646', '650']
      .flatMap((area) => Array.from({ length: 10_000 }, (_, i) => `+1${area}555${String(i).padStart(4, '0')}`))
      .find((candidate) => {
        const phone = normalizePhone(candidate);
        return phone !== undefined && phone !== xavier.phone && bucketSk(contactIndexBucketOf(phone)) === target;
      })!;
    // …and, just before the rebuild's write of that bucket, Xavier renamed and the newcomer created (each writing its own index entry)
    let fired = false;
    const hook = 'recount-race';
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const item = (args.input as { Item?: Record<string, { S?: string } | string> }).Item;
        const sk = item?.sk && typeof item.sk === 'object' ? item.sk.S : item?.sk;
        if (!fired && context.commandName === 'PutItemCommand' && sk === target) {
          fired = true;
          await manage(own, xavier.phone, 'Xena');
          await manage(own, newcomer, 'Yolanda');
        }
        return next(args);
      },
      { step: 'deserialize', name: hook, priority: 'low' },
    );
    // Act
    let contactCount: number;
    try {
      contactCount = await repairChannel(own.channelIds[0]);
    } finally {
      db.middlewareStack.remove(hook);
    }
    // Assess
    expect(fired).toBe(true);
    await expectIndexOf(own, { [xavier.phone]: 'Xena', '14155550302': 'Other', [normalizePhone(newcomer)!]: 'Yolanda' });
    expect(contactCount).toBe(3);
    expect(await search(own, 'xena')).toEqual([xavier.phone]);
    expect((await checkInvariants({ channelId: own.channelIds[0] })).violations).toEqual([]);
  });
});

describe('backoff, budget and retry quota', () => {
  const channels = () => endpoints.find((e) => e.path === 'channels/list')!;

  it.each(KINDS.filter((kind) => kind.status === 503))('spends at most the worst-case backoff on $label, well inside the Lambda budget', async (kind) => {
    // Prepare: the slowest jitter (every delay at its cap)
    vi.spyOn(Math, 'random').mockReturnValue(0.9999);
    await refillRetryQuota();
    const backoff = vi.spyOn(await retryStrategy(), 'computeNextBackoffDelay');
    const fault = faultAt(1, kind);
    // Act
    const { response, ms } = await send(channels(), {});
    fault.remove();
    tally.add('faults', fault.count());
    // Assess: 4 attempts, 3 delays of at most 100 + 200 + 400 ms, chosen by the client and waited
    // (the bound is on the delays chosen, not on the time taken, which a loaded machine stretches)
    expect(response.status).toBe(503);
    expect(fault.count()).toBe(4);
    const delays = backoff.mock.results.map((result) => result.value as number);
    expect(delays).toHaveLength(3);
    delays.forEach((delay, i) => expect(delay).toBeLessThanOrEqual(100 * 2 ** i));
    expect(ms).toBeGreaterThanOrEqual(650);
    figures.worstCaseFailureMs = Math.max(Number(figures.worstCaseFailureMs ?? 0), Math.round(ms));
  });

  it('stops retrying once the client’s retry quota is spent (no retry storm), still answering a clean 503, and recovers', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    await refillRetryQuota();
    const attempts: number[] = [];
    // Act: a lasting timeout on every call
    for (let i = 0; i < 20; i++) {
      const fault = faultAt(1, KINDS[2]);
      const { response } = await send(channels(), {});
      fault.remove();
      tally.add('faults', fault.count());
      attempts.push(fault.count());
      expect(response.status).toBe(503);
    }
    vi.restoreAllMocks();
    const recovered = await send(channels(), {});
    // Assess
    expect(attempts[0]).toBe(4);
    expect(attempts.at(-1)).toBe(1);
    expect(recovered.response.status).toBe(200);
    figures.retryQuota = { requestsWithRetriesBeforeFailFast: attempts.filter((n) => n > 1).length, attemptsPerRequest: attempts };
  });
});

describe('faults per call with aws-sdk-client-mock', () => {
  it('answers a clean 503 for a timeout at any call of contacts/manage and leaves the table consistent after the repair', async () => {
    // Prepare: the mock forwards every command to the store, except the one it fails
    const endpoint = endpoints.find((e) => e.path === 'contacts/manage')!;
    const real = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: store.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    const commands = [GetCommand, PutCommand, UpdateCommand, QueryCommand, BatchGetCommand, DeleteCommand] as const;
    const run = async (failAt: number) => {
      let calls = 0;
      const mock = mockClient(db);
      for (const Command of commands) {
        const Forwarded = Command as unknown as new (input: unknown) => Parameters<typeof real.send>[0];
        mock.on(Command as never).callsFake(async (input: unknown) => {
          calls++;
          if (calls === failAt) throw timeoutError();
          return real.send(new Forwarded(input));
        });
      }
      try {
        const { response } = await send(endpoint, freshRequest(endpoint));
        return { response, calls };
      } finally {
        mock.restore();
      }
    };
    const { calls } = await run(0);
    // Act + Assess
    for (let position = 1; position <= calls; position++) {
      const { response } = await run(position);
      tally.add('faults');
      tally.add('scenarios');
      expect(response.status).toBe(503);
      expectEnvelope(response);
      const after = await repairAndCheck();
      tally.add('violations after repair', after.violations.length);
      expect(after.violations).toEqual([]);
    }
    figures.clientMock = { endpoint: endpoint.path, calls };
  });
});
