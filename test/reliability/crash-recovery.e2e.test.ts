import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_IN_URL_MESSAGE } from '../../shared/errors';
import { checkInvariants } from '../support/invariants';
import { demoAdmin, startStack, type RunningStack } from '../support/local-stack';
import { recordFigures } from '../support/log-audit';
import { Tally, unique } from './helpers';

/**
 * The local stack (`npm start`'s program) over HTTP: killed with SIGKILL in the
 * middle of a write burst and restarted on the same DATA_DIR, it still has every
 * write it acknowledged, and after the documented repair (`admin contacts recount
 * --channel CH`) the table's invariants hold. The same stack also shows what the
 * gateway itself refuses (keys, oversized requests) in the envelope.
 */

const tally = new Tally();
const figures: Record<string, unknown> = {};
let stack: RunningStack;
let adminKey: string;
let channelId: string;
const LIMITS = { RATE_LIMIT_API_WRITE: '1000000', RATE_LIMIT_API_READ: '1000000' };

beforeAll(async () => {
  stack = await startStack({ env: LIMITS });
  ({ adminKey, channelId } = demoAdmin(stack, 1));
});

afterAll(async () => {
  await stack?.stop();
  recordFigures('crash-recovery', { ...figures, requestsSent: tally.get('requests') });
});

/** A raw request (no contract check: these answers are refusals of the gateway, or deliberately broken). */
async function raw(path: string, init: RequestInit & { query?: string } = {}) {
  tally.add('requests');
  const response = await fetch(`${stack.baseUrl}/${path}${init.query ?? ''}`, init);
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body, text };
}

const post = (path: string, apiKey: string | undefined, params: unknown, headers: Record<string, string> = {}) =>
  raw(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(apiKey ? { 'X-API-Key': apiKey } : {}), ...headers },
    body: JSON.stringify(params),
  });

describe('SIGKILL in the middle of a write burst', () => {
  it('keeps every acknowledged write, and the invariants hold after the recount repair', { timeout: 120_000 }, async () => {
    // Prepare: a burst of contact and label writes, 16 in flight
    const acknowledged: Array<{ kind: 'contact' | 'label'; key: string; name: string; id: string }> = [];
    let sent = 0;
    let failedInFlight = 0;
    let killed = false;
    const run = unique('');
    const next = (i: number) =>
      i % 3 === 2
        ? { kind: 'label' as const, path: 'labels/manage', params: { channelId, name: `crash-${run}-${i}` } }
        : {
            kind: 'contact' as const,
            path: 'contacts/manage',
            params: { channelId, phoneNumber: `+44 20 79${String(100_000 + i).slice(-6)}`, name: `Crash ${run} ${i}` },
          };
    let counter = 0;
    const worker = async () => {
      while (!killed && counter < 2_000) {
        const { kind, path, params } = next(counter++);
        sent++;
        try {
          const response = await post(path, adminKey, params);
          if (response.status === 200)
            acknowledged.push({ kind, key: kind === 'contact' ? response.body.data.phone : params.name, name: params.name, id: response.body.data.id });
          else expect(response.status, JSON.stringify(response.body)).toBe(200);
        } catch {
          failedInFlight++;
        }
      }
    };
    // Act: SIGKILL once each worker has had three writes acknowledged on average (writes still in flight), then restart on the same DATA_DIR
    const workers = Array.from({ length: 16 }, worker);
    while (acknowledged.length < 3 * workers.length) await new Promise((r) => setTimeout(r, 5));
    await stack.stop('SIGKILL');
    killed = true;
    await Promise.all(workers);
    stack = await startStack({ dataDir: stack.dataDir, env: LIMITS });
    const { dynamodbEndpoint } = JSON.parse(await readFile(join(stack.dataDir, 'stack.json'), 'utf8')) as { dynamodbEndpoint: string };
    const contacts = new Map<string, any>();
    for (let page = 1; ; page++) {
      const listed = await post('contacts/list', adminKey, { channelId, limit: 200, page });
      for (const contact of listed.body.data) contacts.set(contact.phone, contact);
      if (page >= listed.body.pagination.pages) break;
    }
    const labels = new Map<string, any>((await post('labels/list', adminKey, { channelId })).body.data.map((label: { name: string }) => [label.name, label]));
    const beforeRepair = await checkInvariants({ endpoint: dynamodbEndpoint, channelId });
    const recount = await stack.admin('contacts', 'recount', '--channel', channelId);
    const afterRepair = await checkInvariants({ endpoint: dynamodbEndpoint, channelId });
    const listedAfter = await post('contacts/list', adminKey, { channelId, limit: 1 });
    // Assess: nothing acknowledged is lost, nothing is there twice
    const lost = acknowledged.filter((write) => {
      const found = write.kind === 'contact' ? contacts.get(write.key) : labels.get(write.key);
      return !found || found.id !== write.id || found.name !== write.name;
    });
    expect(lost).toEqual([]);
    expect(recount.code, recount.stderr).toBe(0);
    expect(afterRepair.violations).toEqual([]);
    expect(listedAfter.body.pagination.total).toBe(afterRepair.contacts);
    expect(recount.json.contactCount).toBe(afterRepair.contacts);
    figures.sigkill = {
      writesSent: sent,
      acknowledged: acknowledged.length,
      unacknowledged: sent - acknowledged.length,
      failedInFlightAtKill: failedInFlight,
      lost: lost.length,
      contactsAfterRestart: afterRepair.contacts,
      invariantViolationsBeforeRepair: beforeRepair.violations.length,
      invariantViolationsAfterRepair: afterRepair.violations.length,
    };
  });
});

describe('refusals of the gateway and of the keys, over HTTP', () => {
  it('answers unknown, malformed, revoked, expired and missing keys with the same 401, and never echoes the key', async () => {
    // Prepare
    const workspace = stack.demo.workspaces[1].id;
    const [created, expiredKey] = await Promise.all([
      stack.admin('key', 'create', '--workspace', workspace, '--role', 'admin'),
      stack.admin('key', 'create', '--workspace', workspace, '--role', 'admin', '--expires-at', '2020-01-01T00:00:00Z'),
    ]);
    const revoked = created.json;
    const expired = expiredKey.json;
    await stack.admin('key', 'revoke', '--key', revoked.keyId);
    const unknown = `wsk_${'A'.repeat(43)}`;
    const attempts: Array<Record<string, string>> = [
      { 'X-API-Key': unknown },
      { 'X-API-Key': 'not-a-key' },
      { 'X-API-Key': revoked.apiKey },
      { 'X-API-Key': expired.apiKey },
      { Authorization: `Bearer ${revoked.apiKey}` },
      { Authorization: `Basic ${unknown}` },
      {},
    ];
    // Act
    const responses = await Promise.all(attempts.map((headers) => raw('contacts/list', { method: 'POST', headers })));
    // Assess
    const shape = (r: Awaited<ReturnType<typeof raw>>) => ({
      status: r.status,
      body: r.body,
      type: r.headers.get('content-type'),
      cache: r.headers.get('cache-control'),
      sniff: r.headers.get('x-content-type-options'),
    });
    for (const response of responses) {
      expect(shape(response)).toEqual(shape(responses[0]));
      expect(response.text).not.toMatch(/wsk_|not-a-key/);
    }
    expect(responses[0].status).toBe(401);
    expect(responses[0].headers.get('cache-control')).toBe('no-store');
    expect(responses[0].headers.get('x-content-type-options')).toBe('nosniff');
    figures.keysRefusedAlike = attempts.length;
  });

  it('refuses a key in the query string, the JSON body or a form body with 401, even beside a valid header', async () => {
    // Act
    const answers = [
      await raw('channels/list', { method: 'GET', query: `?apiKey=${adminKey}`, headers: { 'X-API-Key': adminKey } }),
      await raw('channels/list', { method: 'GET', query: `?api_key=${adminKey}` }),
      await raw('channels/list', { method: 'GET', query: `?access_token=${adminKey}`, headers: { 'X-API-Key': adminKey } }),
      await post('channels/list', adminKey, { apiKey: adminKey }),
      await post('labels/list', adminKey, { 'x-api-key': adminKey }),
      await raw('channels/list', {
        method: 'POST',
        headers: { 'X-API-Key': adminKey, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `key=${adminKey}`,
      }),
    ];
    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ success: false, error: 'unauthorized' });
      expect(answer.text).not.toContain(adminKey);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    // A key in the URL is exposed (logs, proxies, history): those answers say so; a key in the body is not told to rotate.
    expect(answers.map((answer) => answer.body.message === KEY_IN_URL_MESSAGE)).toEqual([true, true, true, false, false, false]);
  });

  it('refuses requests above the gateway’s limits with a 4xx before any handler, and keeps serving', { timeout: 60_000 }, async () => {
    // Act
    const longUrl = await raw('contacts/list', { method: 'GET', query: `?search=${'x'.repeat(100_000)}`, headers: { 'X-API-Key': adminKey } });
    const hugeBody = await raw('labels/manage', {
      method: 'POST',
      headers: { 'X-API-Key': adminKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x', description: 'y'.repeat(11 * 1024 * 1024) }),
    });
    const overLimit = await post('labels/manage', adminKey, { name: 'x', description: 'y'.repeat(70_000) });
    const wrongType = await raw('labels/manage', { method: 'POST', headers: { 'X-API-Key': adminKey, 'Content-Type': 'text/plain' }, body: 'name=x' });
    const unknownPath = await post('contacts/purge', adminKey, {});
    const healthy = await post('channels/list', adminKey, {});
    // Assess
    expect(longUrl.status).toBeGreaterThanOrEqual(400);
    expect(longUrl.status).toBeLessThan(500);
    expect(hugeBody.status).toBe(413);
    expect(hugeBody.body).toMatchObject({ success: false, error: 'payload_too_large' });
    expect(overLimit.status).toBe(400);
    expect(overLimit.body.details.parameter).toBe('body');
    expect(wrongType.body.details.parameter).toBe('Content-Type');
    expect(unknownPath.status).toBe(404);
    for (const refusal of [hugeBody, overLimit, wrongType, unknownPath]) {
      expect(refusal.headers.get('cache-control')).toBe('no-store');
      expect(refusal.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(healthy.status).toBe(200);
    figures.gatewayRefusals = { longUrlStatus: longUrl.status, hugeBodyStatus: hugeBody.status };
  });
});
