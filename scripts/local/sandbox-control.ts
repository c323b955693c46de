import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { optionalString, parseJson, readBody, requiredString, sendJson } from './sandbox-http';
import { deliverInbound } from './sandbox-inbound';
import { holdMedia } from './sandbox-media';
import { failNumber, injectFault, registerPhoneNumber, type SandboxState } from './sandbox-state';
import { SANDBOX_CONTROL_HEADER, SandboxInputError, SandboxWebhookError, type SandboxFault } from './sandbox-types';

export { SANDBOX_CONTROL_HEADER };

/**
 * The control API under `/_sandbox/`: what tests and the operator CLI in another
 * process ask of the sandbox (inbound messages, faults, failing numbers, business
 * numbers, the webhook URL, and the sends so far).
 *
 * Only holders of the run's control token (stack.json, readable by DATA_DIR's owner
 * alone) may call it: the stack lets integrators' webhooks reach loopback, so without
 * it one tenant's webhook subscription at `/_sandbox/fault` could silence the status
 * webhooks of every tenant. A webhook delivery carries no header of the tenant's choice.
 */
export async function handleControl(state: SandboxState, req: IncomingMessage, res: ServerResponse, action: string): Promise<void> {
  if (!holdsControlToken(state, req.headers[SANDBOX_CONTROL_HEADER])) {
    req.resume();
    return sendJson(res, 403, {
      error: `The sandbox control API needs the run's token in ${SANDBOX_CONTROL_HEADER} (sandboxControlToken in DATA_DIR/stack.json).`,
    });
  }
  try {
    const raw = await readBody(req);
    if (req.method === 'GET' && action === 'sent') return sendJson(res, 200, state.sent);
    if (req.method !== 'POST') throw new SandboxInputError(`Unknown control call ${req.method} /_sandbox/${action}.`, 404);
    const input = parseJson(raw === '' ? '{}' : raw);
    if (input === undefined || input === null || typeof input !== 'object') throw new SandboxInputError('The body must be a JSON object.');
    const result = await runControl(state, action, input as Record<string, unknown>);
    sendJson(res, 200, result);
  } catch (error) {
    if (error instanceof SandboxWebhookError) return sendJson(res, 502, { error: error.message, webhookStatus: error.status });
    if (error instanceof SandboxInputError) return sendJson(res, error.status, { error: error.message });
    throw error;
  }
}

function holdsControlToken(state: SandboxState, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  // Compared as digests: equal lengths, in constant time.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(state.settings.controlToken));
}

async function runControl(state: SandboxState, action: string, input: Record<string, unknown>): Promise<unknown> {
  switch (action) {
    case 'inbound':
      return deliverInbound(state, {
        phoneNumberId: requiredString(input, 'phoneNumberId'),
        from: requiredString(input, 'from'),
        text: optionalString(input, 'text'),
        message:
          input.message !== null && typeof input.message === 'object' && !Array.isArray(input.message) ? (input.message as Record<string, unknown>) : undefined,
        profileName: optionalString(input, 'profileName'),
      });
    case 'media':
      return holdMedia(state, requiredString(input, 'phoneNumberId'), requiredString(input, 'mimeType'), requiredString(input, 'data'));
    case 'fault':
      injectFault(state, input as unknown as SandboxFault);
      return { ok: true };
    case 'fail-number':
      failNumber(state, requiredString(input, 'to'), Number(input.code));
      return { ok: true };
    case 'phone-numbers':
      registerPhoneNumber(state, {
        phoneNumberId: requiredString(input, 'phoneNumberId'),
        wabaId: requiredString(input, 'wabaId'),
        accessToken: requiredString(input, 'accessToken'),
        displayPhoneNumber: requiredString(input, 'displayPhoneNumber'),
      });
      return { ok: true };
    case 'webhook-url':
      state.webhookUrl = optionalString(input, 'url');
      return { ok: true };
    default:
      throw new SandboxInputError(`Unknown control call POST /_sandbox/${action}.`, 404);
  }
}
