import type { IncomingMessage, ServerResponse } from 'node:http';
import { optionalString, parseJson, readBody, requiredString, sendJson } from './sandbox-http';
import { deliverInbound } from './sandbox-inbound';
import { failNumber, injectFault, registerPhoneNumber, type SandboxState } from './sandbox-state';
import { SandboxInputError, SandboxWebhookError, type SandboxFault } from './sandbox-types';

/**
 * The control API under `/_sandbox/`: what tests and the operator CLI in another
 * process ask of the sandbox (inbound messages, faults, failing numbers, business
 * numbers, the webhook URL, and the sends so far).
 */
export async function handleControl(state: SandboxState, req: IncomingMessage, res: ServerResponse, action: string): Promise<void> {
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
