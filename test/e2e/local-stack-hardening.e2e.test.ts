import { chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey, startStack, type RunningStack } from '../support/local-stack';

/**
 * The local stack's own files and gateway (npm start), over HTTP: what it writes to
 * DATA_DIR, and how its gateway reads odd parameter and header names.
 */
describe('the local stack keeps its secrets private and reads every parameter name', () => {
  let stack: RunningStack;
  let adminKey: string;

  beforeAll(async () => {
    // Prepare: a DATA_DIR whose demo.json an earlier version left world-readable.
    const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-e2e-hardening-'));
    await writeFile(join(dataDir, 'demo.json'), '{}', { mode: 0o644 });
    await chmod(join(dataDir, 'demo.json'), 0o644);
    stack = await startStack({ dataDir });
    adminKey = demoKey(stack);
  });
  afterAll(async () => stack?.stop());

  it('writes demo.json (every demo key, token and the app secret) readable by its owner only, also over a wider existing file', async () => {
    // Act
    const demo = await stat(join(stack.dataDir, 'demo.json'));
    const secrets = await stat(join(stack.dataDir, 'chat-network.json'));
    // Assess
    expect((demo.mode & 0o777).toString(8)).toBe('600');
    expect((secrets.mode & 0o777).toString(8)).toBe('600');
  });

  it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'])(
    'reads a query parameter and a header named %s through the gateway (never a 500), GET and POST',
    async (name) => {
      // Act
      const url = `${stack.baseUrl}/channels/list?${encodeURIComponent(name)}=x&${encodeURIComponent(name)}=y`;
      const get = await fetch(url, { headers: { 'X-API-Key': adminKey, [name]: 'z' } });
      const post = await fetch(url, { method: 'POST', headers: { 'X-API-Key': adminKey, [name]: 'z', 'Content-Type': 'application/json' }, body: '{}' });
      const headerOnly = await fetch(`${stack.baseUrl}/channels/list`, { headers: { 'X-API-Key': adminKey, [name]: 'z' } });
      // Assess: the parameter is an unknown one (400 naming it), the header an odd one (ignored).
      for (const response of [get, post]) {
        const body = (await response.json()) as { success: boolean; error: string; details: { parameter: string } };
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect([body.success, body.error, body.details.parameter]).toEqual([false, 'unknown_parameter', name]);
      }
      const served = (await headerOnly.json()) as { success: boolean; data: unknown[] };
      expect(headerOnly.status, JSON.stringify(served)).toBe(200);
      expect(served.data).toHaveLength(2);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    },
  );
});
