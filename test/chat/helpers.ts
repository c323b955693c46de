import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../shared/chat/signature';
import { parseWebhookPayload, type ChatWebhookEvent } from '../../shared/chat/webhook-payload';
import { startSandbox, type SandboxHandle, type SandboxOptions, type SandboxPhoneNumber } from '../../scripts/local/sandbox';

/** Shared fixtures of the chat tests: two business numbers on one WABA, and a webhook receiver standing in for the service. */

export const APP_SECRET = 'test-app-secret';

export const NUMBER_A: SandboxPhoneNumber = {
  phoneNumberId: '100000000000001',
  wabaId: '200000000000001',
  accessToken: 'token-of-number-a',
  displayPhoneNumber: '15550000001',
};

export const NUMBER_B: SandboxPhoneNumber = {
  phoneNumberId: '100000000000002',
  wabaId: '200000000000002',
  accessToken: 'token-of-number-b',
  displayPhoneNumber: '15550000002',
};

/** A delivery as the receiver saw it. */
export interface ReceivedWebhook {
  rawBody: string;
  signature: string | undefined;
  validSignature: boolean;
  body: unknown;
  events: ChatWebhookEvent[];
  answeredWith: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Statuses for the next deliveries, in order; 200 once they run out. */
  respondWith: number[];
  /** Pause before answering, to prove that callers wait for the answer. */
  answerDelayMs: number;
  /** Events of the deliveries that were answered 200. */
  acceptedEvents(): ChatWebhookEvent[];
  close(): Promise<void>;
}

/** A tiny HTTP server that records what the sandbox posts, as the service's webhook endpoint would see it. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    respondWith: [],
    answerDelayMs: 0,
    acceptedEvents: () => receiver.received.filter((hook) => hook.answeredWith === 200).flatMap((hook) => hook.events),
    close: () => closeServer(server),
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const signature = req.headers['x-hub-signature-256'] as string | undefined;
    const status = receiver.respondWith.shift() ?? 200;
    if (receiver.answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, receiver.answerDelayMs));
    receiver.received.push({
      rawBody,
      signature,
      validSignature: verifySignature(rawBody, signature, APP_SECRET),
      body: JSON.parse(rawBody),
      events: parseWebhookPayload(rawBody),
      answeredWith: status,
    });
    res.writeHead(status).end();
  });
  receiver.url = await listen(server);
  return receiver;
}

/** A sandbox with both numbers registered, fast statuses and fast webhook retries. */
export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<SandboxHandle> {
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    appSecret: APP_SECRET,
    statusDelayMs: 5,
    webhookRetryDelaysMs: [10, 10],
    ...options,
  });
  sandbox.registerPhoneNumber(NUMBER_A);
  sandbox.registerPhoneNumber(NUMBER_B);
  return sandbox;
}

/** A URL on which nothing listens: a port just freed. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await closeServer(server);
  return url;
}

/** The Graph API requests the sandbox received for one endpoint. */
export function graphRequests(sandbox: SandboxHandle, edge: 'messages' | 'message_templates'): number {
  return sandbox.requests.filter((request) => request.path.endsWith(`/${edge}`)).length;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
