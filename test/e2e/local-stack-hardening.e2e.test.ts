import { chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../support/local-stack';

/**
 * The local stack's own files and gateway (npm start), over HTTP: what it writes to
 * DATA_DIR, and how its gateway reads odd parameter and header names.
 */
describe('the local stack keeps its secrets private and reads every parameter name', () => {
  let stack: RunningStack;

  beforeAll(async () => {
    // Prepare: a DATA_DIR whose demo.json an earlier version left world-readable.
    const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-e2e-hardening-'));
    await writeFile(join(dataDir, 'demo.json'), '{}', { mode: 0o644 });
    await chmod(join(dataDir, 'demo.json'), 0o644);
    stack = await startStack({ dataDir });
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
});
