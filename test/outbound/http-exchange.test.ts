import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clock } from '../../shared/clock';
import {
  exchangeIdempotent,
  exchangeOnce,
  exchangeWithoutRepeat,
  fateOf,
  parseRetryAfter,
  retryPolicy,
  type Exchange,
} from '../../shared/outbound/http-exchange';
import { outboundDeadline, OUTCOME_MARGIN_MS, withInvocationDeadline } from '../../shared/outbound/deadline';
import { closedPortUrl } from '../chat/helpers';

/** What the scripted server does with one request. */
type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'drop';

let server: Server;
let baseUrl: string;
let script: Reply[];
let received: number;
let sleeps: number[];

/** A local server answering each request with the next scripted reply (200 `{}` once they run out). */
function handle(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  req.on('end', () => {
    received++;
    const reply = script.shift() ?? { status: 200, body: {} };
    if (reply === 'hang') return;
    if (reply === 'drop') {
      res.socket?.destroy();
      return;
    }
    // No keep-alive: a socket reused across tests could be one a test closed.
    res.writeHead(reply.status, { 'Content-Type': 'application/json', Connection: 'close', ...reply.headers });
    res.end(JSON.stringify(reply.body ?? {}));
  });
}

const policy = (options: Parameters<typeof retryPolicy>[0] = {}) =>
  retryPolicy({
    timeoutMs: 2_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });

const POST = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"to":"1"}' };
const GET = { method: 'GET', headers: {} };

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  script = [];
  received = 0;
  sleeps = [];
});

afterEach(() => {
  clock.reset();
});

describe('one exchange', () => {
  it('reads the status, headers and JSON body of an answer', async () => {
    // Prepare
    script = [{ status: 201, body: { id: 'x' }, headers: { 'X-Trace': 't1' } }];
    // Act
    const exchange = await exchangeOnce(`${baseUrl}/hook`, POST, 2_000);
    // Assess
    expect(exchange).toMatchObject({ kind: 'answered', status: 201, body: { id: 'x' } });
    expect((exchange as Extract<Exchange, { kind: 'answered' }>).headers.get('x-trace')).toBe('t1');
    expect(fateOf(exchange)).toBe('sent');
  });

  it('calls a refused connection not reached: not sent', async () => {
    // Prepare
    const url = await closedPortUrl();
    // Act
    const exchange = await exchangeOnce(url, POST, 2_000);
    // Assess
    expect(exchange.kind).toBe('not_reached');
    expect(fateOf(exchange)).toBe('not_sent');
  });

  it('calls a timeout lost, with the time it waited: unknown', async () => {
    // Prepare
    script = ['hang'];
    // Act
    const exchange = await exchangeOnce(`${baseUrl}/hook`, POST, 100);
    // Assess
    expect(exchange).toMatchObject({ kind: 'lost', timedOut: true, timeoutMs: 100 });
    expect(fateOf(exchange)).toBe('unknown');
  });

  it('calls a connection dropped after the request lost, not timed out: unknown', async () => {
    // Prepare
    script = ['drop'];
    // Act
    const exchange = await exchangeOnce(`${baseUrl}/hook`, POST, 2_000);
    // Assess
    expect(exchange).toMatchObject({ kind: 'lost', timedOut: false });
    expect(received).toBe(1);
  });

  it('tells the fate of answers: below 500 sent, 429 not sent, 5xx unknown', async () => {
    // Prepare
    script = [{ status: 400 }, { status: 429 }, { status: 502 }];
    // Act
    const fates = [];
    for (let i = 0; i < 3; i++) fates.push(fateOf(await exchangeOnce(`${baseUrl}/hook`, POST, 2_000)));
    // Assess
    expect(fates).toEqual(['sent', 'not_sent', 'unknown']);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, and ignores what it cannot read', () => {
    // Prepare
    clock.freeze(Date.UTC(2026, 0, 1, 12, 0, 0));
    // Act
    const values = [
      parseRetryAfter('3'),
      parseRetryAfter('Thu, 01 Jan 2026 12:00:07 GMT'),
      parseRetryAfter('soon'),
      parseRetryAfter(null),
      parseRetryAfter('-4'),
    ];
    // Assess
    expect(values).toEqual([3, 7, undefined, undefined, 0]);
  });
});

describe('a request with side effects', () => {
  it('is never made again after a 5xx or a timeout', async () => {
    // Prepare
    script = [{ status: 500 }, 'hang'];
    // Act
    const serverError = await exchangeWithoutRepeat(`${baseUrl}/hook`, POST, policy());
    const timedOut = await exchangeWithoutRepeat(`${baseUrl}/hook`, POST, policy({ timeoutMs: 100 }));
    // Assess
    expect(serverError).toMatchObject({ kind: 'answered', status: 500 });
    expect(timedOut).toMatchObject({ kind: 'lost', timedOut: true });
    expect(received).toBe(2);
    expect(sleeps).toEqual([]);
  });

  it('waits out a 429 within the cap and tries again', async () => {
    // Prepare
    script = [
      { status: 429, headers: { 'Retry-After': '1' } },
      { status: 200, body: { ok: true } },
    ];
    // Act
    const exchange = await exchangeWithoutRepeat(`${baseUrl}/hook`, POST, policy());
    // Assess
    expect(exchange).toMatchObject({ kind: 'answered', status: 200, body: { ok: true } });
    expect(sleeps).toEqual([1_000]);
    expect(received).toBe(2);
  });

  it('hands back a 429 above the cap without waiting', async () => {
    // Prepare
    script = [{ status: 429, headers: { 'Retry-After': '30' } }];
    // Act
    const exchange = await exchangeWithoutRepeat(`${baseUrl}/hook`, POST, policy({ maxRetryAfterSeconds: 5 }));
    // Assess
    expect(exchange).toMatchObject({ kind: 'answered', status: 429 });
    expect(sleeps).toEqual([]);
    expect(received).toBe(1);
  });

  it('tries a refused connection again with growing backoff, up to maxAttempts', async () => {
    // Prepare
    const url = await closedPortUrl();
    // Act
    const exchange = await exchangeWithoutRepeat(url, POST, policy({ maxAttempts: 3, backoffBaseMs: 100 }));
    // Assess
    expect(exchange.kind).toBe('not_reached');
    expect(sleeps).toEqual([75, 150]);
  });
});

describe('a request without side effects', () => {
  it('is made again after 5xx and timeouts, until an answer', async () => {
    // Prepare
    script = [{ status: 503 }, 'hang', { status: 200, body: { data: [] } }];
    // Act
    const exchange = await exchangeIdempotent(`${baseUrl}/list`, GET, policy({ timeoutMs: 100 }));
    // Assess
    expect(exchange).toMatchObject({ kind: 'answered', status: 200, body: { data: [] } });
    expect(received).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('stops at a refusal below 500, and hands back the last failure after maxAttempts', async () => {
    // Prepare
    script = [{ status: 404 }, { status: 500 }, { status: 502 }];
    // Act
    const refused = await exchangeIdempotent(`${baseUrl}/list`, GET, policy());
    const failing = await exchangeIdempotent(`${baseUrl}/list`, GET, policy({ maxAttempts: 2 }));
    // Assess
    expect(refused).toMatchObject({ kind: 'answered', status: 404 });
    expect(failing).toMatchObject({ kind: 'answered', status: 502 });
    expect(received).toBe(3);
  });
});

describe('the deadline', () => {
  it('cuts the attempt timeout to the deadline: a slow answer is lost (unknown), never retried', async () => {
    // Prepare
    script = ['hang'];
    const now = Date.now();
    // Act
    const exchange = await exchangeWithoutRepeat(`${baseUrl}/hook`, POST, policy({ timeoutMs: 5_000, minAttemptMs: 50 }), now + 200);
    // Assess
    expect(exchange).toMatchObject({ kind: 'lost', timedOut: true });
    expect((exchange as Extract<Exchange, { kind: 'lost' }>).timeoutMs).toBeLessThanOrEqual(200);
    expect(received).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('makes no attempt with too little time left: not reached, nothing sent', async () => {
    // Prepare
    const now = Date.now();
    // Act
    const exchange = await exchangeWithoutRepeat(`${baseUrl}/hook`, POST, policy({ minAttemptMs: 500 }), now + 100);
    const read = await exchangeIdempotent(`${baseUrl}/list`, GET, policy({ minAttemptMs: 500 }), now - 1);
    // Assess
    expect(exchange).toMatchObject({ kind: 'not_reached', cause: expect.objectContaining({ name: 'OutboundDeadlineError' }) });
    expect(read.kind).toBe('not_reached');
    expect(fateOf(exchange)).toBe('not_sent');
    expect(received).toBe(0);
  });

  it('takes no 429 wait after which a whole attempt would not end before the deadline', async () => {
    // Prepare
    script = [{ status: 429, headers: { 'Retry-After': '1' } }, { status: 429, headers: { 'Retry-After': '1' } }, { status: 200 }];
    let now = 1_000_000;
    const timed = policy({ timeoutMs: 2_000, now: () => now, sleep: async (ms) => void sleeps.push((now += ms)) });
    // Act
    const cut = await exchangeWithoutRepeat(`${baseUrl}/hook`, POST, timed, now + 2_999);
    const waited = await exchangeWithoutRepeat(`${baseUrl}/hook`, POST, timed, now + 3_000);
    // Assess
    expect(cut).toMatchObject({ kind: 'answered', status: 429 });
    expect(waited).toMatchObject({ kind: 'answered', status: 200 });
    expect(received).toBe(3);
    expect(sleeps).toHaveLength(1);
  });

  it('starts no retry after "not reached" that could not end before the deadline', async () => {
    // Prepare
    const url = await closedPortUrl();
    let now = 1_000_000;
    const timed = policy({ timeoutMs: 1_000, backoffBaseMs: 100, maxAttempts: 5, now: () => now, sleep: async (ms) => void sleeps.push((now += ms)) });
    // Act
    const exchange = await exchangeWithoutRepeat(url, POST, timed, now + 1_300);
    // Assess
    expect(exchange.kind).toBe('not_reached');
    expect(sleeps).toHaveLength(2);
  });

  it('stops retrying a read when a whole attempt no longer fits', async () => {
    // Prepare
    script = [{ status: 503 }, { status: 503 }, { status: 200 }];
    let now = 1_000_000;
    const timed = policy({ timeoutMs: 1_000, backoffBaseMs: 100, now: () => now, sleep: async (ms) => void sleeps.push((now += ms)) });
    // Act
    const exchange = await exchangeIdempotent(`${baseUrl}/list`, GET, timed, now + 1_100);
    // Assess
    expect(exchange).toMatchObject({ kind: 'answered', status: 503 });
    expect(received).toBe(2);
  });

  it('comes from the invocation: its remaining time less the margin for recording the outcome', async () => {
    // Prepare
    const context = { getRemainingTimeInMillis: () => OUTCOME_MARGIN_MS + 100 };
    // Act
    const inside = await withInvocationDeadline(context, async () => outboundDeadline());
    const start = Date.now();
    const exchange = await withInvocationDeadline(context, () => exchangeWithoutRepeat(`${baseUrl}/hook`, POST, policy({ minAttemptMs: 500 })));
    const outside = outboundDeadline();
    // Assess
    expect(inside).toBeGreaterThan(start - 1_000);
    expect(inside).toBeLessThanOrEqual(Date.now() + 100);
    expect(exchange.kind).toBe('not_reached');
    expect(received).toBe(0);
    expect(outside).toBeUndefined();
  });
});
