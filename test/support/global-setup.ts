import type { TestProject } from 'vitest/node';
import { ensureBundles } from '../../infra/bundles';
import { ensureTable, startStore } from '../../scripts/local/store';
import { bundleScripts } from './script-bundles';
import { auditRun, prepareLogCapture } from './log-audit';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    /** Where workers and local stacks capture their log lines for the log audit ('' when off: LOG_CAPTURE=0). */
    logCaptureDir: string;
    /** The folder of this run's bundles of `npm start` and the operator CLI (test/support/script-bundles.ts); '' when none were made (SCRIPT_BUNDLES=0). */
    scriptBundles: string;
  }
}

/** One in-memory dynalite for the whole run; every test makes its own workspaces, so files never collide. */
export default async function setup(project: TestProject) {
  // The end-to-end suites start local stacks that run these bundles, as CDK would deploy them.
  await ensureBundles();
  // SCRIPT_BUNDLES=0 (a run of test files that start no script, such as new-endpoint's run in
  // its copy): nothing bundled, and a script a test did start would run through tsx.
  const scriptBundles = process.env.SCRIPT_BUNDLES === '0' ? undefined : await bundleScripts();
  project.provide('scriptBundles', scriptBundles?.folder ?? '');
  const store = await startStore(undefined);
  await ensureTable(store.endpoint);
  project.provide('dynamodbEndpoint', store.endpoint);
  // Every log line of the run is captured and, once all tests ended, searched for secrets (docs/RELIABILITY.md).
  const logCaptureDir = process.env.LOG_CAPTURE === '0' ? '' : prepareLogCapture();
  project.provide('logCaptureDir', logCaptureDir);
  return async () => {
    await store.close();
    await scriptBundles?.remove();
    if (logCaptureDir) await auditRun(logCaptureDir);
  };
}
