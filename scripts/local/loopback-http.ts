import { request } from 'node:http';

/**
 * One plain-HTTP request to a local process (a stack's gateway, the sandbox), answered
 * with its status and body text; rejects when nothing answers or `timeoutMs` passes.
 * node:http rather than fetch: the operator CLI asks the stack who it is on every call,
 * and `inbound` posts to the sandbox, and fetch's first call in a process loads its whole
 * HTTP client first.
 */
export function loopbackRequest(
  url: string,
  { method = 'GET', headers = {}, body, timeoutMs }: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }) }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
