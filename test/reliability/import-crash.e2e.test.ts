import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptCommand } from '../support/script-bundles';
import { checkInvariants } from '../support/invariants';
import { demoAdmin, startStack, type RunningStack } from '../support/local-stack';
import { unique } from './helpers';

/**
 * contacts/import against the local stack (`npm start`'s program): SIGKILL of the
 * stack in the middle of imports, then the same imports run again, leave every
 * contact exactly once, indexed and counted, with no recount; and the operator CLI
 * (`admin contacts import`) streams a CSV through the same path, including after a
 * SIGKILL of the CLI itself.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const LIMITS = { RATE_LIMIT_API_WRITE: '1000000', RATE_LIMIT_API_READ: '1000000', RATE_LIMIT_API_IMPORT: '1000000' };
let stack: RunningStack;
let adminKey: string;
let channelId: string;

beforeAll(async () => {
  stack = await startStack({ env: LIMITS });
  ({ adminKey, channelId } = demoAdmin(stack, 1));
});

afterAll(async () => {
  await stack?.stop();
});

const storeEndpoint = async () => (JSON.parse(await readFile(join(stack.dataDir, 'stack.json'), 'utf8')) as { dynamodbEndpoint: string }).dynamodbEndpoint;

async function total(): Promise<number> {
  return (await stack.call('contacts/list', { apiKey: adminKey, params: { channelId, limit: 1 } })).body.pagination.total;
}

/**
 * contacts/import as a client does it: a 503 is retried after its Retry-After, and a call
 * that answers with `pending` rows (it ran out of time: on a loaded machine the restarted
 * stack is slow) is sent again until none is pending, as the API documents; both are
 * safe because what was applied is not applied twice. The last answer is returned.
 */
async function importAsAClientWould(contacts: Array<{ phoneNumber: string; name: string }>) {
  for (let attempt = 1; ; attempt++) {
    const response = await stack.call('contacts/import', { apiKey: adminKey, params: { channelId, contacts } });
    const unfinished = response.status === 503 || (response.status === 200 && response.body.data.pending.length > 0);
    if (!unfinished || attempt === 20) return response;
    if (response.status === 503) await new Promise((resolvePromise) => setTimeout(resolvePromise, Number(response.headers.get('Retry-After') ?? 1) * 1000));
  }
}

/** Rows whose numbers start with `prefix` (a run's own numbers). */
const rowsOf = (prefix: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ phoneNumber: `+44 20 ${prefix}${String(from + i).padStart(6, '0')}`, name: `Import ${prefix} ${from + i}` }));

describe('contacts/import and a crash', () => {
  it(
    'leaves every contact exactly once, indexed and counted, when the stack is SIGKILLed mid-import and the imports are run again',
    { timeout: 240_000 },
    async () => {
      // Prepare: 4 calls of 400 rows, all in flight
      const before = await total();
      const calls = Array.from({ length: 4 }, (_, k) => rowsOf('79', k * 400, 400));
      const sent = calls.map((contacts) => stack.call('contacts/import', { apiKey: adminKey, params: { channelId, contacts } }).catch(() => undefined));
      // Act: kill once some contacts are in the table, restart, run the same calls again
      const endpoint = await storeEndpoint();
      for (let waited = 0; waited < 60_000; waited += 50) {
        const { contacts } = await checkInvariants({ endpoint, channelId });
        if (contacts > before + 100) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await stack.stop('SIGKILL');
      await Promise.all(sent);
      stack = await startStack({ dataDir: stack.dataDir, env: LIMITS });
      const broken = await checkInvariants({ endpoint: await storeEndpoint(), channelId });
      const again = [];
      for (const contacts of calls) again.push(await importAsAClientWould(contacts));
      const rerun = await checkInvariants({ endpoint: await storeEndpoint(), channelId });
      const shortAfterRerun = before + 1600 - (await total());
      const recount = await stack.admin('contacts', 'recount', '--channel', channelId);
      const after = await checkInvariants({ endpoint: await storeEndpoint(), channelId });
      // Assess
      for (const response of again) expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
      expect(again.reduce((sum, response) => sum + response.body.data.failed, 0)).toBe(0);
      expect(broken.contacts).toBeLessThan(before + 1600);
      expectRerunComplete(rerun, before + 1600, shortAfterRerun);
      expect(recount.code, recount.stderr).toBe(0);
      expect(after.violations).toEqual([]);
      expect(after.contacts).toBe(before + 1600);
      expect(await total()).toBe(before + 1600);
    },
  );

  it(
    'imports a CSV with the CLI: one JSON object on stdout, progress on stderr, failed rows with reasons in a file; a re-run creates nothing',
    { timeout: 240_000 },
    async () => {
      // Prepare: 2,500 rows with quoted cells, labels and a custom field; every 250th number bad
      await stack.call('labels/manage', { apiKey: adminKey, params: { channelId, name: 'Imported' } });
      await stack.call('labels/manage', { apiKey: adminKey, params: { channelId, name: 'VIP' } });
      await stack.call('custom-fields/manage', { apiKey: adminKey, params: { channelId, name: 'city' } });
      const file = await csv('71', 2500);
      const before = await total();
      // Act
      const first = await stack.admin('contacts', 'import', '--channel', channelId, '--file', file);
      const again = await stack.admin('contacts', 'import', '--channel', channelId, '--file', file, '--errors', `${file}.again.csv`);
      const sample = await stack.call('contacts/list', { apiKey: adminKey, params: { channelId, search: 'Jane "1"' } });
      // Assess
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim().split('\n')).toHaveLength(1);
      expect(first.json).toMatchObject({ channelId, rows: 2500, created: 2490, updated: 0, unchanged: 0, failed: 10, errorsFile: `${file}.errors.csv` });
      expect(first.stderr).toMatch(/2500 of 2500 rows \(100 %\), \d+ rows\/s, ETA 0 s — 2490 created, 0 updated, 0 unchanged, 10 failed/);
      const errors = (await readFile(`${file}.errors.csv`, 'utf8')).trim().split('\r\n');
      const errorsAgain = (await readFile(`${file}.again.csv`, 'utf8')).trim().split('\r\n');
      expect(errors).toHaveLength(11);
      expect(errors[0]).toBe('phone,name,email,labels,city,error,message,line');
      // In the file's line order, whatever order the calls finished in; `line` points into the file.
      const lineNumbers = (lines: string[]) => lines.slice(1).map((line) => Number(line.slice(line.lastIndexOf(',') + 1)));
      expect(lineNumbers(errors)).toEqual(Array.from({ length: 10 }, (_, i) => 251 + 250 * i));
      expect(errorsAgain).toEqual(errors);
      expect(errors.find((line) => line.includes('jane249@'))).toBe(
        'not-a-number,"Doe, Jane ""249""",jane249@example.com,Imported;VIP,Paris,invalid_parameter,"Invalid parameter phoneNumber: must be a phone number with country code, e.g. +14155550100.",251',
      );
      expect(again.json).toMatchObject({ created: 0, updated: 0, unchanged: 2490, failed: 10 });
      expect(sample.body.data[0]).toMatchObject({ name: 'Doe, Jane "1"', email: 'jane1@example.com', customFields: { city: 'Paris' } });
      expect(sample.body.data[0].labels.map((label: { name: string }) => label.name)).toEqual(['Imported', 'VIP']);
      expect(await total()).toBe(before + 2490);
      expect((await checkInvariants({ endpoint: await storeEndpoint(), channelId })).violations).toEqual([]);
    },
  );

  it('completes a CLI import SIGKILLed in the middle when it is run again', { timeout: 240_000 }, async () => {
    // Prepare
    for (const name of ['Imported', 'VIP']) await stack.call('labels/manage', { apiKey: adminKey, params: { channelId, name } });
    await stack.call('custom-fields/manage', { apiKey: adminKey, params: { channelId, name: 'city' } });
    const file = await csv('72', 4000);
    const before = await total();
    // Act: kill the CLI at its first progress line (after its first calls), then run it again
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: stack.dataDir };
    delete env.DYNAMODB_ENDPOINT;
    delete env.TABLE_NAME;
    const [node, cli] = scriptCommand('admin');
    const child = spawn(node, [...cli, 'contacts', 'import', '--channel', channelId, '--file', file], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolvePromise) => child.once('exit', resolvePromise));
    let stderr = '';
    await new Promise<void>((resolvePromise) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/\d+ of \d+ rows \(/.test(stderr)) resolvePromise();
      });
      child.once('exit', () => resolvePromise());
    });
    expect(child.exitCode, `the CLI ended before its first progress line: ${stderr}`).toBeNull();
    child.kill('SIGKILL');
    await exited;
    const broken = await checkInvariants({ endpoint: await storeEndpoint(), channelId });
    const again = await stack.admin('contacts', 'import', '--channel', channelId, '--file', file);
    const rerun = await checkInvariants({ endpoint: await storeEndpoint(), channelId });
    const shortAfterRerun = before + 3984 - (await total());
    await stack.admin('contacts', 'recount', '--channel', channelId);
    // Assess
    expect(broken.contacts).toBeGreaterThan(before);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.created + again.json.updated + again.json.unchanged).toBe(3984);
    expect(again.json.created).toBeLessThan(3984);
    expectRerunComplete(rerun, before + 3984, shortAfterRerun);
    expect((await checkInvariants({ endpoint: await storeEndpoint(), channelId })).violations).toEqual([]);
    expect(await total()).toBe(before + 3984);
  });
});

/**
 * After the re-run every contact is there once and indexed, and every ledger finished;
 * only a crash that fell between a claim and its count (one update to the next) can
 * leave the count short, by at most 40 contacts per call in flight (4), for the recount.
 */
function expectRerunComplete(report: Awaited<ReturnType<typeof checkInvariants>>, contacts: number, shortBy: number) {
  expect(report.contacts).toBe(contacts);
  expect(report.violations.filter((violation) => !violation.check.startsWith('contact head count'))).toEqual([]);
  expect(shortBy).toBeGreaterThanOrEqual(0);
  expect(shortBy).toBeLessThanOrEqual(4 * 40);
}

/** A CSV of `count` rows under the number prefix `prefix` (every 250th number bad), in the stack's data directory. */
async function csv(prefix: string, count: number): Promise<string> {
  const lines = ['phone,name,email,labels,city'];
  for (let i = 0; i < count; i++) {
    const phone = i % 250 === 249 ? 'not-a-number' : `+44 20 ${prefix}${String(i).padStart(6, '0')}`;
    lines.push(`${phone},"Doe, Jane ""${i}""",jane${i}@example.com,${i % 2 ? 'Imported;VIP' : 'Imported'},${i % 2 ? 'Paris' : ''}`);
  }
  const file = join(stack.dataDir, `contacts-${prefix}-${unique('')}.csv`);
  await writeFile(file, `${lines.join('\r\n')}\r\n`);
  return file;
}
