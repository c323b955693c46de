// The AWS SDK warns on Node 20 (this machine); Lambda runs Node 24.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Every process the run starts (vitest's workers, local stacks, operator-CLI calls) talks only
// to this machine, over plain HTTP. A CA bundle a machine adds for outbound TLS
// (NODE_EXTRA_CA_CERTS) is read and parsed by each Node process at its start, hundreds of
// times a run, and none of them uses it: the processes started from here go without.
delete process.env.NODE_EXTRA_CA_CERTS;

import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SHARED_POOL_FILES } from './test/support/shared-pool';

/**
 * Longest files first, so that the run does not end waiting on one long file started last
 * while the other workers idle. With every file's duration in vitest's cache (a re-run),
 * vitest's own order already is that (failed first, then longest). Without it (a fresh
 * clone, CI: the cache lives in node_modules) vitest keeps the order it found the files
 * in, and the long files come last; then the files that are long by what they do go first:
 */
const LONG_BY_WHAT_THEY_DO = [
  // SIGKILL and restart local stacks mid-run, and import thousands of rows twice
  /^test\/reliability\/.*\.e2e\.test\.ts$/,
  // copies the tree, type-checks it and runs a vitest of its own
  /^test\/architecture\/new-endpoint\.test\.ts$/,
  // each starts one or more local stacks (a process with its own store)
  /\.e2e\.test\.ts$/,
];

/** Then the others, larger files (more tests) first. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const path = (file: TestSpecification) => relative(file.project.config.root, file.moduleId);
    const known = files.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`));
    if (known) return super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONG_BY_WHAT_THEY_DO.findIndex((pattern) => pattern.test(path(file)));
      return index === -1 ? LONG_BY_WHAT_THEY_DO.length : index;
    };
    const size = (file: TestSpecification) => statSync(file.moduleId).size;
    return [...files].sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
  }
}

/** What both projects below share. */
const EVERY_FILE = {
  exclude: ['test/browser/**', 'node_modules/**'],
  setupFiles: ['test/support/worker-setup.ts'],
  // Timeouts catch a hang, not slowness: on a loaded 2-core machine an end-to-end step (each
  // CLI call is a process start) takes many times what it takes on a quiet one.
  testTimeout: 120_000,
  hookTimeout: 180_000,
};

export default defineConfig({
  test: {
    // The run's global setup (one dynalite, the bundles, the log audit) belongs to the root
    // config, which vitest sets up once whichever projects run; the projects inherit what it provides.
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      // Each file in a fresh process: a file may set the environment, mock modules, shift the
      // service clock or provide queues, and the next file must not see it.
      { test: { ...EVERY_FILE, name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...EVERY_FILE.exclude, ...SHARED_POOL_FILES], pool: 'forks' } },
      // The files that leave no state behind (test/support/shared-pool.ts, checked by
      // test/architecture/shared-pool.test.ts) share one module graph per worker thread, so the
      // data layer, the AWS SDK, aws-cdk-lib and the compiler load once per worker, not once per file.
      { test: { ...EVERY_FILE, name: 'shared', include: SHARED_POOL_FILES, pool: 'threads', isolate: false } },
    ],
    // Test files run in parallel. Most of an end-to-end file's time is spent waiting on its
    // local stack (another process), so one worker more than the cores keeps them busy;
    // vitest's default (cores - 1) runs a 2-core machine's files one at a time.
    // Every file makes its own workspaces, stacks and DATA_DIRs, so files never collide.
    maxWorkers: Number(process.env.TEST_WORKERS) || availableParallelism() + 1,
    // Long files start first, so that no worker ends waiting on one started last (LongestFirst above).
    sequence: { sequencer: LongestFirst },
  },
});
