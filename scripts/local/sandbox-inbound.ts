import { clock } from '../../shared/clock';
import { digitsOf, newWamid, unixSeconds } from './sandbox-http';
import { track, windowKey, type SandboxState } from './sandbox-state';
import { canonicalWaId } from './sandbox-validate';
import { SandboxInputError, SandboxWebhookError, type InboundInput } from './sandbox-types';
import { deliverWebhook, webhookEnvelope } from './sandbox-webhooks';

/**
 * An inbound message: a customer writes to a business number. It opens the 24-hour
 * session window on the sandbox's side and is delivered to the service by webhook.
 */
export async function deliverInbound(state: SandboxState, input: InboundInput): Promise<{ chatmid: string }> {
  const number = state.numbers.get(input.phoneNumberId);
  if (!number) throw new SandboxInputError(`Unknown phone number id ${input.phoneNumberId}: register it first.`, 404);
  const from = digitsOf(input.from, 'from');
  const content = inboundMessageBody(input);
  if (state.webhookUrl === undefined) throw new SandboxWebhookError('No webhook URL is set, so the inbound message cannot be delivered.', 0);
  const waId = canonicalWaId(from);
  const chatmid = newWamid();
  // The customer wrote on Meta's side whether or not the service takes the delivery.
  state.lastInboundAt.set(windowKey(number.phoneNumberId, waId), clock.now());
  state.messages.set(chatmid, { phoneNumberId: number.phoneNumberId, waId, direction: 'inbound' });
  const body = webhookEnvelope(number, {
    contacts: [{ profile: { name: input.profileName ?? `Customer ${waId.slice(-4)}` }, wa_id: waId }],
    messages: [{ from: waId, id: chatmid, timestamp: unixSeconds(), ...content }],
  });
  const status = await track(state, deliverWebhook(state, body));
  if (status !== 200) throw new SandboxWebhookError(`The webhook answered ${status === 0 ? 'nothing' : `HTTP ${status}`}.`, status);
  return { chatmid };
}

/** The type and content fields of an inbound message: `message` as given (it must name its type), else a text. */
function inboundMessageBody(input: InboundInput): Record<string, unknown> {
  if (input.message !== undefined) {
    if (typeof input.message.type !== 'string' || input.message.type === '') throw new SandboxInputError('message.type is required.');
    return input.message;
  }
  if (typeof input.text !== 'string' || input.text === '') throw new SandboxInputError('text (or message) is required.');
  return { type: 'text', text: { body: input.text } };
}
