import { config } from '../config';
import { createGraphClient, type GraphClient } from './graph-client';

/**
 * The service's one chat-network client, created on first use from the environment:
 * GRAPH_API_BASE_URL (default Meta's Graph API v21.0; the sandbox and tests stand in
 * there) and GRAPH_API_TIMEOUT_MS per attempt (default 4 s). Every call also ends by
 * the invocation's deadline (shared/outbound/deadline.ts), so a send with its 429 waits
 * never outlasts the function's timeout.
 */
let client: { baseUrl: string; graph: GraphClient } | undefined;

export function chatNetwork(): GraphClient {
  const baseUrl = config.graphApiBaseUrl();
  if (client?.baseUrl !== baseUrl) {
    const timeoutMs = config.graphApiTimeoutMs();
    client = { baseUrl, graph: createGraphClient({ baseUrl, timeoutMs, maxAttempts: 3, maxRetryAfterSeconds: 2 }) };
  }
  return client.graph;
}
