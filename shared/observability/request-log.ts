import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { config } from '../config';
import type { RateLimitClass } from '../routes';

/**
 * The API's requests per key as the portal shows them, read back from the one log line
 * every request already writes (shared/http/middleware/envelope.ts: `message` `request`
 * with `keyId`, `rateClass`, `endpoint`, `status`, `error`, `latencyMs`), so serving the
 * API costs no write for them. Two sources behind one port: locally the stack's
 * DATA_DIR/logs/service.log (here), in AWS CloudWatch Logs Insights over the API
 * functions' log groups (REQUEST_LOG_GROUPS; request-log-insights.ts); the portal's
 * domain picks one (shared/domain/portal-keys.ts). docs/PORTAL.md has what each costs.
 * Lines carry no body and no phone number, so neither can reach the portal.
 */

/** One request of a key, as the log line holds it. */
export interface LoggedRequest {
  /** ISO 8601. */
  at: string;
  endpoint: string;
  method: string;
  status: number;
  /** The error code of a refusal, absent on success. */
  error?: string;
  latencyMs: number;
  rateClass: RateLimitClass;
}

/** A key's requests counted per hour (ms since the epoch, floored to the hour), rate class and status. */
export interface RequestCount {
  hour: number;
  rateClass: RateLimitClass;
  status: number;
  requests: number;
}

export interface RequestLog {
  /** The key's latest requests since `since` (ms), newest first, at most `limit`. */
  latest(keyId: string, since: number, limit: number): Promise<LoggedRequest[]>;
  /** The key's requests since `since` (ms), counted per hour, rate class and status. */
  counts(keyId: string, since: number): Promise<RequestCount[]>;
  /** The time (ISO 8601) of each key's latest request since `since` (ms); keys unused since then are absent. */
  lastUsed(keyIds: readonly string[], since: number): Promise<Record<string, string>>;
}

const HOUR_MS = 3_600_000;

/** The log line's fields as written; anything else in the file is skipped. */
interface RequestLine {
  message?: unknown;
  timestamp?: unknown;
  keyId?: unknown;
  endpoint?: unknown;
  method?: unknown;
  status?: unknown;
  error?: unknown;
  latencyMs?: unknown;
  rateClass?: unknown;
}

/**
 * The local source: the stack's own JSON log, read line by line on each call (it is
 * one machine's log; a line naming no key, or not a request, is skipped before parsing).
 */
export function fileRequestLog(file = join(config.dataDir(), 'logs', 'service.log')): RequestLog {
  async function scan(keyIds: readonly string[], since: number, take: (request: LoggedRequest & { keyId: string }) => void): Promise<void> {
    const needles = keyIds.map((keyId) => `"keyId":${JSON.stringify(keyId)}`);
    const stream = createReadStream(file, { encoding: 'utf8' });
    const missing = new Promise<void>((resolve, reject) =>
      stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve() : reject(error))),
    );
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    const read = (async () => {
      for await (const text of lines) {
        if (!needles.some((needle) => text.includes(needle))) continue;
        const request = parsed(text);
        if (request && keyIds.includes(request.keyId) && Date.parse(request.at) >= since) take(request);
      }
    })();
    await Promise.race([read, missing]);
  }
  return {
    async latest(keyId, since, limit) {
      const found: LoggedRequest[] = [];
      await scan([keyId], since, ({ keyId: _keyId, ...request }) => found.push(request));
      return found.sort((a, b) => b.at.localeCompare(a.at)).slice(0, limit);
    },
    async counts(keyId, since) {
      const counted = new Map<string, RequestCount>();
      await scan([keyId], since, ({ at, rateClass, status }) => {
        const hour = Math.floor(Date.parse(at) / HOUR_MS) * HOUR_MS;
        const key = `${hour} ${rateClass} ${status}`;
        const count = counted.get(key) ?? { hour, rateClass, status, requests: 0 };
        count.requests += 1;
        counted.set(key, count);
      });
      return [...counted.values()];
    },
    async lastUsed(keyIds, since) {
      const last: Record<string, string> = {};
      if (keyIds.length === 0) return last;
      await scan(keyIds, since, ({ keyId, at }) => {
        if (!last[keyId] || at > last[keyId]) last[keyId] = at;
      });
      return last;
    },
  };
}

/** A request log line of a key, or undefined for any other line. */
function parsed(text: string): (LoggedRequest & { keyId: string }) | undefined {
  let line: RequestLine;
  try {
    line = JSON.parse(text) as RequestLine;
  } catch {
    return undefined;
  }
  if (line.message !== 'request' || typeof line.keyId !== 'string' || typeof line.timestamp !== 'string' || typeof line.endpoint !== 'string') return undefined;
  return {
    keyId: line.keyId,
    at: line.timestamp,
    endpoint: line.endpoint,
    method: typeof line.method === 'string' ? line.method : 'POST',
    status: Number(line.status),
    ...(typeof line.error === 'string' && { error: line.error }),
    latencyMs: Number(line.latencyMs),
    rateClass: line.rateClass as RateLimitClass,
  };
}
