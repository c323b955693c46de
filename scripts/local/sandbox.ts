import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { handleControl } from './sandbox-control';

export { SANDBOX_CONTROL_HEADER } from './sandbox-control';
import { handleGraph } from './sandbox-graph';
import { sendJson } from './sandbox-http';
import { ATTACHMENTS_PATH, handleAttachment } from './sandbox-media';
import { deliverInbound } from './sandbox-inbound';
import { createSandboxState, failNumber, idle, injectFault, registerPhoneNumber } from './sandbox-state';
import { SandboxInputError, type SandboxHandle, type SandboxOptions } from './sandbox-types';

export { SandboxWebhookError } from './sandbox-types';
export type {
  InboundInput,
  SandboxFault,
  SandboxFaultKind,
  SandboxHandle,
  SandboxOptions,
  SandboxPhoneNumber,
  SandboxRequestRecord,
  SandboxSentMessage,
} from './sandbox-types';

/**
 * The sandbox chat network: a local HTTP server speaking the subset of the
 * WhatsApp Cloud API the service uses (the Graph API sends and template listing, and
 * the signed webhooks; docs/MESSAGING.md), so the service runs and is tested through
 * the same client that talks to Meta.
 *
 * - Graph API (sandbox-graph.ts): `POST /{version}/{phone-number-id}/messages`, `GET /{version}/{waba-id}/message_templates`.
 * - Media (sandbox-media.ts): `GET`/`DELETE /{version}/{media-id}` and the download URL that needs the same token.
 * - Webhooks (sandbox-webhooks.ts, sandbox-inbound.ts): signed status (`sent`, `delivered`, or `failed`) and inbound deliveries to the webhook URL.
 * - Control API for tests and the operator CLI in another process (sandbox-control.ts): `/_sandbox/*`, with the run's control token.
 *
 * This file is the server and its routing; what it keeps is in sandbox-state.ts.
 */

/** Starts the sandbox and resolves once it accepts connections. */
export async function startSandbox(options: SandboxOptions): Promise<SandboxHandle> {
  const state = createSandboxState(options);
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      const status = error instanceof SandboxInputError ? error.status : 500;
      sendJson(res, status, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, state.settings.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  state.url = `http://${state.settings.host}:${port}`;

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? '/', state.url);
    const segments = requestUrl.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (segments[0] === '_sandbox') return handleControl(state, req, res, segments.slice(1).join('/'));
    if (req.method === 'GET' && requestUrl.pathname === ATTACHMENTS_PATH) return handleAttachment(state, req, res, requestUrl);
    await handleGraph(state, req, res, segments, requestUrl);
  }

  /** Stops at once: pending deliveries are dropped and hung requests are cut. */
  async function close(): Promise<void> {
    state.shutdown.abort();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    await idle(state);
  }

  return {
    url: state.url,
    graphBaseUrl: `${state.url}/${state.settings.graphVersion}`,
    controlToken: state.settings.controlToken,
    close,
    registerPhoneNumber: (number) => registerPhoneNumber(state, number),
    sent: state.sent,
    reads: state.reads,
    requests: state.requests,
    failNumber: (to, code) => failNumber(state, to, code),
    injectFault: (fault) => injectFault(state, fault),
    deliverInbound: (input) => deliverInbound(state, input),
    setWebhookUrl: (url) => {
      state.webhookUrl = url;
    },
    idle: () => idle(state),
  };
}
