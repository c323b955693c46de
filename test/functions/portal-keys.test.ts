/**
 * The portal API's functions against dynalite, each called as API Gateway calls it behind
 * the Cognito authorizer (the verified ID token's claims in requestContext.authorizer),
 * and the keys they make used through the real API-key authorizer. The usage and request
 * log are read from the API's own log lines, captured from a real call and written where
 * the local stack writes them (DATA_DIR/logs/service.log).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { handler as channelsList } from '../../functions/channels-list';
import { handler as labelsList } from '../../functions/labels-list';
import { handler as keysCreate } from '../../functions/portal-keys-create';
import { handler as keysList } from '../../functions/portal-keys-list';
import { handler as keysRevoke } from '../../functions/portal-keys-revoke';
import { handler as keysRotate } from '../../functions/portal-keys-rotate';
import { handler as requests } from '../../functions/portal-requests';
import { handler as usage } from '../../functions/portal-usage';
import { clearKeyCache } from '../../shared/auth/authorize';
import { clock } from '../../shared/clock';
import { DEFAULT_RATE_LIMITS } from '../../shared/config';
import { countRequest } from '../../shared/data/rate-limits';
import { db } from '../../shared/data/client';
import { listPortalAudit } from '../../shared/data/portal-audit';
import { LATEST_REQUESTS } from '../../shared/domain/portal-keys';
import { callApi } from '../support/api';
import { callPortal as portal, type PortalUser } from '../support/portal';
import { stdoutLinesDuring } from '../support/log-capture';
import { scanRaw, snapshotDiff, snapshotTable } from '../support/table';
import { createTeamKey, createTenant, type TestTenant } from '../support/tenants';

/** 12:00:30: mid-window, so a frozen clock never straddles a minute boundary. */
const MID_WINDOW = Date.UTC(2026, 5, 1, 12, 0, 30);

let acme: TestTenant;
let globex: TestTenant;
let admin: PortalUser;
let team: PortalUser;
let viewer: PortalUser;
let stranger: PortalUser;
let dataDir: string;
const previousDataDir = process.env.DATA_DIR;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'portal-keys-'));
  process.env.DATA_DIR = dataDir;
  acme = await createTenant();
  globex = await createTenant();
  const teamUser = await createTeamKey(acme, acme.channelIds);
  admin = { email: 'admin@acme.test', workspaceId: acme.workspaceId, apiUserId: acme.adminUserId, role: 'admin', permissions: ['settings:api'] };
  team = { email: 'team@acme.test', workspaceId: acme.workspaceId, apiUserId: teamUser.userId, role: 'team', permissions: ['settings:api'] };
  viewer = { ...team, email: 'viewer@acme.test', permissions: [] };
  stranger = { email: 'admin@globex.test', workspaceId: globex.workspaceId, apiUserId: globex.adminUserId, role: 'admin', permissions: ['settings:api'] };
});

afterAll(async () => {
  if (previousDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = previousDataDir;
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs API calls with the request log on, and appends their log lines where the local stack keeps them. */
async function loggedCalls(run: () => Promise<void>): Promise<void> {
  const level = process.env.POWERTOOLS_LOG_LEVEL;
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  try {
    const lines = await stdoutLinesDuring(run);
    await mkdir(join(dataDir, 'logs'), { recursive: true });
    await writeFile(join(dataDir, 'logs', 'service.log'), `${lines.join('\n')}\n`, { flag: 'a' });
  } finally {
    process.env.POWERTOOLS_LOG_LEVEL = level;
  }
}

describe('portal keys', () => {
  it('creates a key shown once, which works on the API at once as its user, and is listed without its secret', async () => {
    // Act
    const created = await portal(keysCreate, admin, { name: 'CRM sync' }, 'POST');
    const used = await callApi(channelsList, { apiKey: created.body.apiKey, method: 'GET' });
    const listed = await portal(keysList, admin);
    const stored = JSON.stringify(await scanRaw());

    // Assess
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      keyId: expect.stringMatching(/^key_/),
      apiKey: expect.stringMatching(/^wsk_/),
      name: 'CRM sync',
      prefix: created.body.apiKey.slice(0, 8),
      createdAt: expect.any(String),
      expiresAt: null,
    });
    expect(used.status).toBe(200);
    expect(used.body.data.map((channel: { id: string }) => channel.id)).toEqual(acme.channelIds);
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual({
      keyId: created.body.keyId,
      name: 'CRM sync',
      prefix: created.body.prefix,
      createdAt: created.body.createdAt,
      lastUsedAt: null,
      expiresAt: null,
      status: 'active',
    });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.apiKey);
    expect(stored).not.toContain(created.body.apiKey);
  });

  it("makes a team user's key see the channels assigned to that user, and no other", async () => {
    // Arrange: a team user of a two-channel workspace, assigned the second channel only
    const tenant = await createTenant(2);
    const assigned = await createTeamKey(tenant, [tenant.channelIds[1]]);
    const user: PortalUser = { ...team, workspaceId: tenant.workspaceId, apiUserId: assigned.userId };

    // Act
    const created = await portal(keysCreate, user, { name: 'team script' }, 'POST');
    const listed = await callApi(channelsList, { apiKey: created.body.apiKey, method: 'GET' });
    const other = await callApi(labelsList, { apiKey: created.body.apiKey, method: 'GET', params: { channelId: tenant.channelIds[0] } });
    const own = await callApi(labelsList, { apiKey: created.body.apiKey, method: 'GET', params: { channelId: tenant.channelIds[1] } });

    // Assess
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((channel: { id: string }) => channel.id)).toEqual([tenant.channelIds[1]]);
    expect(own.status).toBe(200);
    expect([other.status, other.body.error]).toEqual([403, 'forbidden']);
  });

  it('refuses an expiry that is not a future IS 8601 time, naming expiresAt, and writes nothing', async () => {
    // Arrange
    const before = await snapshotTable({}, { workspaceId: acme.workspaceId });

    // Act
    const past = await portal(keysCreate, admin, { name: 'old', expiresAt: '2001-01-01T00:00:00Z' }, 'POST');
    const garbled = await portal(keysCreate, admin, { name: 'old', expiresAt: 'next tuesday' }, 'POST');
    const unnamed = await portal(keysCreate, admin, {}, 'POST');
    const after = await snapshotTable({}, { workspaceId: acme.workspaceId });

    // Assess
    expect([past.status, past.body.details.parameter]).toEqual([400, 'expiresAt']);
    expect([garbled.status, garbled.body.details.parameter]).toEqual([400, 'expiresAt']);
    expect([unnamed.status, unnamed.body.error, unnamed.body.details.parameter]).toEqual([400, 'missing_parameter', 'name']);
    expect(snapshotDiff(before, after)).toEqual({ added: [], removed: [] });
  });

  it('answers 403 naming settings:api to a user without it, before anything is read or written', async () => {
    // Arrange
    const before = await snapshotTable({}, { workspaceId: acme.workspaceId });

    // Act
    const answers = [await portal(keysList, viewer), await portal(keysCreate, viewer, { name: 'x' }, 'POST')];
    const after = await snapshotTable({}, { workspaceId: acme.workspaceId });

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ success: false, error: 'forbidden', message: expect.stringContaining('settings:api') });
    }
    expect(snapshotDiff(before, after)).toEqual({ added: [], removed: [] });
  });

  it('revokes a key: the API refuses it, the list shows it revoked, and the audit says who did it when', async () => {
    // Arrange
    const created = await portal(keysCreate, admin, { name: 'to revoke' }, 'POST');

    // Act
    const revoked = await portal(keysRevoke, admin, { keyId: created.body.keyId }, 'POST');
    clearKeyCache(); // a warm container's lookup cache: the gateway-level test shows the 10 s bound
    const used = await callApi(channelsList, { apiKey: created.body.apiKey, method: 'GET' });
    const listed = await portal(keysList, admin);
    const audit = await listPortalAudit(acme.workspaceId);

    // Assess
    expect([revoked.status, revoked.body]).toEqual([200, { keyId: created.body.keyId, revoked: true }]);
    expect(used.status).toBe(401);
    expect(listed.body.find((key: { keyId: string }) => key.keyId === created.body.keyId).status).toBe('revoked');
    expect(audit.filter((record) => record.keyId === created.body.keyId)).toEqual([
      { action: 'key_created', keyId: created.body.keyId, replacementKeyId: undefined, email: admin.email, userId: admin.apiUserId, at: expect.any(String) },
      { action: 'key_revoked', keyId: created.body.keyId, replacementKeyId: undefined, email: admin.email, userId: admin.apiUserId, at: expect.any(String) },
    ]);
    expect(JSON.stringify(audit)).not.toContain(created.body.apiKey);
  });

  it('rotates a key: a new one with the same name works, the old one stops, and the audit names both', async () => {
    // Arrange
    const old = await portal(keysCreate, team, { name: 'nightly export' }, 'POST');

    // Act
    const rotated = await portal(keysRotate, team, { keyId: old.body.keyId }, 'POST');
    clearKeyCache();
    const withNew = await callApi(channelsList, { apiKey: rotated.body.apiKey, method: 'GET' });
    const withOld = await callApi(channelsList, { apiKey: old.body.apiKey, method: 'GET' });
    const again = await portal(keysRotate, team, { keyId: old.body.keyId }, 'POST');
    const audit = await listPortalAudit(acme.workspaceId);

    // Assess
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ name: 'nightly export', replacedKeyId: old.body.keyId, apiKey: expect.stringMatching(/^wsk_/) });
    expect(withNew.status).toBe(200);
    expect(withOld.status).toBe(401);
    expect([again.status, again.body.error]).toEqual([400, 'key_revoked']);
    expect(audit).toContainEqual(
      expect.objectContaining({ action: 'key_rotated', keyId: old.body.keyId, replacementKeyId: rotated.body.keyId, email: team.email }),
    );
  });

  it("shows each user only their own keys: another user's or another workspace's key id is a 404 on every route", async () => {
    // Arrange
    const adminKey = await portal(keysCreate, admin, { name: 'admin only' }, 'POST');

    // Act
    const teamList = await portal(keysList, team);
    const strangerList = await portal(keysList, stranger);
    const refusals = [
      await portal(usage, team, { keyId: adminKey.body.keyId }),
      await portal(requests, team, { keyId: adminKey.body.keyId }),
      await portal(keysRevoke, team, { keyId: adminKey.body.keyId }, 'POST'),
      await portal(keysRotate, stranger, { keyId: adminKey.body.keyId }, 'POST'),
      await portal(usage, stranger, { keyId: adminKey.body.keyId }),
      await portal(requests, stranger, { keyId: 'key_doesnotexist' }),
    ];
    clearKeyCache();
    const stillWorks = await callApi(channelsList, { apiKey: adminKey.body.apiKey, method: 'GET' });

    // Assess
    expect(teamList.body.map((key: { keyId: string }) => key.keyId)).not.toContain(adminKey.body.keyId);
    expect(strangerList.body.map((key: { keyId: string }) => key.keyId)).not.toContain(adminKey.body.keyId);
    for (const refusal of refusals) expect([refusal.status, refusal.body.error]).toEqual([404, 'not_found']);
    expect(stillWorks.status).toBe(200);
  });

  it("reads a key's usage and latest requests from the API's log lines: endpoint, status, error code, latency, no bodies", async () => {
    // Arrange
    const created = await portal(keysCreate, team, { name: 'logged' }, 'POST');
    const apiKey = created.body.apiKey as string;
    await loggedCalls(async () => {
      await callApi(channelsList, { apiKey, method: 'GET' });
      await callApi(channelsList, { apiKey, method: 'GET', params: { channelId: 'ch_not_mine' } });
      await callApi(channelsList, { apiKey: acme.adminKey, method: 'GET' });
    });

    // Act
    const latest = await portal(requests, team, { keyId: created.body.keyId });
    const counted = await portal(usage, team, { keyId: created.body.keyId });
    const listed = await portal(keysList, team);

    // Assess
    expect(latest.status).toBe(200);
    expect(latest.body).toHaveLength(2);
    expect(latest.body.map((request: { status: number }) => request.status).sort()).toEqual([200, 400]);
    for (const request of latest.body) {
      expect(Object.keys(request).sort()).toEqual(expect.arrayContaining(['at', 'endpoint', 'latencyMs', 'method', 'rateClass', 'status']));
      expect(request.endpoint).toBe('channels/list');
      expect(JSON.stringify(request)).not.toContain('ch_not_mine');
    }
    expect(latest.body.find((request: { status: number }) => request.status === 400).error).toEqual(expect.any(String));
    expect(counted.body.last24Hours).toEqual({ requests: 2, throttled: 0, byRateClass: { api_read: 2 } });
    expect(counted.body.last7Days).toEqual(counted.body.last24Hours);
    expect(counted.body.daily).toHaveLength(7);
    expect(counted.body.daily.at(-1).requests).toBe(2);
    expect(listed.body.find((key: { keyId: string }) => key.keyId === created.body.keyId).lastUsedAt).toEqual(latest.body[0].at);
  });

  it("counts each portal call against the signed-in user's API user's per-minute limit, which that user's API keys share: past it, 429 with RateLimit headers, nothing written", async () => {
    // Arrange: a new workspace, the clock mid-window, its admin's api_read window one call short of full and its api_write window full
    const tenant = await createTenant(1);
    clock.freeze(MID_WINDOW);
    onTestFinished(() => clock.reset());
    const user: PortalUser = { ...admin, workspaceId: tenant.workspaceId, apiUserId: tenant.adminUserId };
    const fill = async (rateClass: 'api_read' | 'api_write', times: number) => {
      for (let i = 0; i < times; i++) await countRequest(tenant.workspaceId, tenant.adminUserId, rateClass, DEFAULT_RATE_LIMITS[rateClass], MID_WINDOW);
    };
    await fill('api_read', DEFAULT_RATE_LIMITS.api_read - 1);
    await fill('api_write', DEFAULT_RATE_LIMITS.api_write);

    // Act
    const lastRead = await portal(keysList, user);
    const before = await snapshotTable({}, { workspaceId: tenant.workspaceId });
    const refusedRead = await portal(keysList, user);
    const refusedWrite = await portal(keysCreate, user, { name: 'over the limit' }, 'POST');
    const refusedApi = await callApi(channelsList, { apiKey: tenant.adminKey, method: 'GET' });
    const after = await snapshotTable({}, { workspaceId: tenant.workspaceId });

    // Assess
    expect(lastRead.status).toBe(200);
    expect(lastRead.headers).toMatchObject({ 'RateLimit-Policy': `"api_read";q=${DEFAULT_RATE_LIMITS.api_read};w=60`, 'RateLimit-Remaining': '0' });
    expect([refusedRead.status, refusedRead.body.error]).toEqual([429, 'rate_limited']);
    expect(refusedRead.headers).toMatchObject({ 'Retry-After': '30', RateLimit: '"api_read";r=0;t=30' });
    expect([refusedWrite.status, refusedWrite.body.error]).toEqual([429, 'rate_limited']);
    expect(refusedWrite.headers).toMatchObject({ 'RateLimit-Policy': `"api_write";q=${DEFAULT_RATE_LIMITS.api_write};w=60` });
    expect(refusedApi.status).toBe(429);
    expect(snapshotDiff(before, after)).toEqual({ added: [], removed: [] });
  });

  it("shows a key's last 100 requests only, newest first, of more", async () => {
    // Arrange: a new workspace's admin key makes 101 API calls
    const tenant = await createTenant(1);
    const user: PortalUser = { ...admin, workspaceId: tenant.workspaceId, apiUserId: tenant.adminUserId };
    const created = await portal(keysCreate, user, { name: 'busy' }, 'POST');
    await loggedCalls(async () => {
      for (let i = 0; i <= LATEST_REQUESTS; i++) await callApi(channelsList, { apiKey: created.body.apiKey, method: 'GET' });
    });

    // Act
    const latest = await portal(requests, user, { keyId: created.body.keyId });
    const counted = await portal(usage, user, { keyId: created.body.keyId });

    // Assess
    expect(latest.body).toHaveLength(LATEST_REQUESTS);
    const times = latest.body.map((request: { at: string }) => request.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(counted.body.last24Hours.requests).toBe(LATEST_REQUESTS + 1);
  });

  it("shows a key's 429s: a call past its user's per-minute limit is in its requests as 429 rate_limited and in its usage as throttled", async () => {
    // Arrange: a new workspace's admin makes a key, then fills this minute's api_read window (the clock held within it)
    const tenant = await createTenant(1);
    const user: PortalUser = { ...admin, workspaceId: tenant.workspaceId, apiUserId: tenant.adminUserId };
    const minute = clock.now();
    clock.freeze(minute);
    onTestFinished(() => clock.reset());
    const created = await portal(keysCreate, user, { name: 'throttled' }, 'POST');
    for (let i = 0; i < DEFAULT_RATE_LIMITS.api_read; i++)
      await countRequest(tenant.workspaceId, tenant.adminUserId, 'api_read', DEFAULT_RATE_LIMITS.api_read, minute);
    let refused = 0;
    await loggedCalls(async () => {
      refused = (await callApi(channelsList, { apiKey: created.body.apiKey, method: 'GET' })).status;
    });

    // Act: a minute later, when the portal's own reads have a new window
    clock.freeze(minute + 60_000);
    const latest = await portal(requests, user, { keyId: created.body.keyId });
    const counted = await portal(usage, user, { keyId: created.body.keyId });

    // Assess
    expect(refused).toBe(429);
    expect(latest.body).toEqual([expect.objectContaining({ endpoint: 'channels/list', status: 429, error: 'rate_limited', rateClass: 'api_read' })]);
    expect(counted.body.last24Hours).toEqual({ requests: 1, throttled: 1, byRateClass: { api_read: 1 } });
    expect(counted.body.daily.reduce((sum: number, day: { throttled: number }) => sum + day.throttled, 0)).toBe(1);
  });

  it('adds no table write to an API call: the only write is the rate-limit counter it always made', async () => {
    // Arrange
    const created = await portal(keysCreate, team, { name: 'hot path' }, 'POST');
    const send = vi.spyOn(db, 'send');

    // Act
    await callApi(channelsList, { apiKey: created.body.apiKey, method: 'GET' });
    const writes = send.mock.calls.map(([command]) => command).filter((command) => !/^(Get|Query|BatchGet|Scan)/.test(command.constructor.name));
    send.mockRestore();

    // Assess
    expect(writes.map((command) => [command.constructor.name, (command.input as { Key?: { pk: string } }).Key?.pk.includes('#RL#')])).toEqual([
      ['UpdateCommand', true],
    ]);
  });
});
