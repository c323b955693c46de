import type { TestProject } from 'vitest/node';
import { ensureBundles } from '../../scripts/build';
import { ensureTable, startStore } from '../../scripts/local/store';
import { bundleAdminCli } from './admin-cli';
import { auditRun, prepareLogCapture } from './log-audit';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    /** Where workers and local stacks capture their log lines for the log audit ('' when off: LOG_CAPTURE=0). */
    logCaptureDir: string;
    /** The operator CLI bundled for this run (test/support/admin-cli.ts). */
    adminCli: string;
  }
}

/** One in-memory dynalite for the whole run; every test makes its own workspaces, so files never collide. */
export default async function setup(project: TestProject) {
  // The end-to-end suites start local stacks that run these bundles, as CDK would deploy them.
  await ensureBundles();
  const adminCli = await bundleAdminCli();
  project.provide('adminCli', adminCli.path);
  const store = await startStore(undefined);
  await ensureTable(store.endpoint);
  project.provide('dynamodbEndpoint', store.endpoint);
  // Every log line of the run is captured and, once all tests ended, searched for secrets (docs/RELIABILITY.md).
  const logCaptureDir = process.env.LOG_CAPTURE === '0' ? '' : prepareLogCapture();
  project.provide('logCaptureDir', logCaptureDir);
  return async () => {
    await store.close();
    await adminCli.remove();
    if (logCaptureDir) await auditRun(logCaptureDir);
  };
}
