import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { resolveAllowedAddresses, systemResolver, UnsafeDestinationError, type Resolver, type UrlPolicy } from './url-policy';
import { clock } from '../clock';

/**
 * One delivery attempt to an integrator's URL: resolve and check every address, connect
 * to the checked one (TLS still verifies the certificate for the URL's name), follow no
 * redirect, read at most a few KB of the answer, give up after 10 s. Any 2xx is
 * delivered; everything else is a failure with its reason, for the delivery log.
 */

export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * The delivery log's one reason for every refused destination (private, loopback,
 * reserved, unresolvable): which address an internal name resolves to, or whether it
 * resolves at all, would make webhooks a scanner of the service's network.
 */
export const DESTINATION_NOT_ALLOWED = 'destination not allowed';
/** What is read of a receiver's answer at most (the rest is discarded unread). */
export const MAX_RESPONSE_BYTES = 4096;

export interface AttemptResult {
  delivered: boolean;
  statusCode?: number;
  /** Why it failed, for the delivery log (never the receiver's body; for a refused destination only {@link DESTINATION_NOT_ALLOWED}). */
  error?: string;
  /** Why a destination was refused (the host and what it resolves to): for the service's own log, never for the caller. */
  detail?: string;
  durationMs: number;
}

export interface PostOptions {
  policy: UrlPolicy;
  resolve?: Resolver;
  timeoutMs?: number;
}

/**
 * Connections are kept alive between attempts, one pool per scheme and checked address
 * (a host that resolves elsewhere later gets another pool: a reused socket always goes
 * to an address that was checked). Idle sockets close after 4 s, before the common 5 s
 * server keep-alive timeout, so a reused socket is rarely one the receiver is closing.
 * In AWS this saves the TLS handshake of every delivery to the same receiver.
 */
const IDLE_SOCKET_MS = 4_000;
const MAX_POOLS = 256;
const pools = new Map<string, HttpAgent>();

function poolFor(protocol: string, address: string): HttpAgent {
  const name = `${protocol}//${address}`;
  let agent = pools.get(name);
  if (agent) {
    // Most recently used last, so the first is the one to drop when the map is full.
    pools.delete(name);
    pools.set(name, agent);
    return agent;
  }
  const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, maxSockets: 32, maxFreeSockets: 8 };
  agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
  pools.set(name, agent);
  if (pools.size > MAX_POOLS) {
    const [oldest, evicted] = pools.entries().next().value as [string, HttpAgent];
    pools.delete(oldest);
    evicted.destroy();
  }
  return agent;
}

/** A lookup that answers the checked address only, so the socket cannot go elsewhere. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

/**
 * One attempt. Its timeout covers the whole attempt, the name lookup included: a
 * resolver that hangs must not hold the lane past its lease (shared/domain/event-delivery.ts).
 */
export async function postWebhook(rawUrl: string, headers: Record<string, string>, body: string, options: PostOptions): Promise<AttemptResult> {
  const startedAt = clock.realNow();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const elapsed = () => clock.realNow() - startedAt;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), timeoutMs)));
  const noAnswer: AttemptResult = { delivered: false, error: `no answer within ${timeoutMs / 1000} s`, durationMs: timeoutMs };
  try {
    const url = new URL(rawUrl);
    let address: string;
    try {
      const resolved = await Promise.race([resolveAllowedAddresses(url, options.policy, options.resolve ?? systemResolver), expired]);
      if (resolved === 'expired') return { ...noAnswer, durationMs: elapsed() };
      [address] = resolved;
    } catch (error) {
      const detail = error instanceof UnsafeDestinationError ? error.message : 'the destination could not be resolved';
      return { delivered: false, error: DESTINATION_NOT_ALLOWED, detail, durationMs: elapsed() };
    }
    const result = await Promise.race([post(url, address, headers, body, expired), expired]);
    return result === 'expired' ? { ...noAnswer, durationMs: elapsed() } : { ...result, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

/** The POST to the checked address; the request is destroyed when `expired` resolves first. */
function post(
  url: URL,
  address: string,
  headers: Record<string, string>,
  body: string,
  expired: Promise<'expired'>,
): Promise<Omit<AttemptResult, 'durationMs'>> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'workspace-api-webhooks/1' },
        lookup: pinnedLookup(address),
        agent: poolFor(url.protocol, address),
      },
      (res: IncomingMessage) => {
        const statusCode = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () =>
          finish(
            statusCode >= 200 && statusCode < 300 ? { delivered: true, statusCode } : { delivered: false, statusCode, error: `answered HTTP ${statusCode}` },
          );
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    void expired.then(() => {
      if (settled) return;
      settled = true;
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ delivered: false, error: `connection failed (${error.code ?? error.name})` }));
    req.end(body);
  });
}
