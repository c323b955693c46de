import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * shared/config.ts: every setting parsed by its schema, the whole environment checked as
 * the module loads (a bad value names its variable), each getter reading its variable
 * when called.
 */
const VARIABLES = [
  'GRAPH_API_TIMEOUT_MS',
  'KEY_CACHE_MS',
  'WEBHOOK_ALLOW_LOOPBACK',
  'POWERTOOLS_LOG_LEVEL',
  'AWS_LAMBDA_LOG_LEVEL',
  'STAGE',
  'RATE_LIMIT_API_WRITE',
  'EVENT_QUEUE_URL',
];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

/** A fresh copy of the module, loaded with `env` set (undefined deletes a variable). */
async function loadConfig(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  vi.resetModules();
  return import('../../shared/config');
}

describe('configuration (shared/config.ts)', () => {
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    vi.resetModules();
  });

  it.each([
    ['GRAPH_API_TIMEOUT_MS', 'soon', /GRAPH_API_TIMEOUT_MS must be a number of milliseconds/],
    ['GRAPH_API_TIMEOUT_MS', '0', /GRAPH_API_TIMEOUT_MS must be at least 1/],
    ['KEY_CACHE_MS', '10001', /KEY_CACHE_MS must be at most 10000 \(a revoked key stops working within 10 s\)/],
    ['WEBHOOK_ALLOW_LOOPBACK', 'yes', /WEBHOOK_ALLOW_LOOPBACK must be true or false/],
    ['POWERTOOLS_LOG_LEVEL', 'verbose', /POWERTOOLS_LOG_LEVEL must be one of DEBUG, INFO, WARN, ERROR, SILENT/],
    ['RATE_LIMIT_API_WRITE', '2.5', /RATE_LIMIT_API_WRITE must be a whole number of requests a minute/],
    ['EVENT_QUEUE_URL', 'queue', /EVENT_QUEUE_URL must be a URL/],
  ])('refuses to load with %s=%s, naming the variable', async (name, value, message) => {
    // Act
    const loading = loadConfig({ [name]: value });

    // Assess
    await expect(loading).rejects.toThrow(message);
  });

  it('gives unset and empty variables their defaults', async () => {
    // Act
    const { config, rateLimitFor } = await loadConfig({
      GRAPH_API_TIMEOUT_MS: '',
      KEY_CACHE_MS: undefined,
      STAGE: undefined,
      POWERTOOLS_LOG_LEVEL: undefined,
      AWS_LAMBDA_LOG_LEVEL: undefined,
      RATE_LIMIT_API_WRITE: undefined,
    });

    // Assess
    expect([config.graphApiTimeoutMs(), config.keyCacheMs(), config.stage(), config.logLevel(), rateLimitFor('api_write')]).toEqual([
      4000,
      10_000,
      'local',
      'INFO',
      300,
    ]);
  });

  it("reads a variable when asked, so a value set after loading applies, and takes Lambda's log level in its own terms", async () => {
    // Prepare
    const { config, rateLimitFor } = await loadConfig({ POWERTOOLS_LOG_LEVEL: undefined, AWS_LAMBDA_LOG_LEVEL: 'TRACE', RATE_LIMIT_API_WRITE: undefined });
    const before = [config.logLevel(), rateLimitFor('api_write')];

    // Act
    process.env.POWERTOOLS_LOG_LEVEL = 'warn';
    process.env.RATE_LIMIT_API_WRITE = '7';

    // Assess
    expect(before).toEqual(['DEBUG', 300]);
    expect([config.logLevel(), rateLimitFor('api_write')]).toEqual(['WARN', 7]);
  });

  it('refuses a bad value set after loading when it is read', async () => {
    // Prepare
    const { config } = await loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' });

    // Act
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'maybe';

    // Assess
    expect(() => config.webhookAllowLoopback()).toThrow(/WEBHOOK_ALLOW_LOOPBACK must be true or false/);
  });
});
