/**
 * The CDK app's one definition, and its cloud assembly synthesized in-process.
 * `npx cdk synth` runs infra/app.ts, which defines the app with {@link defineApp}; the
 * template-driven local mode and `npm run sam-env` (scripts/local/template.ts
 * `ensureSynth`) synthesize the same definition in their own process with
 * {@link synthAssembly}, with the context the cdk CLI gives the app, so they write the
 * cloud assembly `cdk synth` writes (templates, asset folders and their `aws:asset:path`
 * metadata, source maps, manifest) without starting the CLI and a second Node process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import {
  ANALYTICS_REPORTING_ENABLED_CONTEXT,
  ASSET_RESOURCE_METADATA_ENABLED_CONTEXT,
  BUNDLING_STACKS,
  PATH_METADATA_ENABLE_CONTEXT,
} from 'aws-cdk-lib/cx-api';
import { ensureBundles, ROOT } from './bundles';
import { loadStageConfig } from './config';
import { addNagChecks } from './nag';
import { WorkspaceApiStack } from './stack';

/**
 * Defines the app: the stage's one stack, checked by cdk-nag. The function assets are
 * copies of the one build (infra/function-code.ts): it is brought up to date first (built
 * only when stale), unless this synthesis bundles no stack (`cdk ls`, `cdk destroy`).
 */
export async function defineApp(app: App): Promise<WorkspaceApiStack> {
  await bundlesFor(app);
  return defineStack(app);
}

async function bundlesFor(app: App): Promise<void> {
  const bundlingStacks = (app.node.tryGetContext(BUNDLING_STACKS) as string[] | undefined) ?? ['**'];
  if (bundlingStacks.length > 0) await ensureBundles();
}

/** The stack and its checks; synchronous, as constructs are (each function's asset is copied here). */
function defineStack(app: App): WorkspaceApiStack {
  const config = loadStageConfig(app);
  const stack = new WorkspaceApiStack(app, `WorkspaceApi-${config.stage}`, { config });
  addNagChecks(app);
  return stack;
}

/**
 * The context `cdk synth` gives the app, without `-c` options: cdk.json's, and what the
 * CLI adds by default (its settings `pathMetadata`, `assetMetadata`, `versionReporting`,
 * `bundlingStacks`). The asset metadata is what writes `aws:asset:path` on each function,
 * which the template-driven mode and SAM find the function's folder by. The app makes no
 * context lookups, so there is no cdk.context.json to add.
 */
export function cliContext(): Record<string, unknown> {
  const { context } = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return {
    ...context,
    [PATH_METADATA_ENABLE_CONTEXT]: true,
    [ASSET_RESOURCE_METADATA_ENABLED_CONTEXT]: true,
    [ANALYTICS_REPORTING_ENABLED_CONTEXT]: true,
    [BUNDLING_STACKS]: ['**'],
  };
}

/** One progress line per asset that CDK's asset staging writes straight to stderr; `cdk synth` shows them, the local uses do not. */
const BUNDLING_PROGRESS = /^Bundling asset \S+\.\.\.\n$/;

/**
 * Synthesizes the app into `outdir` as `npx cdk synth --output <outdir> -c key=value…`
 * does (`context`: the `-c` options), in this process. cdk-nag runs, and a finding it
 * reports as an error fails the synthesis, as it fails `cdk synth`. CDK's built-in
 * CloudFormation validation does not run: it only warns, `cdk synth` still runs it (CI
 * does, .ci/run), and test/infra/production-readiness.test.ts fails on any finding in
 * the documented stages (infra/synth-offline.ts `validationFindings`).
 */
export async function synthAssembly({ outdir, context = {} }: { outdir: string; context?: Record<string, string> }): Promise<void> {
  const app = new App({ outdir, context: { ...cliContext(), ...context }, builtinCloudFormationValidation: false });
  await bundlesFor(app);
  // Defining the stack (which stages the assets) and synthesizing are synchronous: nothing
  // else of this process writes while the filter is in place.
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
    typeof chunk === 'string' && BUNDLING_PROGRESS.test(chunk) ? true : write.call(process.stderr, chunk, ...(rest as []))) as typeof process.stderr.write;
  try {
    defineStack(app);
    app.synth();
  } finally {
    process.stderr.write = write;
  }
}
