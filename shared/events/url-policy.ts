import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { config } from '../config';
import { InvalidInputError } from '../errors';

/**
 * Where integrators' webhooks may point (SSRF defence). In AWS only `https://` to public
 * addresses: private, loopback, link-local (169.254.169.254 included), multicast,
 * carrier-grade NAT, documentation, NAT64/6to4 and every other reserved range are refused
 * at registration and again after DNS resolution at every delivery, and the delivery
 * connects to the address that was checked (no second lookup: DNS rebinding cannot swap
 * it). The local stack also accepts `http://` and `https://` to loopback, and nothing
 * else private. `ipaddr.js` classifies; only its `unicast` range counts as public.
 */

export interface UrlPolicy {
  /** The local stack: loopback receivers (http or https) are allowed. */
  allowLoopback: boolean;
}

/** Resolves a host name to every address it has (A and AAAA). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** The policy of this process: loopback only where the local stack says so (WEBHOOK_ALLOW_LOOPBACK). */
export function urlPolicyFromEnv(): UrlPolicy {
  return { allowLoopback: config.webhookAllowLoopback() };
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Why an address may not receive deliveries, or undefined when it may. */
export function addressRefusal(address: string, policy: UrlPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  // ipaddr.js calls every IPv6 address it has no name for `unicast`, the deprecated
  // IPv4-compatible form (::a9fe:a9fe, ::7f00:1) and unassigned space included: only
  // 2000::/3 is global unicast.
  if (parsed.kind() === 'ipv6' && range === 'unicast' && !parsed.match(GLOBAL_UNICAST_V6)) {
    return `${address} is not a global unicast IPv6 address (2000::/3); webhooks go to public addresses only`;
  }
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `${address} is a ${range} address; webhooks go to public addresses only`;
}

/** A bracketed IPv6 literal in a URL (`[::1]`) without its brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks a URL's form at registration: absolute, https (or loopback http locally), no
 * credentials, and a literal address that is allowed. Names are resolved by
 * {@link resolveAllowedAddresses}. Throws a 400 naming `url`.
 */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInputError('url must be an absolute https:// URL.', 'url');
  }
  if (url.username || url.password) throw new InvalidInputError('url must not carry credentials; authenticate deliveries by their signature.', 'url');
  const host = bareHost(url.hostname);
  const loopbackHttp =
    policy.allowLoopback && url.protocol === 'http:' && (host === 'localhost' || (ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback'));
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new InvalidInputError(
      policy.allowLoopback ? 'url must be https://, or http:// to 127.0.0.1 or localhost on the local stack.' : 'url must be https://.',
      'url',
    );
  }
  if (ipaddr.isValid(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new InvalidInputError(`url is not allowed: ${refusal}.`, 'url');
  }
  return url;
}

/** Thrown when a host resolves to nothing, or to any address that may not receive deliveries. */
export class UnsafeDestinationError extends Error {}

/**
 * Resolves the URL's host and checks every address: one refused address refuses the
 * URL (a name must not mix public and private answers). Returns the checked addresses,
 * to connect to one of them and to nothing else.
 */
export async function resolveAllowedAddresses(url: URL, policy: UrlPolicy, resolve: Resolver = systemResolver): Promise<string[]> {
  const host = bareHost(url.hostname);
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host).catch(() => []);
  if (addresses.length === 0) throw new UnsafeDestinationError(`${host} does not resolve`);
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new UnsafeDestinationError(`${host} resolves to ${refusal}`);
  }
  return addresses;
}
