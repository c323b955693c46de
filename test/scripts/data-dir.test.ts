import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareDataDir, reasonOf, StartupError } from '../../scripts/local/data-dir';

describe('DATA_DIR as npm start prepares it', () => {
  it('creates a missing DATA_DIR readable by its owner only, and says it created it', async () => {
    // Prepare
    const dataDir = join(await mkdtemp(join(tmpdir(), 'wsapi-datadir-')), 'a', 'b');
    // Act
    const prepared = await prepareDataDir(dataDir);
    // Assess
    expect(prepared).toEqual({ created: true });
    expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
  });

  it('narrows what an earlier version left wider: folders 0700, files 0600', async () => {
    // Prepare
    const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-datadir-'));
    await writeFile(join(dataDir, 'service.log'), 'x', { mode: 0o644 });
    // Act
    const prepared = await prepareDataDir(dataDir);
    // Assess
    expect(prepared).toEqual({ created: false });
    expect(((await stat(join(dataDir, 'service.log'))).mode & 0o777).toString(8)).toBe('600');
  });

  it('refuses a DATA_DIR that is a file with one line naming it', async () => {
    // Prepare
    const file = join(await mkdtemp(join(tmpdir(), 'wsapi-datadir-')), 'file');
    await writeFile(file, '');
    // Act
    const refused = await prepareDataDir(file).catch((error: unknown) => error);
    // Assess
    expect(refused).toBeInstanceOf(StartupError);
    expect((refused as Error).message).toBe(`DATA_DIR ${file} is not a folder; set DATA_DIR to a folder (it is created when missing).`);
  });

  it.each([
    ['EROFS', '/mnt/ro is on a read-only file system'],
    ['EACCES', '/mnt/ro is read-only for this user'],
    ['EPERM', '/mnt/ro is read-only for this user'],
    ['ENOTDIR', 'a part of /mnt/ro is a file, not a folder'],
    ['ENOSPC', 'the disk is full'],
  ])('says what %s means for the folder', (code, reason) => {
    // Act / Assess
    expect(reasonOf(Object.assign(new Error('raw'), { code }), '/mnt/ro')).toBe(reason);
  });
});
