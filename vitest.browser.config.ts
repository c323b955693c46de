// The browser test (npm run test:browser): it needs Chromium (Debian's chromium package),
// so `npm test` leaves it out and .ci/run calls it after installing Chromium.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/worker-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
