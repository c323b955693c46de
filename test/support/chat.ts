import { afterAll, afterEach, beforeAll } from 'vitest';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { randomInt, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { channelCreate, keyCreate, workspaceCreate } from '../../scripts/admin/commands';
import { startSandbox, type SandboxHandle } from '../../scripts/local/sandbox';
import { webhookEnvelope } from '../../scripts/local/sandbox-webhooks';
import { signPayload } from '../../shared/chat/signature';
import { clock } from '../../shared/clock';
import type { ChannelRecord } from '../../shared/data/channels';
import type { MessageRecord } from '../../shared/data/messages';
import { newChatmid } from './chatmid';

/**
 * The chat network for handler tests: a real sandbox over HTTP, and a tiny HTTP
 * server that turns its webhook deliveries into REST proxy events for the real
 * webhook handler, as API Gateway would. The service reads GRAPH_API_BASE_URL and
 * the webhook secrets when it uses them, so they are set here before any send.
 */

export const APP_SECRET = 'chat-test-app-secret';
export const VERIFY_TOKEN = 'chat-test-verify-token';

export interface ChatNetwork {
  sandbox: SandboxHandle;
  /** Status codes the webhook handler answered, in order. */
  webhookAnswers: number[];
  close(): Promise<void>;
}

export type WebhookHandler = (event: APIGatewayProxyEvent) => Promise<{ statusCode: number; body: string; headers?: unknown }>;

export async function startChatNetwork(): Promise<ChatNetwork> {
  process.env.WHATSAPP_APP_SECRET = APP_SECRET;
  process.env.WHATSAPP_VERIFY_TOKEN = VERIFY_TOKEN;
  // Short enough that a test of an unanswered send stays fast, long enough for a loaded CI machine.
  process.env.GRAPH_API_TIMEOUT_MS = '1500';
  const sandbox = await startSandbox({ port: 0, appSecret: APP_SECRET, statusDelayMs: 5, webhookRetryDelaysMs: [10, 10] });
  process.env.GRAPH_API_BASE_URL = sandbox.graphBaseUrl;
  const { handler } = (await import('../../functions/webhook-whatsapp')) as { handler: WebhookHandler };
  const webhookAnswers: number[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const result = await handler(
      webhookEvent(req.method ?? 'POST', Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>, Object.fromEntries(url.searchParams)),
    );
    webhookAnswers.push(result.statusCode);
    res.writeHead(result.statusCode).end(result.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sandbox.setWebhookUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/whatsapp`);
  return {
    sandbox,
    webhookAnswers,
    async close() {
      await sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A REST proxy event for the webhook, as API Gateway builds it. */
export function webhookEvent(
  method: string,
  body: string | null,
  headers: Record<string, string> = {},
  query: Record<string, string> = {},
): APIGatewayProxyEvent {
  return {
    httpMethod: method,
    path: '/webhooks/whatsapp',
    resource: '/webhooks/whatsapp',
    headers,
    multiValueHeaders: {},
    queryStringParameters: Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: { requestId: randomUUID() },
  } as unknown as APIGatewayProxyEvent;
}

/** A webhook body signed with the test app secret, as the chat network sends it. */
export function signedWebhook(body: unknown): APIGatewayProxyEvent {
  const raw = JSON.stringify(body);
  return webhookEvent('POST', raw, { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signPayload(raw, APP_SECRET) });
}

/** A signed webhook carrying one inbound text message from `from` to `channel`, as the chat network delivers it. */
export function signedInboundText(channel: ChannelRecord, from: string, text = 'Hi', chatmid = newChatmid()) {
  const body = webhookEnvelope(
    { phoneNumberId: channel.phoneNumberId, wabaId: channel.wabaId!, displayPhoneNumber: '15550000000' },
    {
      contacts: [{ profile: { name: 'Ann Customer' }, wa_id: from }],
      messages: [{ from, id: chatmid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
    },
  );
  return { event: signedWebhook(body), body, chatmid };
}

export interface ChatTenant {
  workspaceId: string;
  adminKey: string;
  adminUserId: string;
  channels: ChannelRecord[];
  channelIds: string[];
}

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

/** A recipient number of its own for each call (a counter, so two tests never share a session window): US 1-415-555-xxxx. */
let recipientCounter = randomInt(10_000);
export const newRecipient = () => `1415555${String(recipientCounter++ % 10_000).padStart(4, '0')}`;

/**
 * A workspace with an admin key and `count` channels on the sandbox: each with its
 * own phone-number id, WABA and token, registered with the sandbox; templates are
 * synced unless `sync` is false.
 */
export async function createChatTenant(network: ChatNetwork, count = 1, sync = true): Promise<ChatTenant> {
  const { syncTemplates } = await import('../../shared/domain/templates');
  const { id: workspaceId } = await workspaceCreate(`Chat test ${randomUUID()}`);
  const admin = await keyCreate({ workspaceId, role: 'admin' });
  const channels: ChannelRecord[] = [];
  for (let i = 0; i < count; i++) {
    const phoneNumberId = `9${digits(14)}`;
    const { channel } = await channelCreate({
      workspaceId,
      ownerUserId: admin.userId,
      name: `Chat ${i + 1}`,
      phoneNumberId,
      wabaId: `8${digits(14)}`,
      accessToken: `EAAtest${digits(20)}`,
      displayPhoneNumber: `1555${digits(7)}`,
    });
    network.sandbox.registerPhoneNumber({
      phoneNumberId,
      wabaId: channel.wabaId!,
      accessToken: channel.accessToken!,
      displayPhoneNumber: channel.displayPhoneNumber!,
    });
    if (sync) await syncTemplates(channel);
    channels.push(channel);
  }
  return { workspaceId, adminKey: admin.apiKey, adminUserId: admin.userId, channels, channelIds: channels.map((channel) => channel.id) };
}

/** Opens the 24-hour window: the sandbox delivers an inbound message through the signed webhook. */
export async function openWindow(network: ChatNetwork, channel: ChannelRecord, from: string, text = 'Hi there'): Promise<string> {
  const { chatmid } = await network.sandbox.deliverInbound({ phoneNumberId: channel.phoneNumberId, from, text });
  return chatmid;
}

/** The send bodies the sandbox accepted for one channel. */
export function sentBodies(network: ChatNetwork, channel: ChannelRecord): unknown[] {
  return network.sandbox.sent.filter((sent) => sent.phoneNumberId === channel.phoneNumberId).map((sent) => sent.body);
}

/** Graph send requests the sandbox received for one channel (accepted or not). */
export function sendRequests(network: ChatNetwork, channel: ChannelRecord): number {
  return network.sandbox.requests.filter((request) => request.path.endsWith(`/${channel.phoneNumberId}/messages`)).length;
}

/** The tenant's outbound message records to one recipient on its first channel, oldest first (a consistent read). */
export async function outboundMessagesTo(tenant: ChatTenant, phone: string): Promise<MessageRecord[]> {
  const { queryAll } = await import('../../shared/data/batch');
  const { keys } = await import('../../shared/data/keys');
  const { MessageItem, namesItsContact } = await import('../../shared/data/messages');
  const { pk } = keys.contactPrefix({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });
  const all = await queryAll(pk, 'MSG#', MessageItem, { consistent: true });
  return all
    .filter(namesItsContact)
    .filter((message) => message.phone === phone && message.direction === 'outbound')
    .sort((a, b) => a.at - b.at);
}

/**
 * The hooks every chat test file needs: a sandbox chat network and a tenant on it for
 * the file, closed afterwards, with the clock reset after each test. `ready` receives
 * them once they exist.
 */
export function useChatTenant(channels: number, ready: (network: ChatNetwork, tenant: ChatTenant) => void): void {
  let network: ChatNetwork | undefined;
  beforeAll(async () => {
    network = await startChatNetwork();
    ready(network, await createChatTenant(network, channels));
  });
  afterAll(async () => {
    await network?.close();
  });
  afterEach(() => {
    clock.reset();
  });
}
