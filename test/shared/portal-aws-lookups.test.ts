/**
 * The portal's AWS lookups against the real AWS SDK clients with their transport mocked
 * (aws-sdk-client-mock): the command inputs they send (what IAM, Logs Insights and API
 * Gateway will see) and how they read the answers. The local stack uses the file request
 * log and no usage plan, so only these tests exercise the AWS side before a deployment.
 */
import { APIGatewayClient, GetUsagePlansCommand } from '@aws-sdk/client-api-gateway';
import { CloudWatchLogsClient, GetQueryResultsCommand, StartQueryCommand } from '@aws-sdk/client-cloudwatch-logs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { usagePlanIdNamed } from '../../shared/auth/usage-plan-keys';
import { clock } from '../../shared/clock';
import { insightsRequestLog } from '../../shared/observability/request-log-insights';

const logs = mockClient(CloudWatchLogsClient);
const gateway = mockClient(APIGatewayClient);
const GROUPS = ['/aws/lambda/ContactsList', '/aws/lambda/ChannelsList'];
const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const WEEK_AGO = NOW - 7 * 86_400_000;

beforeEach(() => {
  logs.reset();
  gateway.reset();
  clock.freeze(NOW);
});
afterAll(() => {
  logs.restore();
  gateway.restore();
  clock.reset();
});

const field = (name: string, value: string) => ({ field: name, value });

describe('the request log in AWS (CloudWatch Logs Insights)', () => {
  it("asks one query for a key's latest requests over the API's log groups, polls until it completes, and reads its rows", async () => {
    // Prepare
    logs.on(StartQueryCommand).resolves({ queryId: 'q-1' });
    logs
      .on(GetQueryResultsCommand)
      .resolvesOnce({ status: 'Running' })
      .resolvesOnce({
        status: 'Complete',
        results: [
          [
            field('@timestamp', '2026-11-27 11:59:58.123'),
            field('endpoint', 'contacts/list'),
            field('method', 'GET'),
            field('status', '404'),
            field('error', 'not_found'),
            field('latencyMs', '37'),
            field('rateClass', 'api_read'),
          ],
        ],
      });

    // Act
    const latest = await insightsRequestLog(GROUPS).latest('key_abc123', WEEK_AGO, 100);

    // Assess
    expect(logs.commandCalls(StartQueryCommand).map((call) => call.args[0].input)).toEqual([
      {
        logGroupNames: GROUPS,
        queryString:
          "fields @timestamp, endpoint, method, status, error, latencyMs, rateClass | filter message = 'request' and keyId in ['key_abc123'] | sort @timestamp desc | limit 100",
        startTime: WEEK_AGO / 1000,
        endTime: NOW / 1000,
        limit: 100,
      },
    ]);
    expect(logs.commandCalls(GetQueryResultsCommand).map((call) => call.args[0].input)).toEqual([{ queryId: 'q-1' }, { queryId: 'q-1' }]);
    expect(latest).toEqual([
      { at: '2026-11-27T11:59:58.123Z', endpoint: 'contacts/list', method: 'GET', status: 404, error: 'not_found', latencyMs: 37, rateClass: 'api_read' },
    ]);
  });

  it('counts by hour, rate class and status, and finds the last use of several keys in one query', async () => {
    // Prepare
    logs.on(StartQueryCommand).resolves({ queryId: 'q-2' });
    logs
      .on(GetQueryResultsCommand)
      .resolvesOnce({
        status: 'Complete',
        results: [[field('hour', '2026-11-27 11:00:00.000'), field('rateClass', 'api_write'), field('status', '429'), field('requests', '3')]],
      })
      .resolvesOnce({ status: 'Complete', results: [[field('keyId', 'key_b'), field('lastUsedAt', '2026-11-27 10:00:00.000')]] });

    // Act
    const log = insightsRequestLog(GROUPS);
    const counts = await log.counts('key_a', WEEK_AGO);
    const lastUsed = await log.lastUsed(['key_a', 'key_b'], WEEK_AGO);

    // Assess
    expect(logs.commandCalls(StartQueryCommand).map((call) => call.args[0].input.queryString)).toEqual([
      "filter message = 'request' and keyId in ['key_a'] | stats count(*) as requests by bin(1h) as hour, rateClass, status",
      "filter message = 'request' and keyId in ['key_a', 'key_b'] | stats max(@timestamp) as lastUsedAt by keyId",
    ]);
    expect(logs.commandCalls(StartQueryCommand)[0].args[0].input).not.toHaveProperty('limit');
    expect(counts).toEqual([{ hour: Date.parse('2026-11-27T11:00:00.000Z'), rateClass: 'api_write', status: 429, requests: 3 }]);
    expect(lastUsed).toEqual({ key_b: '2026-11-27T10:00:00.000Z' });
  });

  it('refuses anything but a key id before a query is started, and a failed query in words', async () => {
    // Prepare
    logs.on(StartQueryCommand).resolves({ queryId: 'q-3' });
    logs.on(GetQueryResultsCommand).resolves({ status: 'Failed' });
    const log = insightsRequestLog(GROUPS);

    // Act + Assess
    await expect(log.latest("key_a'] | fields @message | filter ['x", WEEK_AGO, 10)).rejects.toThrow(/Not a key id/);
    expect(logs.commandCalls(StartQueryCommand)).toHaveLength(0);
    await expect(log.counts('key_a', WEEK_AGO)).rejects.toThrow('The request-log query ended Failed');
    expect(await log.lastUsed([], WEEK_AGO)).toEqual({});
    expect(logs.commandCalls(StartQueryCommand)).toHaveLength(1);
  });
});

describe('the usage plan by name (API Gateway)', () => {
  it('pages GetUsagePlans until it finds the name, then keeps the id for the container', async () => {
    // Prepare
    gateway
      .on(GetUsagePlansCommand)
      .resolvesOnce({ items: [{ id: 'other', name: 'someone-else' }], position: 'next-page' })
      .resolvesOnce({ items: [{ id: 'plan42', name: 'workspace-dev-api-keys' }] });

    // Act
    const first = await usagePlanIdNamed('workspace-dev-api-keys');
    const again = await usagePlanIdNamed('workspace-dev-api-keys');

    // Assess
    expect([first, again]).toEqual(['plan42', 'plan42']);
    // Two pages, the second asked from the first's position (the SDK's paginator reuses one input object, so only the last is as sent)
    const calls = gateway.commandCalls(GetUsagePlansCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1].args[0].input).toEqual({ limit: 500, position: 'next-page' });
  });

  it('says so when no plan has the name', async () => {
    // Prepare
    gateway.on(GetUsagePlansCommand).resolves({ items: [{ id: 'other', name: 'someone-else' }] });

    // Act + Assess
    await expect(usagePlanIdNamed('missing-plan')).rejects.toThrow('No usage plan named missing-plan');
  });
});
