import { API_KEY_BODY_LENGTH, API_KEY_PREFIX, looksLikeApiKey } from './api-keys';

/** Names under which callers try to pass a key as a parameter (compared lower-case); keys never travel there. */
export const KEY_PARAMETER_NAMES: ReadonlySet<string> = new Set(['apikey', 'api_key', 'x-api-key', 'key', 'access_token']);

/**
 * The query parameter that carries an API key, if any: one of the key names, or any
 * parameter whose value has a key's shape. Such a key has been written into access logs,
 * proxies and browser history, so it is exposed whether or not the request succeeds.
 */
export function keyParameterInUrl(query: Record<string, string | undefined> | null | undefined): string | undefined {
  return Object.entries(query ?? {}).find(
    ([name, value]) => KEY_PARAMETER_NAMES.has(name.toLowerCase()) || (value !== undefined && looksLikeApiKey(value)),
  )?.[0];
}

/**
 * The same test over a raw query string, as a pattern (API Gateway's WAF matches the
 * query string of keyless requests with it, before the authorizer runs). Lower-cased input.
 */
export const KEY_IN_QUERY_STRING_PATTERN = `(^|&)(${[...KEY_PARAMETER_NAMES].join('|')})=|${API_KEY_PREFIX}[a-z0-9_-]{${API_KEY_BODY_LENGTH}}`;
