import { afterEach, describe, expect, it } from 'vitest';
import { handler as listChannels } from '../../functions/channels-list';
import { handler as importContacts } from '../../functions/contacts-import';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as listTemplates } from '../../functions/chat-templates-list';
import { handler as listCustomFields } from '../../functions/custom-fields-list';
import { handler as listLabels } from '../../functions/labels-list';
import { handler as manageLabel } from '../../functions/labels-manage';
import { clock } from '../../shared/clock';
import { DEFAULT_RATE_LIMITS } from '../../shared/config';
import { countRequest } from '../../shared/data/rate-limits';
import { callApi } from '../support/api';
import { createTeamKey, createTenant } from '../support/tenants';

/** 12:00:30 — mid-window, so a frozen clock never straddles a minute boundary. */
const MID_WINDOW = Date.UTC(2026, 5, 1, 12, 0, 30);

async function callTimes(times: number, call: () => Promise<{ status: number }>) {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await call()).status);
  return statuses;
}

/** One api_read request (channels/list). */
const readChannels = (apiKey: string) => callApi(listChannels, { apiKey });

/** One api_write request (the same label upserted again). */
const writeRequest = (apiKey: string) => callApi(manageLabel, { apiKey, params: { name: 'counted' } });

/**
 * Counts `times` requests of the class in the admin user's window at MID_WINDOW as the
 * limiter does (its one conditional update), without running a handler for each: a test
 * fills the window this way to a few requests short of the limit, then sends the last few,
 * and the one the limit refuses, through the handlers.
 */
async function fillWindow(tenant: { workspaceId: string; adminUserId: string }, rateClass: keyof typeof DEFAULT_RATE_LIMITS, times: number) {
  for (let i = 0; i < times; i++) await countRequest(tenant.workspaceId, tenant.adminUserId, rateClass, DEFAULT_RATE_LIMITS[rateClass], MID_WINDOW);
}

/** A new tenant, with the clock frozen mid-window. */
async function tenantMidWindow() {
  const tenant = await createTenant(1);
  clock.freeze(MID_WINDOW);
  return tenant;
}

describe('per-user rate limits', () => {
  afterEach(() => clock.reset());

  it('lets exactly 120 api_read requests through in a minute and refuses the 121st with Retry-After', async () => {
    // Prepare
    const tenant = await tenantMidWindow();
    // Act
    const statuses = await callTimes(120, () => readChannels(tenant.adminKey));
    const refused = await readChannels(tenant.adminKey);
    // Assess
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: 'rate_limited' });
    expect(refused.headers).toMatchObject({
      'Retry-After': '30',
      'RateLimit-Policy': '"api_read";q=120;w=60',
      RateLimit: '"api_read";r=0;t=30',
      'RateLimit-Remaining': '0',
    });
  });

  it('lets exactly 300 api_write requests through, the default of the write class', async () => {
    // Prepare
    const tenant = await tenantMidWindow();
    // Exactly the limit through, one count per request, is the api_read test's claim; this one's is the write class's limit.
    await fillWindow(tenant, 'api_write', DEFAULT_RATE_LIMITS.api_write - 10);
    // Act
    const statuses = await callTimes(10, () => writeRequest(tenant.adminKey));
    const refused = await writeRequest(tenant.adminKey);
    // Assess
    expect(DEFAULT_RATE_LIMITS.api_write).toBe(300);
    expect(statuses).toEqual(Array(10).fill(200));
    expect(refused.status).toBe(429);
    expect(refused.headers['RateLimit-Limit']).toBe('300');
  });

  it('counts every */list as a read: custom-fields/list and chat/templates/list like labels/list', async () => {
    // Prepare
    const tenant = await tenantMidWindow();
    // Act
    const policies = [];
    for (const list of [listLabels, listCustomFields, listTemplates])
      policies.push((await callApi(list, { apiKey: tenant.adminKey })).headers['RateLimit-Policy']);
    // Assess
    expect(policies).toEqual(Array(3).fill(`"api_read";q=${DEFAULT_RATE_LIMITS.api_read};w=60`));
  });

  it('counts api_automation_trigger at 20 a minute', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const results = [];
    for (let i = 0; i < 21; i++)
      results.push(
        await countRequest(tenant.workspaceId, tenant.adminUserId, 'api_automation_trigger', DEFAULT_RATE_LIMITS.api_automation_trigger, MID_WINDOW),
      );
    // Assess
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
    expect(results[20].allowed).toBe(false);
    expect(results[19].count).toBe(20);
  });

  it('counts contacts/import in its own class api_import, 10 a minute, apart from api_write', async () => {
    // Prepare
    const tenant = await tenantMidWindow();
    const importOne = (i: number) => callApi(importContacts, { apiKey: tenant.adminKey, params: { contacts: [{ phoneNumber: `+1415555${7000 + i}` }] } });
    // Act
    const statuses = [];
    for (let i = 0; i < DEFAULT_RATE_LIMITS.api_import; i++) statuses.push((await importOne(i)).status);
    const refused = await importOne(99);
    const write = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155557100' } });
    // Assess
    expect(DEFAULT_RATE_LIMITS.api_import).toBe(10);
    expect(statuses).toEqual(Array(10).fill(200));
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ 'RateLimit-Policy': '"api_import";q=10;w=60', RateLimit: '"api_import";r=0;t=30' });
    expect(write.status).toBe(200);
    expect(write.headers['RateLimit-Policy']).toBe('"api_write";q=300;w=60');
    expect(write.headers['RateLimit-Remaining']).toBe('299');
  });

  it('carries the remaining count on successful responses', async () => {
    // Prepare
    const tenant = await tenantMidWindow();
    // Act
    const first = await readChannels(tenant.adminKey);
    const second = await readChannels(tenant.adminKey);
    // Assess
    expect(first.headers['RateLimit-Remaining']).toBe('119');
    expect(second.headers).toMatchObject({ 'RateLimit-Remaining': '118', RateLimit: '"api_read";r=118;t=30', 'RateLimit-Reset': '30' });
  });

  it('opens a new window at the next minute', async () => {
    // Prepare
    const tenant = await tenantMidWindow();
    await fillWindow(tenant, 'api_read', DEFAULT_RATE_LIMITS.api_read - 1);
    expect((await readChannels(tenant.adminKey)).headers['RateLimit-Remaining']).toBe('0');
    // Act
    clock.freeze(MID_WINDOW + 29_999);
    const stillRefused = await readChannels(tenant.adminKey);
    clock.freeze(MID_WINDOW + 30_000);
    const nextWindow = await readChannels(tenant.adminKey);
    // Assess
    expect(stillRefused.status).toBe(429);
    expect(stillRefused.headers['Retry-After']).toBe('1');
    expect(nextWindow.status).toBe(200);
    expect(nextWindow.headers['RateLimit-Remaining']).toBe('119');
  });

  it("keeps one user's limit away from another user's, and counts per user across keys", async () => {
    // Prepare
    const tenant = await createTenant(1);
    const team = await createTeamKey(tenant, tenant.channelIds);
    const { keyCreate } = await import('../../scripts/admin/commands');
    const secondAdminKey = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin', userId: tenant.adminUserId });
    clock.freeze(MID_WINDOW);
    await fillWindow(tenant, 'api_read', DEFAULT_RATE_LIMITS.api_read - 10);
    await callTimes(5, () => readChannels(tenant.adminKey));
    await callTimes(5, () => readChannels(secondAdminKey.apiKey));
    // Act
    const adminRefused = await readChannels(tenant.adminKey);
    const teamAllowed = await readChannels(team.apiKey);
    // Assess
    expect(adminRefused.status).toBe(429);
    expect(teamAllowed.status).toBe(200);
    expect(teamAllowed.headers['RateLimit-Remaining']).toBe('119');
  });

  it('lets exactly 120 of 200 concurrent requests through (no read-then-write race)', async () => {
    // Prepare
    const tenant = await tenantMidWindow();
    // Act
    const responses = await Promise.all(Array.from({ length: 200 }, () => readChannels(tenant.adminKey)));
    // Assess
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80);
  });
});
