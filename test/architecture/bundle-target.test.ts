import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BUNDLING, LAMBDA_RUNTIME_NAME, LOCAL_NODE_TARGET } from '../../infra/bundling';
import { bundlePath, bundleTargets } from '../../infra/bundles';

/**
 * The bundles target Lambda's Node (infra/bundling.ts: `node24` for `nodejs24.x`), but the
 * local stack, the tests and the bench run the very same files on this machine's Node
 * (20). esbuild keeps syntax the target supports as written, so a dependency or a line of
 * ours that brings newer syntax (a `using` declaration, a RegExp modifier) would reach
 * the bundles untouched: this parses every bundle with the local Node, as `node --check`
 * does (V8 compiles the file as a module, which reports early errors anywhere in it, inner
 * functions included), all in one process, and fails naming the bundle, instead of the
 * local stack failing with a SyntaxError.
 */
const PARSE_EACH_FILE = `
const { readFileSync } = require('node:fs');
const { SourceTextModule } = require('node:vm');
const verdicts = process.argv.slice(1).map((file) => {
  try {
    new SourceTextModule(readFileSync(file, 'utf8'), { identifier: file });
    return 'ok';
  } catch (error) {
    return error instanceof SyntaxError ? 'SyntaxError: ' + error.message : 'failed: ' + error;
  }
});
process.stdout.write(JSON.stringify(verdicts));
`;

/** Each file's verdict, in order: 'ok', or the SyntaxError the local Node raises parsing it. */
async function parse(files: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--experimental-vm-modules', '--no-warnings', '-e', PARSE_EACH_FILE, '--', ...files], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as string[];
}

describe('the bundles’ target', () => {
  it(`builds for ${LAMBDA_RUNTIME_NAME} (${BUNDLING.target}) only what the local Node (${process.version}) parses`, async () => {
    // Prepare
    const names = bundleTargets().map((target) => target.name);

    // Act
    const verdicts = await parse(names.map(bundlePath));
    const refused = names.map((name, i) => `${name}: ${verdicts[i]}`).filter((_, i) => verdicts[i] !== 'ok');

    // Assess
    expect(LAMBDA_RUNTIME_NAME).toBe(`nodejs${BUNDLING.target.replace('node', '')}.x`);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(Number(LOCAL_NODE_TARGET.replace('node', '')));
    expect(names.length).toBeGreaterThan(20);
    expect(refused).toEqual([]);
  });

  it('tells syntax newer than the local Node apart, in an inner function too', async () => {
    // Prepare: what Node 24 runs and Node 20 does not.
    const dir = await mkdtemp(join(tmpdir(), 'bundle-target-'));
    const newer = join(dir, 'newer.mjs');
    await writeFile(newer, 'export function g(r) { return () => { using x = r; return /(?i:a)b/.test(x); }; }\n');
    const plain = join(dir, 'plain.mjs');
    await writeFile(plain, 'export function g(r) { return () => /a/i.test(r); }\n');

    // Act
    const verdicts = await parse([newer, plain]);

    // Assess
    expect(verdicts[0]).toMatch(/^SyntaxError/);
    expect(verdicts[1]).toBe('ok');
  });
});
