import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, postWebhook } from '../../shared/events/post-webhook';

/** A receiver on 127.0.0.1 whose answer each test chooses by path; it records what reached it. */
interface Received {
  path: string;
  host: string | undefined;
  body: string;
}
let server: Server;
let base: string;
let port: number;
const received: Received[] = [];
let connections = 0;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', host: req.headers.host, body });
      if (req.url === '/ok') return res.writeHead(204).end();
      if (req.url === '/fail') return res.writeHead(500).end('boom');
      if (req.url === '/gone') return res.writeHead(410).end();
      if (req.url === '/redirect') return res.writeHead(302, { location: `${base}/ok?followed=1` }).end();
      if (req.url === '/huge') {
        res.writeHead(200);
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 64; i++) res.write(chunk);
        return res.end();
      }
      if (req.url === '/slow') return setTimeout(() => res.writeHead(200).end(), 2000);
      res.writeHead(404).end();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const local = { policy: { allowLoopback: true } };
const aws = { policy: { allowLoopback: false } };
const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_1' };

describe('postWebhook: one delivery attempt', () => {
  it('delivers on a 2xx and sends the body and headers', async () => {
    // Act
    const result = await postWebhook(`${base}/ok`, headers, '{"a":1}', local);

    // Assess
    expect(result).toMatchObject({ delivered: true, statusCode: 204 });
    expect(received.at(-1)).toMatchObject({ path: '/ok', body: '{"a":1}' });
  });

  it('keeps the connection for the next attempts to the same address, and opens a new one after a refused answer was cut', async () => {
    // Prepare
    await postWebhook(`${base}/ok`, headers, '{}', local);
    const before = connections;
    // Act
    const again = [await postWebhook(`${base}/ok`, headers, '{}', local), await postWebhook(`${base}/fail`, headers, '{}', local)];
    const reused = connections - before;
    await postWebhook(`${base}/huge`, headers, '{}', local);
    const afterCut = connections;
    const next = await postWebhook(`${base}/ok`, headers, '{}', local);
    // Assess
    expect(again.map((result) => result.statusCode)).toEqual([204, 500]);
    expect(reused).toBe(0);
    expect(next).toMatchObject({ delivered: true, statusCode: 204 });
    expect(connections).toBe(afterCut + 1);
  });

  it.each([
    ['/fail', 500],
    ['/gone', 410],
  ])('fails on %s with the status for the delivery log', async (path, status) => {
    // Act
    const result = await postWebhook(`${base}${path}`, headers, '{}', local);

    // Assess
    expect(result).toMatchObject({ delivered: false, statusCode: status, error: `answered HTTP ${status}` });
  });

  it('follows no redirect: a 302 is a failure and its target is never asked', async () => {
    // Prepare
    const before = received.length;

    // Act
    const result = await postWebhook(`${base}/redirect`, headers, '{}', local);

    // Assess
    expect(result).toMatchObject({ delivered: false, statusCode: 302 });
    expect(received.slice(before).map((entry) => entry.path)).toEqual(['/redirect']);
  });

  it(`reads at most ${MAX_RESPONSE_BYTES} bytes of a large answer and still counts its 2xx`, async () => {
    // Act
    const result = await postWebhook(`${base}/huge`, headers, '{}', local);

    // Assess
    expect(result).toMatchObject({ delivered: true, statusCode: 200 });
  });

  it('gives up when the receiver does not answer in time', async () => {
    // Act
    const result = await postWebhook(`${base}/slow`, headers, '{}', { ...local, timeoutMs: 300 });

    // Assess
    expect(result.delivered).toBe(false);
    expect(result.error).toMatch(/no answer within 0.3 s/);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('counts the name lookup in its timeout: a resolver that never answers ends the attempt at the timeout', async () => {
    // Prepare
    const resolve = () => new Promise<string[]>(() => {});

    // Act
    const result = await postWebhook('http://hangs.example/hook', headers, '{}', { ...local, resolve, timeoutMs: 300 });

    // Assess
    expect(result).toMatchObject({ delivered: false, error: 'no answer within 0.3 s' });
  });

  it('refuses loopback under the AWS rules without connecting', async () => {
    // Prepare
    const before = received.length;

    // Act
    const result = await postWebhook(`${base}/ok`, headers, '{}', aws);

    // Assess
    expect(result).toMatchObject({ delivered: false, error: 'destination not allowed', detail: expect.stringMatching(/loopback/) });
    expect(received.length).toBe(before);
  });

  it('refuses a name that resolves to a private address without connecting', async () => {
    // Prepare
    const before = received.length;
    const resolve = async () => ['10.20.30.40'];

    // Act
    const result = await postWebhook('https://internal.example/hook', headers, '{}', { ...aws, resolve });

    // Assess
    expect(result).toMatchObject({ delivered: false, error: 'destination not allowed', detail: expect.stringMatching(/10\.20\.30\.40|private/) });
    expect(received.length).toBe(before);
  });

  it('tells the caller nothing of why a destination is refused: a private address, a name that does not resolve, loopback all read "destination not allowed" (the detail is for the service log)', async () => {
    // Act
    const results = await Promise.all([
      postWebhook('https://internal.example/hook', headers, '{}', { ...aws, resolve: async () => ['192.168.1.7'] }),
      postWebhook('https://nowhere.example/hook', headers, '{}', { ...aws, resolve: async () => [] }),
      postWebhook('https://[::1]:8443/hook', headers, '{}', aws),
    ]);
    // Assess
    expect(results.map((result) => result.error)).toEqual(['destination not allowed', 'destination not allowed', 'destination not allowed']);
    expect(results.map((result) => result.detail)).toEqual([
      expect.stringContaining('192.168.1.7'),
      expect.stringContaining('does not resolve'),
      expect.stringContaining('::1'),
    ]);
  });

  it('connects to the address it checked, keeping the name in Host (no second lookup to rebind)', async () => {
    // Prepare: the name resolves to loopback once; a second lookup would find nothing
    let lookups = 0;
    const resolve = async () => (lookups++ === 0 ? ['127.0.0.1'] : []);

    // Act
    const result = await postWebhook(`http://receiver.localhost:${port}/ok`, headers, '{}', { ...local, resolve });

    // Assess
    expect(result).toMatchObject({ delivered: true });
    expect(lookups).toBe(1);
    expect(received.at(-1)?.host).toBe(`receiver.localhost:${port}`);
  });
});
