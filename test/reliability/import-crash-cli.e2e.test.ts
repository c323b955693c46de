import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_ROWS } from '../../shared/domain/contact-import';
import { checkInvariants } from '../support/invariants';
import { scriptCommand } from '../support/script-bundles';
import { unique } from './helpers';
import { expectRerunComplete, useImportStack } from './import-stack';

/**
 * The operator CLI (`admin contacts import`) against the local stack: it streams a CSV
 * through contacts/import, reports failed rows in a file in line order, and completes an
 * import after a SIGKILL of the CLI itself when it is run again.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const run = useImportStack();
/** Every BAD_EVERY-th row of a CSV has a bad number: a few failed rows in each call, however small the last. */
const BAD_EVERY = 100;

describe('contacts/import from the CLI, and a crash of the CLI', () => {
  it(
    'imports a CSV with the CLI: one JSON object on stdout, progress on stderr, failed rows with reasons in a file; a re-run creates nothing',
    { timeout: 240_000 },
    async () => {
      // Prepare: rows with quoted cells, labels and a custom field, every BAD_EVERY-th number bad: a call
      // of MAX_IMPORT_ROWS and a smaller one after it (likely to finish first), each with bad rows
      const rows = MAX_IMPORT_ROWS + BAD_EVERY;
      await run.stack.call('labels/manage', { apiKey: run.adminKey, params: { channelId: run.channelId, name: 'Imported' } });
      await run.stack.call('labels/manage', { apiKey: run.adminKey, params: { channelId: run.channelId, name: 'VIP' } });
      await run.stack.call('custom-fields/manage', { apiKey: run.adminKey, params: { channelId: run.channelId, name: 'city' } });
      const { file, valid } = await csv('71', rows);
      const failed = rows - valid;
      const before = await run.total();
      // Act
      const first = await run.stack.admin('contacts', 'import', '--channel', run.channelId, '--file', file);
      const again = await run.stack.admin('contacts', 'import', '--channel', run.channelId, '--file', file, '--errors', `${file}.again.csv`);
      const sample = await run.stack.call('contacts/list', { apiKey: run.adminKey, params: { channelId: run.channelId, search: 'Jane "1"' } });
      // Assess
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim().split('\n')).toHaveLength(1);
      expect(first.json).toMatchObject({
        channelId: run.channelId,
        rows,
        created: rows - failed,
        updated: 0,
        unchanged: 0,
        failed,
        errorsFile: `${file}.errors.csv`,
      });
      expect(first.stderr).toMatch(
        new RegExp(`${rows} of ${rows} rows \\(100 %\\), \\d+ rows/s, ETA 0 s — ${rows - failed} created, 0 updated, 0 unchanged, ${failed} failed`),
      );
      const errors = (await readFile(`${file}.errors.csv`, 'utf8')).trim().split('\r\n');
      const errorsAgain = (await readFile(`${file}.again.csv`, 'utf8')).trim().split('\r\n');
      expect(errors).toHaveLength(1 + failed);
      expect(errors[0]).toBe('phone,name,email,labels,city,error,message,line');
      // In the file's line order, whatever order the calls finished in; `line` points into the file.
      const lineNumbers = (lines: string[]) => lines.slice(1).map((line) => Number(line.slice(line.lastIndexOf(',') + 1)));
      expect(lineNumbers(errors)).toEqual(Array.from({ length: failed }, (_, i) => BAD_EVERY + 1 + BAD_EVERY * i));
      expect(lineNumbers(errors).at(-1)).toBeGreaterThan(MAX_IMPORT_ROWS + 1);
      expect(errorsAgain).toEqual(errors);
      expect(errors.find((line) => line.includes('jane99@'))).toBe(
        'not-a-number,"Doe, Jane ""99""",jane99@example.com,Imported;VIP,Paris,invalid_parameter,"Invalid parameter phoneNumber: must be a phone number with country code, e.g. +14155550100.",101',
      );
      expect(again.json).toMatchObject({ created: 0, updated: 0, unchanged: rows - failed, failed });
      expect(sample.body.data[0]).toMatchObject({ name: 'Doe, Jane "1"', email: 'jane1@example.com', customFields: { city: 'Paris' } });
      expect(sample.body.data[0].labels.map((label: { name: string }) => label.name)).toEqual(['Imported', 'VIP']);
      expect(await run.total()).toBe(before + rows - failed);
      expect((await checkInvariants({ endpoint: await run.storeEndpoint(), channelId: run.channelId })).violations).toEqual([]);
    },
  );

  it('completes a CLI import SIGKILLed in the middle when it is run again', { timeout: 240_000 }, async () => {
    // Prepare
    for (const name of ['Imported', 'VIP']) await run.stack.call('labels/manage', { apiKey: run.adminKey, params: { channelId: run.channelId, name } });
    await run.stack.call('custom-fields/manage', { apiKey: run.adminKey, params: { channelId: run.channelId, name: 'city' } });
    // One call's rows (its ledger is what a kill leaves for the re-run to finish; several calls' ledgers: import-crash.e2e.test.ts)
    const { file, valid: contacts, storedPrefix } = await csv('72', MAX_IMPORT_ROWS);
    const before = await run.total();
    // Act: kill the CLI once an eighth of its contacts are in the table (the rest still to write), then run it again
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: run.stack.dataDir };
    delete env.DYNAMODB_ENDPOINT;
    delete env.TABLE_NAME;
    const [node, cli] = scriptCommand('admin');
    const child = spawn(node, [...cli, 'contacts', 'import', '--channel', run.channelId, '--file', file], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolvePromise) => child.once('exit', resolvePromise));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // (Counted among this CSV's own numbers: the poll reads none of the contacts the first test stored.)
    while (child.exitCode === null && (await run.contactsStored(storedPrefix)) < contacts / 8) await new Promise((r) => setTimeout(r, 50));
    expect(child.exitCode, `the CLI ended before an eighth of its contacts were in: ${stderr}`).toBeNull();
    child.kill('SIGKILL');
    await exited;
    const broken = await run.contactsStored(storedPrefix);
    const again = await run.stack.admin('contacts', 'import', '--channel', run.channelId, '--file', file);
    const rerun = await checkInvariants({ endpoint: await run.storeEndpoint(), channelId: run.channelId });
    const shortAfterRerun = before + contacts - (await run.total());
    await run.stack.admin('contacts', 'recount', '--channel', run.channelId);
    // Assess
    expect(broken).toBeGreaterThan(0);
    expect(broken).toBeLessThan(contacts);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.created + again.json.updated + again.json.unchanged).toBe(contacts);
    expect(again.json.created).toBeGreaterThan(0);
    expect(again.json.created).toBeLessThan(contacts);
    expectRerunComplete(rerun, before + contacts, shortAfterRerun);
    expect((await checkInvariants({ endpoint: await run.storeEndpoint(), channelId: run.channelId })).violations).toEqual([]);
    expect(await run.total()).toBe(before + contacts);
  });
});

/**
 * A CSV of `count` rows under the number prefix `prefix` (every BAD_EVERY-th number bad), in the
 * stack's data directory; how many rows are valid, and the prefix their stored (normalized) numbers share.
 */
async function csv(prefix: string, count: number): Promise<{ file: string; valid: number; storedPrefix: string }> {
  const rows = Array.from({ length: count }, (_, i) => {
    const phone = i % BAD_EVERY === BAD_EVERY - 1 ? 'not-a-number' : `+44 20 ${prefix}${String(i).padStart(6, '0')}`;
    return `${phone},"Doe, Jane ""${i}""",jane${i}@example.com,${i % 2 ? 'Imported;VIP' : 'Imported'},${i % 2 ? 'Paris' : ''}`;
  });
  const file = join(run.stack.dataDir, `contacts-${prefix}-${unique('')}.csv`);
  await writeFile(file, `${['phone,name,email,labels,city', ...rows].join('\r\n')}\r\n`);
  return { file, valid: rows.filter((row) => !row.startsWith('not-a-number')).length, storedPrefix: `4420${prefix}` };
}
