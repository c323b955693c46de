import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/channels-list';
import { BUNDLING } from '../../infra/bundling';
import { bundlePath } from '../../infra/bundles';
import { API_ROUTES } from '../../shared/routes';
import { logger } from '../../shared/observability/logger';
import { countAutomationTriggered, countMessageFailed, countMessageSent } from '../../shared/observability/metrics';
import { TRACING_ENABLED } from '../../shared/observability/tracing';
import { callApi } from '../support/api';
import { emfLines, jsonLines } from '../support/stdout';
import { createTenant } from '../support/tenants';

const metricNames = (line: any): string[] => line._aws.CloudWatchMetrics[0].Metrics.map((m: { Name: string }) => m.Name);

describe('observability', () => {
  afterEach(() => {
    delete process.env.RATE_LIMIT_API_READ;
    delete process.env.STAGE;
  });

  it('counts every API request by endpoint and status class in CloudWatch EMF, and rate-limit refusals', async () => {
    // Prepare
    const tenant = await createTenant(1);
    process.env.RATE_LIMIT_API_READ = '1';

    // Act
    const lines = await emfLines(async () => {
      await callApi(handler, { apiKey: tenant.adminKey });
      await callApi(handler, { apiKey: tenant.adminKey });
    });

    // Assess
    expect(lines).toHaveLength(2);
    const [ok, refused] = lines;
    expect(ok._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'WorkspaceApi', Dimensions: [['service', 'stage', 'endpoint', 'statusClass']] });
    expect(ok).toMatchObject({ service: 'workspace-api', stage: 'local', endpoint: 'channels/list', statusClass: '2xx', Requests: 1 });
    expect(metricNames(ok)).toEqual(['Requests']);
    expect(refused).toMatchObject({ endpoint: 'channels/list', statusClass: '4xx', Requests: 1, RateLimitRefusals: 1 });
  });

  it('offers counters for messages sent and failed and automations triggered, under the STAGE of the deployment', async () => {
    // Prepare
    process.env.STAGE = 'prod';

    // Act
    const lines = await emfLines(() => {
      countMessageSent('template');
      countMessageFailed('text');
      countAutomationTriggered();
    });

    // Assess
    expect(lines.map((line) => [metricNames(line), line.messageType])).toEqual([
      [['MessagesSent'], 'template'],
      [['MessagesFailed'], 'text'],
      [['AutomationsTriggered'], undefined],
    ]);
    expect(lines.map((line) => [line.stage, line._aws.CloudWatchMetrics[0].Dimensions])).toEqual([
      ['prod', [['service', 'stage', 'messageType']]],
      ['prod', [['service', 'stage', 'messageType']]],
      ['prod', [['service', 'stage']]],
    ]);
  });

  it('writes one JSON log line per event in the Powertools shape, errors as fields, filtered by level', async () => {
    // Prepare
    const previous = process.env.POWERTOOLS_LOG_LEVEL;
    process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
    const failure = new TypeError('boom');

    try {
      // Act
      const lines = await jsonLines(() => {
        logger.info('not at this level', { a: 1 });
        logger.warn('slow call', { latencyMs: 12 });
        logger.error('request failed', { error: failure });
      });

      // Assess
      expect(lines).toHaveLength(2);
      expect(lines[0]).toEqual({
        level: 'WARN',
        message: 'slow call',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        service: 'workspace-api',
        latencyMs: 12,
      });
      expect(lines[1]).toMatchObject({
        level: 'ERROR',
        message: 'request failed',
        error: { name: 'TypeError', message: 'boom', stack: expect.stringContaining('boom') },
      });
    } finally {
      if (previous === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
      else process.env.POWERTOOLS_LOG_LEVEL = previous;
    }
  });

  it('writes nothing at level SILENT, and no metrics when they are disabled', async () => {
    // Prepare
    const previous = process.env.POWERTOOLS_LOG_LEVEL;
    process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';

    try {
      // Act
      const lines = await jsonLines(() => {
        logger.error('hidden');
        countMessageSent('text');
      });

      // Assess
      expect(lines).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
      else process.env.POWERTOOLS_LOG_LEVEL = previous;
      delete process.env.POWERTOOLS_METRICS_DISABLED;
    }
  });

  it('keeps tracing off by default, and the tracer out of the default bundles', async () => {
    // Act
    const bundle = await readFile(bundlePath('ChannelsList'), 'utf8');

    // Assess
    expect(TRACING_ENABLED).toBe(false);
    expect(BUNDLING.define['process.env.POWERTOOLS_TRACER_ENABLED']).toBe('"false"');
    expect(bundle).toContain('WorkspaceApi');
    expect(bundle).not.toContain('AWS_XRAY_CONTEXT_MISSING');
  });

  it('loads the tracer on the first request when POWERTOOLS_TRACER_ENABLED=true (a no-op outside Lambda)', async () => {
    // Prepare
    vi.resetModules();
    process.env.POWERTOOLS_TRACER_ENABLED = 'true';
    try {
      const { TRACING_ENABLED: enabled } = await import('../../shared/observability/tracing');
      const { tracing } = await import('../../shared/http/middleware/tracing');
      const middleware = tracing(API_ROUTES[0]);
      const request = { event: {}, context: {}, response: { statusCode: 200 } } as never;

      // Act
      await middleware.before(request);
      middleware.after(request);

      // Assess
      expect(enabled).toBe(true);
    } finally {
      delete process.env.POWERTOOLS_TRACER_ENABLED;
      vi.resetModules();
    }
  });
});
