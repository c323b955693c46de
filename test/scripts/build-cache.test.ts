import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStampPath, bundlePath, DIST, ensureBundles, ROOT, type BundleTarget } from '../../infra/bundles';

/** A bundle of its own (a source file under dist/, which git ignores), so the run's real bundles are not touched. */
const probeDir = join(ROOT, 'dist', `.build-cache-probe-${process.pid}`);
const target: BundleTarget = { name: `BuildCacheProbe${process.pid}`, entry: `dist/.build-cache-probe-${process.pid}/entry.ts` };
const helper = join(probeDir, 'helper.ts');
/** The same bundle built another way (another option set or target list: here another entry, so other code in the same folder). */
const variant: BundleTarget = { ...target, entry: `dist/.build-cache-probe-${process.pid}/other-entry.ts` };

describe('ensureBundles', () => {
  afterAll(async () => {
    await rm(probeDir, { recursive: true, force: true });
    await rm(join(DIST, target.name), { recursive: true, force: true });
    await rm(buildStampPath([target]), { force: true });
    await rm(buildStampPath([variant]), { force: true });
  });

  it('builds once, then only when a file the bundle read changes or the bundle is gone', async () => {
    // Prepare
    await mkdir(probeDir, { recursive: true });
    await writeFile(join(probeDir, 'entry.ts'), "import { answer } from './helper';\nexport const handler = () => answer;\n");
    await writeFile(helper, 'export const answer = 1;\n');
    // Act
    const first = await ensureBundles([target]);
    const again = await ensureBundles([target]);
    const later = new Date(Date.now() + 60_000);
    await utimes(helper, later, later);
    const afterEdit = await ensureBundles([target]);
    await rm(join(DIST, target.name), { recursive: true, force: true });
    const afterRemoval = await ensureBundles([target]);
    // Assess
    expect([first, again, afterEdit, afterRemoval]).toEqual(['built', 'current', 'built', 'built']);
    expect(bundlePath(target.name)).toContain(target.name);
  });

  it("counts the build's own code and the settings that shape it among what it read", async () => {
    // Prepare
    await mkdir(probeDir, { recursive: true });
    await writeFile(join(probeDir, 'entry.ts'), "import { answer } from './helper';\nexport const handler = () => answer;\n");
    await writeFile(helper, 'export const answer = 3;\n');
    // Act
    await ensureBundles([target]);
    const stamp = JSON.parse(await readFile(buildStampPath([target]), 'utf8')) as { inputs: string[] };
    // Assess
    for (const file of ['infra/bundles.ts', 'tsconfig.json', 'package.json', 'package-lock.json', 'dist/.build-cache-probe-' + process.pid + '/helper.ts']) {
      expect(stamp.inputs, file).toContain(join(ROOT, file));
    }
  });

  it('rebuilds a bundle that another option set built since, though its own stamp is still there', async () => {
    // Prepare
    await mkdir(probeDir, { recursive: true });
    await writeFile(join(probeDir, 'entry.ts'), 'export const handler = () => 2;\n');
    await writeFile(join(probeDir, 'other-entry.ts'), 'export const handler = () => 20;\n');
    await writeFile(helper, 'export const answer = 2;\n');
    await ensureBundles([target]);
    // Act
    const other = await ensureBundles([variant]);
    const back = await ensureBundles([target]);
    const again = await ensureBundles([target]);
    // Assess: the CDK app copies dist/ into the assets, so a bundle of other options must never pass as current
    expect([other, back, again]).toEqual(['built', 'built', 'current']);
  });
});
