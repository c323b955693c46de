import { CloudWatchLogsClient, GetQueryResultsCommand, StartQueryCommand, type ResultField } from '@aws-sdk/client-cloudwatch-logs';
import { clock } from '../clock';
import type { RateLimitClass } from '../routes';
import type { LoggedRequest, RequestCount, RequestLog } from './request-log';

/**
 * The request log in AWS: CloudWatch Logs Insights queries over the API functions' log
 * groups (one StartQuery, then GetQueryResults until it completes). A query is billed by
 * the bytes it scans (docs/PORTAL.md); each one names a single key and a time range.
 * Key ids are checked against their shape before they reach a query string.
 */

/** How often GetQueryResults is asked while a query runs, and how long the portal call waits at most. */
const POLL_MS = 250;
const WAIT_MS = 8_000;
const KEY_ID = /^key_[A-Za-z0-9_-]+$/;

let logs: CloudWatchLogsClient | undefined;
const logsClient = () => (logs ??= new CloudWatchLogsClient({}));

/** Runs one query from `since` (ms) to now and returns its rows as field → value. */
export async function runInsightsQuery(
  logGroupNames: readonly string[],
  queryString: string,
  since: number,
  limit?: number,
): Promise<Record<string, string>[]> {
  const { queryId } = await logsClient().send(
    new StartQueryCommand({
      logGroupNames: [...logGroupNames],
      queryString,
      startTime: Math.floor(since / 1000),
      endTime: Math.ceil(clock.now() / 1000),
      ...(limit !== undefined && { limit }),
    }),
  );
  const deadline = clock.realNow() + WAIT_MS;
  for (;;) {
    const result = await logsClient().send(new GetQueryResultsCommand({ queryId }));
    if (result.status === 'Complete') return (result.results ?? []).map(row);
    if (result.status !== 'Running' && result.status !== 'Scheduled') throw new Error(`The request-log query ended ${result.status}`);
    if (clock.realNow() > deadline) throw new Error(`The request-log query did not complete within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const row = (fields: ResultField[]): Record<string, string> => Object.fromEntries(fields.map(({ field, value }) => [field ?? '', value ?? '']));

const keyFilter = (keyIds: readonly string[]) => {
  for (const keyId of keyIds) if (!KEY_ID.test(keyId)) throw new Error(`Not a key id: ${keyId}`);
  return `filter message = 'request' and keyId in [${keyIds.map((keyId) => `'${keyId}'`).join(', ')}]`;
};

/** Insights writes times as `2026-11-27 01:02:03.456` (UTC). */
const isoOf = (insightsTime: string) => new Date(`${insightsTime.replace(' ', 'T')}Z`).toISOString();

export function insightsRequestLog(logGroupNames: readonly string[]): RequestLog {
  return {
    async latest(keyId, since, limit) {
      const query = `fields @timestamp, endpoint, method, status, error, latencyMs, rateClass | ${keyFilter([keyId])} | sort @timestamp desc | limit ${limit}`;
      return (await runInsightsQuery(logGroupNames, query, since, limit)).map((fields): LoggedRequest => ({
        at: isoOf(fields['@timestamp']),
        endpoint: fields.endpoint,
        method: fields.method || 'POST',
        status: Number(fields.status),
        ...(fields.error && { error: fields.error }),
        latencyMs: Number(fields.latencyMs),
        rateClass: fields.rateClass as RateLimitClass,
      }));
    },
    async counts(keyId, since) {
      const query = `${keyFilter([keyId])} | stats count(*) as requests by bin(1h) as hour, rateClass, status`;
      return (await runInsightsQuery(logGroupNames, query, since)).map((fields): RequestCount => ({
        hour: Date.parse(isoOf(fields.hour)),
        rateClass: fields.rateClass as RateLimitClass,
        status: Number(fields.status),
        requests: Number(fields.requests),
      }));
    },
    async lastUsed(keyIds, since) {
      if (keyIds.length === 0) return {};
      const query = `${keyFilter(keyIds)} | stats max(@timestamp) as lastUsedAt by keyId`;
      const rows = await runInsightsQuery(logGroupNames, query, since);
      return Object.fromEntries(rows.map((fields) => [fields.keyId, new Date(Number(fields.lastUsedAt) || isoOf(fields.lastUsedAt)).toISOString()]));
    },
  };
}
