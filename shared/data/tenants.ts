import { clock } from '../clock';
import { newId } from '../ids';
import { getItem, putNew, update, when } from './client';
import { keys } from './keys';

/** Workspaces, API users and API keys: what the operator CLI writes and the authorizer reads. */

/** What an API user may do: admins see every channel of the workspace they own or are given, team users the ones assigned. */
export type Role = 'admin' | 'team';

export interface ApiKeyRecord {
  keyHash: string;
  keyId: string;
  workspaceId: string;
  userId: string;
  role: Role;
  name?: string;
  expiresAt?: string;
  revoked: boolean;
  createdAt: string;
}

export interface ApiUserRecord {
  workspaceId: string;
  userId: string;
  role: Role;
  channelIds: string[];
  /** The API Gateway usage-plan key of this user (AWS only): the authorizer's usageIdentifierKey. */
  usagePlanKeyValue?: string;
}

/** Creates a workspace and returns its id. */
export async function createWorkspace(name: string, id = newId('ws')): Promise<string> {
  await putNew({ ...keys.workspace(id), entity: 'workspace', id, name, createdAt: clock.nowIso() });
  return id;
}

export async function getWorkspace(workspaceId: string): Promise<{ id: string; name: string } | undefined> {
  const item = await getItem<{ id: string; name: string }>(keys.workspace(workspaceId));
  return item ? { id: item.id, name: item.name } : undefined;
}

/** Creates an API user of a workspace. */
export async function createApiUser(workspaceId: string, role: Role, userId = newId('usr')): Promise<ApiUserRecord> {
  await putNew({ ...keys.apiUser(workspaceId, userId), entity: 'apiUser', userId, role, createdAt: clock.nowIso() });
  return { workspaceId, userId, role, channelIds: [] };
}

/** One consistent read of an API user with the channels it may use. */
export async function getApiUser(workspaceId: string, userId: string): Promise<ApiUserRecord | undefined> {
  const Item = await getItem<{ role: Role; channelIds?: Set<string>; usagePlanKeyValue?: string }>(keys.apiUser(workspaceId, userId), { consistent: true });
  if (!Item) return undefined;
  return {
    workspaceId,
    userId,
    role: Item.role,
    channelIds: [...(Item.channelIds ?? [])].sort(),
    usagePlanKeyValue: Item.usagePlanKeyValue,
  };
}

/** Adds a channel to the set a user may use (idempotent: a string-set ADD). */
export async function grantChannel(workspaceId: string, userId: string, channelId: string): Promise<void> {
  await update(keys.apiUser(workspaceId, userId))
    .add('channelIds', new Set([channelId]))
    .when(when.itemExists())
    .sendOrThrow();
}

/**
 * Stores a key's hash pointer and its id pointer (the id lets operators revoke it),
 * and adds the key to its user's active keys.
 */
export async function putApiKey(record: ApiKeyRecord): Promise<void> {
  await putNew({ ...keys.apiKeyByHash(record.keyHash), entity: 'apiKey', ...record });
  await putNew({ ...keys.apiKeyById(record.keyId), entity: 'apiKeyId', keyId: record.keyId, keyHash: record.keyHash, workspaceId: record.workspaceId });
  await update(keys.apiUser(record.workspaceId, record.userId))
    .add('activeKeyIds', new Set([record.keyId]))
    .send();
}

/** Records the API Gateway usage-plan key of a user (AWS only). */
export async function setUsagePlanKey(workspaceId: string, userId: string, usagePlanKey: { apiGatewayKeyId: string; value: string } | null): Promise<void> {
  await update(keys.apiUser(workspaceId, userId))
    .setOrRemove('usagePlanKeyId', usagePlanKey?.apiGatewayKeyId ?? null)
    .setOrRemove('usagePlanKeyValue', usagePlanKey?.value ?? null)
    .when(when.itemExists())
    .sendOrThrow();
}

/** Reads a key's pointer item by the key's hash (strongly consistent, so a revocation is seen at once). */
export async function getApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
  return getItem<ApiKeyRecord>(keys.apiKeyByHash(keyHash), { consistent: true });
}

/**
 * Marks a key revoked and takes it out of its user's active keys. Returns undefined
 * when no key has that id, else the user and how many active keys it has left.
 */
export async function revokeApiKey(keyId: string): Promise<{ workspaceId: string; userId: string; activeKeys: number; usagePlanKeyId?: string } | undefined> {
  const pointer = await getItem<{ keyHash: string }>(keys.apiKeyById(keyId), { consistent: true });
  if (!pointer) return undefined;
  // Unconditional updates: only a condition makes their result undefined.
  const key = (await update(keys.apiKeyByHash(pointer.keyHash)).set('revoked', true).set('revokedAt', clock.nowIso()).sendReturning<ApiKeyRecord>())!;
  const user = await update(keys.apiUser(key.workspaceId, key.userId))
    .deleteFromSet('activeKeyIds', new Set([keyId]))
    .sendReturning<{ activeKeyIds?: Set<string>; usagePlanKeyId?: string }>();
  return { workspaceId: key.workspaceId, userId: key.userId, activeKeys: user?.activeKeyIds?.size ?? 0, usagePlanKeyId: user?.usagePlanKeyId };
}

/** Reads a key's id pointer and then its record (operator use; the authorizer reads by hash). */
export async function getApiKeyById(keyId: string): Promise<ApiKeyRecord | undefined> {
  const pointer = await getItem<{ keyHash: string }>(keys.apiKeyById(keyId), { consistent: true });
  return pointer ? getApiKeyByHash(pointer.keyHash) : undefined;
}
