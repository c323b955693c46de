import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { domainFunctionName, TODO, withImport } from '../../scripts/new-endpoint';

/**
 * `npm run new-endpoint` keeps its promise (docs/ARCHITECTURE.md, "Adding an endpoint"):
 * in a copy of this working tree, a new endpoint made with it needs five files written by
 * hand — its route row, function, domain function, budget row and test — and nothing else
 * but what `npm run openapi` regenerates; the copy then passes `npm run typecheck` (the type
 * check `npm run lint` runs), the recipe test and the endpoint's own test.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/** The working tree as it is (tracked and new files, not the ignored ones), with this tree's packages. */
function copyOfTree(): string {
  const copy = mkdtempSync(join(tmpdir(), 'new-endpoint-'));
  copies.push(copy);
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    try {
      cpSync(join(ROOT, file), join(copy, file), { recursive: false });
    } catch (error) {
      // A tracked file deleted in the working tree is not part of it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** Each file's content hash, by path relative to the copy. */
function fingerprints(copy: string): Map<string, string> {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  const listed = new Set([...files, ...written]);
  const hashes = new Map<string, string>();
  for (const file of listed) {
    try {
      hashes.set(
        file,
        createHash('sha256')
          .update(readFileSync(join(copy, file)))
          .digest('hex'),
      );
    } catch {
      // not in the copy
    }
  }
  return hashes;
}
/** Files the generator may create, so that fingerprints() sees them. */
const written: string[] = [];

const changed = (before: Map<string, string>, after: Map<string, string>) =>
  [...after]
    .filter(([file, hash]) => before.get(file) !== hash)
    .map(([file]) => file)
    .sort();

/**
 * Runs a step in the copy. Asynchronously, with no timeout of its own: on a loaded machine a
 * step may take minutes, and the test's own timeout is the guard against a hang.
 */
function run(copy: string, command: string, args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(command, args, {
    cwd: copy,
    env: { ...process.env, PREBUILT_BUNDLES: '1', LOG_CAPTURE: '0', SCRIPT_BUNDLES: '0', FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status, signal) => resolve({ status, output: signal ? `${output}\nkilled by ${signal}` : output }));
  });
}

/** What the endpoint's author writes: here, each stub's words kept and its markers taken out. */
function finishStubs(copy: string, files: string[]): string[] {
  const edited: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(copy, file), 'utf8');
    const finished = text.replaceAll(`${TODO}: `, '');
    if (finished !== text) {
      writeFileSync(join(copy, file), finished);
      edited.push(file);
    }
  }
  return edited.sort();
}

describe('npm run new-endpoint', () => {
  it('makes an endpoint that needs five files written by hand and passes the recipe, the type check and its own test', async () => {
    // Prepare: a copy of the working tree
    const copy = copyOfTree();
    written.push('functions/widgets-archive.ts', 'shared/domain/widgets.ts', 'test/functions/widgets-archive.test.ts');
    const untouched = fingerprints(copy);

    // Act: the generator, the author's edits, the regenerated docs, the checks
    const generator = await run(copy, process.execPath, ['--import', 'tsx', 'scripts/new-endpoint.ts', 'widgets/archive', '--tag', 'Contacts']);
    const stubbed = fingerprints(copy);
    const handEdited = finishStubs(copy, changed(untouched, stubbed));
    const finished = fingerprints(copy);
    const openapi = await run(copy, process.execPath, ['--import', 'tsx', 'scripts/openapi.ts']);
    const regenerated = changed(finished, fingerprints(copy));
    const typeCheck = await run(copy, 'npm', ['run', '--silent', 'typecheck']);
    const tests = await run(copy, process.execPath, [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      'test/architecture/endpoint-recipe.test.ts',
      'test/functions/widgets-archive.test.ts',
    ]);

    // Assess
    expect(generator.status, generator.output).toBe(0);
    expect(changed(untouched, stubbed)).toEqual([
      'docs/ARCHITECTURE.md',
      'functions/widgets-archive.ts',
      'shared/domain/widgets.ts',
      'shared/routes.ts',
      'test/functions/widgets-archive.test.ts',
    ]);
    expect(handEdited).toEqual(changed(untouched, stubbed));
    expect(openapi.status, openapi.output).toBe(0);
    expect(regenerated).toEqual(['README.md', 'client/generated/api.d.ts', 'docs/openapi.json']);
    expect(typeCheck.status, typeCheck.output).toBe(0);
    expect(tests.status, tests.output).toBe(0);
    expect(readFileSync(join(copy, 'README.md'), 'utf8')).toContain('curl -s $BASE/widgets/archive');
    expect(dirname(join(copy, 'shared/domain/widgets.ts'))).toBe(join(copy, 'shared', 'domain'));
  }, 600_000);

  it('names the domain function after the path: its verb, then the rest', () => {
    // Act / Assess
    expect(['contacts/archive', 'chat/message/send', 'custom-fields/list', 'webhooks/re-deliver'].map(domainFunctionName)).toEqual([
      'archiveContacts',
      'sendChatMessage',
      'listCustomFields',
      'reDeliverWebhooks',
    ]);
  });

  it('adds an import to an existing one from the same module, or a new line after the last import', () => {
    // Prepare
    const source = "import * as v from 'valibot';\nimport { keys, type Key } from '../data/keys';\n\nexport const x = 1;\n";
    // Act
    const merged = withImport(source, ['type ChannelRef', 'keys'], '../data/keys');
    const added = withImport(source, ['described'], '../schema/docs');
    // Assess
    expect(merged).toContain("import { keys, type Key, type ChannelRef } from '../data/keys';");
    expect(added).toBe(
      "import * as v from 'valibot';\nimport { keys, type Key } from '../data/keys';\nimport { described } from '../schema/docs';\n\nexport const x = 1;\n",
    );
  });
});
