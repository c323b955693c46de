import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { signPayload } from '../../shared/chat/signature';
import { errorTitle, statusErrorMessage } from './sandbox-catalog';
import { unixSeconds } from './sandbox-http';
import type { SandboxState } from './sandbox-state';
import type { SandboxPhoneNumber } from './sandbox-types';

/**
 * Webhook delivery: the status reports of an accepted message and the envelope every
 * delivery shares, signed with the app secret and retried as Meta retries.
 */

/** A message accepted by the Graph API whose statuses still have to be reported. */
export interface AcceptedMessage {
  number: SandboxPhoneNumber;
  chatmid: string;
  waId: string;
  category: string;
  failureCode?: number;
}

/** `sent` then `delivered`, or a single `failed`, each after a pause, as Meta reports them. */
export async function reportStatuses(state: SandboxState, message: AcceptedMessage): Promise<void> {
  const { settings, shutdown } = state;
  await delay(settings.statusDelayMs, undefined, { signal: shutdown.signal });
  if (message.failureCode !== undefined) {
    await deliverWebhook(state, statusBody(message, 'failed'));
    return;
  }
  await deliverWebhook(state, statusBody(message, 'sent'));
  await delay(settings.statusDelayMs, undefined, { signal: shutdown.signal });
  await deliverWebhook(state, statusBody(message, 'delivered'));
}

function statusBody(message: AcceptedMessage, status: 'sent' | 'delivered' | 'failed'): Record<string, unknown> {
  const event: Record<string, unknown> = {
    id: message.chatmid,
    status,
    timestamp: unixSeconds(),
    recipient_id: message.waId,
  };
  if (message.failureCode !== undefined) {
    const code = message.failureCode;
    event.errors = [{ code, title: errorTitle(code), message: statusErrorMessage(code), error_data: { details: statusErrorMessage(code) } }];
  } else {
    event.conversation = { id: randomBytes(16).toString('hex'), origin: { type: message.category } };
    event.pricing = { billable: true, pricing_model: 'CBP', category: message.category };
  }
  return webhookEnvelope(message.number, { statuses: [event] });
}

/** The `whatsapp_business_account` envelope of one change of a business number. */
export function webhookEnvelope(
  number: Pick<SandboxPhoneNumber, 'wabaId' | 'phoneNumberId' | 'displayPhoneNumber'>,
  value: Record<string, unknown>,
): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/**
 * Posts one signed delivery, retrying on anything but 200 as Meta does. Resolves
 * with the last status (0 when unreachable); never rejects except on shutdown.
 */
export async function deliverWebhook(state: SandboxState, body: Record<string, unknown>): Promise<number> {
  const target = state.webhookUrl;
  if (target === undefined) return 0;
  const { webhookRetryDelaysMs } = state.settings;
  const raw = JSON.stringify(body);
  let status = 0;
  for (let attempt = 0; ; attempt++) {
    status = await postSigned(state, target, raw);
    if (status === 200 || attempt >= webhookRetryDelaysMs.length) return status;
    await delay(webhookRetryDelaysMs[attempt], undefined, { signal: state.shutdown.signal });
  }
}

async function postSigned(state: SandboxState, target: string, raw: string): Promise<number> {
  const { settings, shutdown } = state;
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signPayload(raw, settings.appSecret) },
      body: raw,
      signal: AbortSignal.any([shutdown.signal, AbortSignal.timeout(settings.webhookTimeoutMs)]),
    });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    if (shutdown.signal.aborted) throw error;
    return 0;
  }
}
