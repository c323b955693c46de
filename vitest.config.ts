// The AWS SDK warns on Node 20 (this machine); Lambda runs Node 24.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/worker-setup.ts'],
    // Timeouts catch a hang, not slowness: on a loaded 2-core machine an end-to-end step (each
    // CLI call is a process start) takes many times what it takes on a quiet one.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Test files run in parallel. Most of an end-to-end file's time is spent waiting on its
    // local stack (another process), so one worker more than the cores keeps them busy;
    // vitest's default (cores - 1) runs a 2-core machine's files one at a time.
    // Every file makes its own workspaces, stacks and DATA_DIRs, so files never collide.
    maxWorkers: Number(process.env.TEST_WORKERS) || availableParallelism() + 1,
    // Long files start first, so that no worker ends waiting on one started last (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
  },
});
