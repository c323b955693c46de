import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../support/local-stack';

/**
 * The README's first steps with contacts, run as a newcomer runs them: its own shell
 * blocks, in order, against a fresh `npm start` with PORT and DATA_DIR set, and each
 * documented answer compared with the real one where the README shows numbers and names.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');

/** The README's ```sh blocks, in order. */
const shellBlocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);

/** The walk-through's import (the generated per-endpoint examples further down call contacts/import too). */
const IMPORT_MARKER = '$BASE/contacts/import -H "X-API-Key: $KEY" -H \'Content-Type: application/json\' -d "{\\"channelId\\":\\"$CH\\", \\"contacts\\":[';

/** The one block that holds `marker`. */
function blockWith(marker: string): string {
  const found = shellBlocks.filter((block) => block.includes(marker));
  expect(found, marker).toHaveLength(1);
  return found[0];
}

/** The JSON a block's comment documents after the line that holds `marker` (`# {…}` and its continuation lines). */
function documentedAnswer(block: string, marker: string): string {
  const lines = block.split('\n');
  const at = lines.findIndex((line) => line.includes(marker));
  const comment: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('#')) break;
    comment.push(line.replace(/^#\s?/, ''));
  }
  return comment.join('');
}

describe('the README’s contacts walk-through', () => {
  let stack: RunningStack;
  let run: (block: string) => Promise<string>;

  beforeAll(async () => {
    stack = await startStack();
    const setup = blockWith('BASE=');
    const env = { ...process.env, PORT: new URL(stack.url).port, DATA_DIR: stack.dataDir };
    run = async (block) => (await promisify(execFile)('bash', ['-euc', `${setup}\n${block}`], { cwd: ROOT, env })).stdout;
  });
  afterAll(async () => stack?.stop());

  it('answers contacts/import and contacts/list with the counts, names and phones the README shows', async () => {
    // Prepare: every block between the setup and the import, in the README's order (labels, custom fields, contacts/manage)
    const importBlock = blockWith(IMPORT_MARKER);
    const listBlock = blockWith('contacts/list?channelId=$CH&limit=20&search=example');
    for (const block of shellBlocks.slice(shellBlocks.indexOf(blockWith('BASE=')) + 1, shellBlocks.indexOf(importBlock))) await run(block);
    // Act
    const imported = JSON.parse(await run(importBlock)) as { data: Record<string, unknown>; message: string };
    const listed = JSON.parse(await run(listBlock)) as { data: Array<{ name: string; phone: string }>; pagination: { total: number } };
    // Assess: the import's counts and message as documented
    const importDoc = documentedAnswer(importBlock, '{\\"phoneNumber\\":\\"12\\"');
    for (const count of ['created', 'updated', 'unchanged', 'failed']) expect(importDoc).toContain(`"${count}":${String(imported.data[count])},`);
    expect(importDoc).toContain(`"message":"${imported.message}"`);
    // Assess: the list's total, and its contacts' names and phones in the documented order
    const listDoc = documentedAnswer(listBlock, 'search=example');
    expect(listDoc).toContain(`"total":${listed.pagination.total},`);
    const documented = [...listDoc.matchAll(/"name":"([^"]+)","phone":"(\d+)"/g)].map(([, name, phone]) => `${name} ${phone}`);
    expect(listed.data.map((contact) => `${contact.name} ${contact.phone}`)).toEqual(documented);
  });

  it('answers the same import again with the counts the README promises for it', async () => {
    // Prepare: the import made once (whether or not the walk-through above ran)
    await run(blockWith(IMPORT_MARKER));
    // Act
    const again = JSON.parse(await run(blockWith(IMPORT_MARKER))) as { data: { created: number; updated: number; unchanged: number } };
    // Assess
    const { created, updated, unchanged } = again.data;
    expect(README).toContain(`(the same call again answers \`"created":${created},"updated":${updated},"unchanged":${unchanged}\`)`);
  });
});
