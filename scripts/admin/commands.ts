import type { Role } from '../../shared/auth/principal';
import { createChannel, findChannelById } from '../../shared/data/channels';
import { createApiUser, createWorkspace, getApiUser, getWorkspace, grantChannel } from '../../shared/data/tenants';

/**
 * The operator commands, shared by the CLI (scripts/admin.ts) and the demo seed.
 * Each returns the JSON object the CLI prints; failures throw an OperatorError
 * whose message the CLI prints on stderr. Every CLI call is a process of its own that
 * loads this file (`inbound` and `template sync` for requireChannel), so what only one
 * command needs (the channel view's schemas, the key hashing, the repair, the audit, the
 * phone metadata) is imported inside that command.
 */

export class OperatorError extends Error {}

export async function workspaceCreate(name: string, id?: string) {
  return { id: await createWorkspace(name, id) };
}

export interface KeyCreateInput {
  workspaceId: string;
  role: Role;
  name?: string;
  userId?: string;
  expiresAt?: string;
  /** Seed only: a fixed key so the demo keys are the same every time. */
  apiKey?: string;
  keyId?: string;
  /** Against AWS: the usage plan the user's usage-plan key joins. */
  usagePlanId?: string;
}

/** Creates an API key (a new API user unless `userId` is given); the secret is returned only here. */
export async function keyCreate(input: KeyCreateInput) {
  if (!(await getWorkspace(input.workspaceId))) throw new OperatorError(`No workspace ${input.workspaceId}.`);
  if (input.expiresAt !== undefined && Number.isNaN(Date.parse(input.expiresAt))) throw new OperatorError('--expires-at must be an ISO 8601 date-time.');
  let userId = input.userId;
  if (userId) {
    const user = await getApiUser(input.workspaceId, userId);
    if (!user) throw new OperatorError(`No API user ${userId} in workspace ${input.workspaceId}.`);
    if (user.role !== input.role) throw new OperatorError(`User ${userId} is a ${user.role} user; --role must match.`);
  } else {
    userId = (await createApiUser(input.workspaceId, input.role)).userId;
  }
  const { issueApiKey } = await import('../../shared/domain/api-keys');
  const { keyId, apiKey } = await issueApiKey({ ...input, userId });
  return { keyId, userId, apiKey };
}

/** Revokes a key (against AWS, `usagePlanId` takes the user's usage-plan key out with its last key). */
export async function keyRevoke(keyId: string, usagePlanId?: string) {
  const { withdrawApiKey } = await import('../../shared/domain/api-keys');
  const user = await withdrawApiKey(keyId, usagePlanId);
  if (!user) throw new OperatorError(`No key ${keyId}.`);
  return { keyId, revoked: true as const, user };
}

export interface ChannelCreateInput {
  workspaceId: string;
  ownerUserId: string;
  name: string;
  phoneNumberId: string;
  wabaId?: string;
  accessToken?: string;
  accessTokenSecret?: string;
  displayPhoneNumber?: string;
  id?: string;
}

/** Creates a channel owned by an admin user, whose keys then see it. */
export async function channelCreate(input: ChannelCreateInput) {
  if (!(await getWorkspace(input.workspaceId))) throw new OperatorError(`No workspace ${input.workspaceId}.`);
  const owner = await getApiUser(input.workspaceId, input.ownerUserId);
  if (!owner) throw new OperatorError(`No API user ${input.ownerUserId} in workspace ${input.workspaceId}.`);
  if (owner.role !== 'admin') throw new OperatorError(`The owner must be an admin user; ${input.ownerUserId} is a team user (use channel assign).`);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(input.phoneNumberId)) throw new OperatorError('--phone-number-id must be 1-64 letters, digits, _ or -.');
  let channel;
  try {
    channel = await createChannel({ ...input, ownerUserId: owner.userId });
  } catch (error) {
    throw new OperatorError((error as Error).message);
  }
  await grantChannel(input.workspaceId, owner.userId, channel.id);
  const { toChannelView } = await import('../../shared/domain/channels');
  return { channel, view: toChannelView(channel) };
}

/** Lets a team user's keys use a channel (seen within 10 s by a key already in use). */
export async function channelAssign(channelId: string, userId: string) {
  const channel = await requireChannel(channelId);
  const user = await getApiUser(channel.workspaceId, userId);
  if (!user) throw new OperatorError(`No API user ${userId} in the channel's workspace.`);
  await grantChannel(channel.workspaceId, userId, channelId);
  return { channelId, userId };
}

/**
 * Repair: finishes contacts left pending, rebuilds the channel's compact contact index
 * from the contact items (current bucket layout, current names, no entry without its
 * contact; safe while the channel takes traffic, see `rebuildContactIndex`), then sets
 * the contact count from the rebuilt index. Before that it finishes interrupted erasures
 * and writes missing contact-id pointers and history entries (`repairContacts`).
 * Prints `{"channelId","contactCount","erasuresFinished","idPointers","historyEntries"}`.
 */
export async function contactsRecount(channelId: string) {
  const channel = await requireChannel(channelId);
  const ref = { workspaceId: channel.workspaceId, channelId };
  const { repairContacts } = await import('../../shared/domain/erasure');
  const { recountContacts } = await import('../../shared/data/contact-index-rebuild');
  // First the erasures a crash interrupted (their contacts must not come back into the index), id pointers and history entries.
  const repaired = await repairContacts(ref);
  return { channelId, contactCount: await recountContacts(ref), ...repaired };
}

/**
 * Audit: `contacts status-history --channel CH --phone PHONE` → every opt-out and opt-in
 * recorded for the number in the channel, oldest first: `{channelId, phone, changes:
 * [{status, previousStatus, source, at, keyword?, chatmid?, userId?}]}` (`at` in ISO 8601).
 */
export async function contactStatusHistory(channelId: string, phoneInput: string) {
  const channel = await requireChannel(channelId);
  const { normalizePhone } = await import('../../shared/phone/phone');
  const phone = normalizePhone(phoneInput);
  if (!phone) throw new OperatorError('--phone must be a phone number with country code, e.g. +14155550100.');
  const { listStatusChanges } = await import('../../shared/data/contact-status');
  const changes = await listStatusChanges({ workspaceId: channel.workspaceId, channelId }, phone);
  return {
    channelId,
    phone,
    changes: changes.map(({ status, previousStatus, source, at, keyword, chatmid, userId }) => ({
      status,
      previousStatus,
      source,
      at: new Date(at).toISOString(),
      keyword,
      chatmid,
      userId,
    })),
  };
}

export async function requireChannel(channelId: string) {
  const channel = await findChannelById(channelId);
  if (!channel) throw new OperatorError(`No channel ${channelId}.`);
  return channel;
}

/** Creates an automation in a channel from a steps document (JSON, see README); without one it has no steps. */
export async function automationCreate(channelId: string, name: string, status: string | undefined, stepsDocument: unknown) {
  const { createAutomation } = await import('../../shared/data/automations');
  const { parseSteps } = await import('../../shared/domain/automation-steps');
  const channel = await requireChannel(channelId);
  if (status !== undefined && status !== 'active' && status !== 'inactive') throw new OperatorError('--status must be active or inactive.');
  if (name.trim() === '' || name.length > 100) throw new OperatorError('--name must be 1 to 100 characters.');
  let steps;
  try {
    steps = stepsDocument === undefined ? [] : parseSteps(stepsDocument);
  } catch (error) {
    throw new OperatorError((error as Error).message);
  }
  const automation = await createAutomation(
    { workspaceId: channel.workspaceId, channelId: channel.id },
    { name: name.trim(), status: status ?? 'active', steps },
  );
  if (!automation) throw new OperatorError(`An automation named "${name}" already exists in channel ${channelId} (names are case-insensitive).`);
  return { id: automation.id, name: automation.name, status: automation.status };
}
