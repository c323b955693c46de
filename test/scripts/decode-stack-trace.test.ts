import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUNDLING } from '../../infra/bundling';
import { decodeStackTrace } from '../../scripts/decode-stack-trace';

/** A minified bundle built with the Lambda options throws; its trace, decoded with the map published beside the asset, names the source line. */
describe('npm run decode-trace', () => {
  it('turns the positions of a minified bundle in a stack trace into the source file and line', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'decode-trace-'));
    const entry = join(dir, 'entry.ts');
    await writeFile(
      entry,
      ['export const handler = async () => {', '  const label: string = "x";', '  throw new Error(`boom ${label}`);', '};', ''].join('\n'),
    );
    const outfile = join(dir, 'out', 'index.mjs');
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      minify: true,
      sourcemap: BUNDLING.sourcemap,
      target: BUNDLING.target,
    });
    await writeFile(join(dir, 'run.mjs'), `import('${outfile}').then((m) => m.handler()).catch((error) => { console.log(error.stack); });`);
    const { stdout: trace } = await promisify(execFile)(process.execPath, [join(dir, 'run.mjs')]);
    const map = new SourceMap(JSON.parse(await readFile(`${outfile}.map`, 'utf8')));

    // Act
    const decoded = decodeStackTrace(trace, map);

    // Assess
    expect(trace).toMatch(/index\.mjs:1:\d+/);
    expect(decoded).toMatch(/index\.mjs:1:\d+ \(entry\.ts:3:9\)/);
    expect(decodeStackTrace('at nothing (other.js:1:1)', map)).toBe('at nothing (other.js:1:1)');
  });
});
