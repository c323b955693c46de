import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readOrCreateLocalKey } from '../../shared/events/secret-box';

/**
 * The local stack's key file (shared/events/secret-box.ts readOrCreateLocalKey): processes
 * that start at once (the stack's, the test workers) may all find no key and make one;
 * every one of them must end up with the same whole 32-byte key.
 */

/** Set by a test: runs once, between a written file's creation and its content, as another process could. */
const between = vi.hoisted(() => ({ create: undefined as undefined | (() => void) }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  // A write as the OS does it: the file is there (empty) before its content is.
  const writeFileSync: typeof fs.writeFileSync = (file, data, options) => {
    const other = between.create;
    if (!other) return fs.writeFileSync(file, data, options);
    between.create = undefined;
    fs.writeFileSync(file, '', options);
    other();
    fs.writeFileSync(file, data, { flag: 'a' });
  };
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync };
});

const freshKeyFile = () => join(mkdtempSync(join(tmpdir(), 'wsapi-local-key-')), 'nested', 'webhook-secrets.key');

describe('readOrCreateLocalKey', () => {
  it('gives a caller that starts while another is writing the key the same whole key, not a part-written file', () => {
    // Prepare
    const file = freshKeyFile();
    let otherKey: Buffer | undefined;
    between.create = () => {
      otherKey = readOrCreateLocalKey(file);
    };

    // Act
    const key = readOrCreateLocalKey(file);

    // Assess
    expect(otherKey?.length).toBe(32);
    expect(key.length).toBe(32);
    expect(otherKey!.equals(key)).toBe(true);
    expect(readOrCreateLocalKey(file).equals(key)).toBe(true);
  });

  it('creates the key readable by its owner only, and leaves nothing else beside it', () => {
    // Prepare
    const file = freshKeyFile();

    // Act
    const key = readOrCreateLocalKey(file);

    // Assess
    expect(key.length).toBe(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(file, '..'))).toEqual(['webhook-secrets.key']);
  });

  it('refuses a key file that does not hold a whole key, naming the file', () => {
    // Prepare: left empty by a process that stopped mid-write
    const file = freshKeyFile();
    mkdirSync(join(file, '..'));
    writeFileSync(file, '');

    // Act
    const read = () => readOrCreateLocalKey(file);

    // Assess
    expect(read).toThrow(`The local key file ${file} does not hold a 32-byte key`);
  });
});
