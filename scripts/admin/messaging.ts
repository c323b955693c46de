import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { mimeTypeOfFileName } from '../../shared/chat/media-types';
import type { ChannelRecord } from '../../shared/data/channels';
import { normalizePhone } from '../../shared/phone/phone';
import { loopbackRequest } from '../local/loopback-http';
import { SANDBOX_CONTROL_HEADER } from '../local/sandbox-types';
import type { StackInfo } from '../local/store';
import { InboundFlagError, inboundMessage, type InboundFlags } from '../local/inbound-messages';
import { fromTypedFolder } from './command-line';
import { OperatorError, requireChannel } from './commands';

/**
 * The operator commands that need the chat network: `template sync`, `inbound`, and
 * the template sync after `channel create`. Locally they need the running `npm start`
 * (its sandbox chat network); against AWS `template sync` talks to the Graph API.
 */

export type ChatNetworkTarget = { mode: 'aws' } | { mode: 'local'; stack?: StackInfo };

const NEEDS_STACK = 'needs the running local stack (npm start with the same DATA_DIR): its sandbox chat network';

/** The running sandbox's Graph API base, and its control API with the run's token. */
interface RunningSandbox {
  graphBaseUrl: string;
  sandboxUrl: string;
  controlToken: string;
}

function runningSandbox(target: ChatNetworkTarget, command: string): RunningSandbox {
  const stack = target.mode === 'local' ? target.stack : undefined;
  if (stack?.graphBaseUrl && stack.sandboxUrl && stack.sandboxControlToken) {
    return { graphBaseUrl: stack.graphBaseUrl, sandboxUrl: stack.sandboxUrl, controlToken: stack.sandboxControlToken };
  }
  throw new OperatorError(`'${command}' ${NEEDS_STACK}.`);
}

/** Points the service's chat-network client at the local sandbox (AWS keeps GRAPH_API_BASE_URL or Meta's default). */
function useChatNetwork(target: ChatNetworkTarget, command: string): RunningSandbox | undefined {
  if (target.mode === 'aws') return undefined;
  const sandbox = runningSandbox(target, command);
  process.env.GRAPH_API_BASE_URL = sandbox.graphBaseUrl;
  return sandbox;
}

async function control(sandbox: RunningSandbox, action: string, body: unknown): Promise<Record<string, unknown>> {
  let response: { status: number; text: string };
  try {
    response = await loopbackRequest(`${sandbox.sandboxUrl}/_sandbox/${action}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [SANDBOX_CONTROL_HEADER]: sandbox.controlToken },
      body: JSON.stringify(body),
    });
  } catch {
    throw new OperatorError(`The sandbox chat network at ${sandbox.sandboxUrl} does not answer; is npm start still running?`);
  }
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(response.text) as Record<string, unknown>;
  } catch {
    answer = {};
  }
  if (response.status < 200 || response.status > 299)
    throw new OperatorError(`The sandbox chat network refused ${action}: ${String(answer.error ?? `HTTP ${response.status}`)}`);
  return answer;
}

/** Locally a channel created without a WABA id or token gets sandbox ones (stable per phone-number id). */
export function sandboxCredentials(phoneNumberId: string, given: { wabaId?: string; accessToken?: string }) {
  const digits = BigInt(`0x${createHash('sha256').update(`waba:${phoneNumberId}`).digest('hex').slice(0, 12)}`)
    .toString()
    .padStart(15, '2')
    .slice(0, 15);
  return { wabaId: given.wabaId ?? digits, accessToken: given.accessToken ?? `EAAsandbox${randomBytes(24).toString('base64url')}` };
}

/** Registers a channel's business number with the running sandbox, so it can send and list templates. */
async function registerWithSandbox(sandbox: RunningSandbox, channel: ChannelRecord): Promise<void> {
  await control(sandbox, 'phone-numbers', {
    phoneNumberId: channel.phoneNumberId,
    wabaId: channel.wabaId,
    accessToken: channel.accessToken,
    displayPhoneNumber: channel.displayPhoneNumber ?? channel.phoneNumberId,
  });
}

/** `template sync --channel CH` → {channelId, synced}: every template fetched, whatever its status. */
export async function templateSync(target: ChatNetworkTarget, channelId: string) {
  const channel = await requireChannel(channelId);
  const sandbox = useChatNetwork(target, 'template sync');
  if (sandbox) await registerWithSandbox(sandbox, channel);
  const { syncTemplates } = await import('../../shared/domain/templates');
  try {
    return await syncTemplates(channel);
  } catch (error) {
    throw new OperatorError(`Template sync failed: ${(error as Error).message}`);
  }
}

/** After `channel create`: locally, when the stack runs, register the number and sync its templates. */
export async function afterChannelCreate(target: ChatNetworkTarget, channel: ChannelRecord): Promise<void> {
  if (target.mode !== 'local' || !target.stack?.sandboxUrl) return;
  await templateSync(target, channel.id);
}

/**
 * `inbound --channel CH --from PHONE --text TEXT` → {chatmid}: the sandbox delivers
 * an inbound message through the signed webhook and answers once the service has
 * acknowledged it, so the session window is open when this returns. `--type` sends
 * another message type (image, location, …; scripts/local/inbound-messages.ts); with
 * `--file PATH` a media message carries that file's bytes: the sandbox holds them under
 * a new media id, which the service then fetches as it would from Meta.
 */
export async function inbound(target: ChatNetworkTarget, channelId: string, from: string, flags: InboundFlags) {
  const file = flags.file === undefined ? undefined : await mediaFile(flags.file, flags['mime-type']);
  const withFile = file ? { ...flags, 'media-id': 'set-by-the-sandbox', 'mime-type': file.mimeType, filename: flags.filename ?? file.name } : flags;
  let message: Record<string, unknown>;
  try {
    message = inboundMessage(withFile);
  } catch (error) {
    if (error instanceof InboundFlagError) throw new OperatorError(error.message);
    throw error;
  }
  const channel = await requireChannel(channelId);
  const sandbox = runningSandbox(target, 'inbound');
  const phone = normalizePhone(from);
  if (!phone) throw new OperatorError('--from must be a phone number with country code, e.g. +14155550100.');
  await registerWithSandbox(sandbox, channel);
  const media = message[String(message.type)] as Record<string, unknown> | undefined;
  if (file && media) {
    const held = await control(sandbox, 'media', { phoneNumberId: channel.phoneNumberId, mimeType: file.mimeType, data: file.bytes.toString('base64') });
    media.id = String(held.id);
    media.sha256 = createHash('sha256').update(file.bytes).digest('hex');
  }
  const answer = await control(sandbox, 'inbound', { phoneNumberId: channel.phoneNumberId, from: phone, message });
  return { chatmid: String(answer.chatmid) };
}

/** `--file PATH` of `inbound`: its bytes, name and MIME type (`--mime-type`, else by its extension). */
async function mediaFile(path: string, mimeType: string | undefined): Promise<{ bytes: Buffer; name: string; mimeType: string }> {
  const resolved = fromTypedFolder(path);
  const bytes = await readFile(resolved).catch((error: unknown) => {
    throw new OperatorError(`--file ${resolved} cannot be read: ${(error as Error).message}`);
  });
  const type = mimeType ?? mimeTypeOfFileName(resolved);
  if (!type) throw new OperatorError(`--file ${resolved}: its type is unknown by its extension; give --mime-type.`);
  return { bytes, name: basename(resolved), mimeType: type };
}
