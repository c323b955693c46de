/**
 * The in-process synthesis of the template-driven mode and `npm run sam-env`
 * (infra/assembly.ts `synthAssembly`) stands for `npx cdk synth`: both run the one
 * definition of the app (`defineApp`, which infra/app.ts runs under the CLI), so what is
 * left to match is the context the app is given. Here the cdk CLI runs an app that writes
 * down the context it got (the CLI's own defaults change with its version).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASSET_RESOURCE_METADATA_ENABLED_CONTEXT, FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT, PATH_METADATA_ENABLE_CONTEXT } from 'aws-cdk-lib/cx-api';
import { describe, expect, it } from 'vitest';
import { cliContext } from '../../infra/assembly';
import { ROOT } from '../../infra/bundles';

/** A cdk app that writes the context the CLI gave it (CDK_CONTEXT_JSON) beside its cloud assembly: one empty stack. */
const RECORDING_APP = `
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const out = (file, value) => writeFileSync(join(process.env.CDK_OUTDIR, file), JSON.stringify(value));
out('context.json', JSON.parse(process.env.CDK_CONTEXT_JSON));
out('Empty.template.json', { Resources: {} });
out('manifest.json', {
  version: process.env.CDK_CLI_ASM_VERSION,
  artifacts: { Empty: { type: 'aws:cloudformation:stack', environment: 'aws://unknown-account/unknown-region', properties: { templateFile: 'Empty.template.json' } } },
});
`;

function cdk(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'aws-cdk', 'bin', 'cdk'), ...args], {
      cwd: ROOT,
      env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => resolvePromise({ code: code ?? -1, output }));
  });
}

describe('the in-process synthesis (infra/assembly.ts)', () => {
  it('gives the app the context `cdk synth -c samLocal=true` gives it: cdk.json’s, the CLI’s defaults (asset and path metadata among them), the -c value', async () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'cdk-context-'));
    writeFileSync(join(dir, 'app.cjs'), RECORDING_APP);
    try {
      // Act
      const synth = await cdk([
        'synth',
        '--quiet',
        '--no-notices',
        '--app',
        `node ${join(dir, 'app.cjs')}`,
        '--output',
        join(dir, 'out'),
        '-c',
        'samLocal=true',
      ]);
      // Assess
      expect(synth.code, synth.output).toBe(0);
      const given = JSON.parse(readFileSync(join(dir, 'out', 'context.json'), 'utf8')) as Record<string, unknown>;
      // The CLI reports a failed policy validation (cdk-nag) itself, so it tells the app not to throw; in-process the app throws. Either way the synthesis fails.
      expect(given).toEqual({ ...cliContext(), samLocal: 'true', [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false });
      expect(given).toMatchObject({ [ASSET_RESOURCE_METADATA_ENABLED_CONTEXT]: true, [PATH_METADATA_ENABLE_CONTEXT]: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
