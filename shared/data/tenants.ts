import * as v from 'valibot';
import { clock } from '../clock';
import { newId } from '../ids';
import { queryAll } from './batch';
import { getItem, putNew, update, when } from './client';
import { entity, tagged, type Attributes } from './entity';
import { keys } from './keys';

/** Workspaces, API users and API keys: what the operator CLI writes and the authorizer reads. */

/** What an API user may do: admins see every channel of the workspace they own or are given, team users the ones assigned. */
const ROLES = ['admin', 'team'] as const;
export type Role = (typeof ROLES)[number];

const WorkspaceItem = entity('workspace', { id: v.string(), name: v.string(), createdAt: v.string() });

/** An API user: its role, the channels it may use, its keys. */
const ApiUserItem = entity('apiUser', {
  userId: v.string(),
  role: v.picklist(ROLES),
  createdAt: v.string(),
  /** The channels the user may use (a string set; absent while empty). */
  channelIds: v.optional(v.set(v.string())),
  /** Ids of the user's keys not revoked (a string set; absent while empty). */
  activeKeyIds: v.optional(v.set(v.string())),
  /** The API Gateway usage-plan key of this user (AWS only): its id, and its value (the authorizer's usageIdentifierKey). */
  usagePlanKeyId: v.optional(v.string()),
  usagePlanKeyValue: v.optional(v.string()),
});

/** An API key's pointer item, by the key's SHA-256 hash: its workspace, user and state (the key itself is never stored). */
const ApiKeyItem = entity('apiKey', {
  keyHash: v.string(),
  keyId: v.string(),
  workspaceId: v.string(),
  userId: v.string(),
  role: v.picklist(ROLES),
  name: v.optional(v.string()),
  expiresAt: v.optional(v.string()),
  revoked: v.boolean(),
  revokedAt: v.optional(v.string()),
  createdAt: v.string(),
});
export type ApiKeyRecord = Omit<Attributes<typeof ApiKeyItem>, 'revokedAt'>;

/** An API key's id pointer: its public id → its hash, so operators can revoke by id. */
const ApiKeyIdItem = entity('apiKeyId', { keyId: v.string(), keyHash: v.string(), workspaceId: v.string() });

/** An API key in its user's key list: what the portal shows of it, never the key or its hash. */
const UserKeyItem = entity('userKey', {
  keyId: v.string(),
  name: v.optional(v.string()),
  /** The key's first characters (`wsk_` and 4 more): enough to tell keys apart, far too few to guess the rest. */
  prefix: v.string(),
  createdAt: v.string(),
  expiresAt: v.optional(v.string()),
  revokedAt: v.optional(v.string()),
});
export type UserKeyRecord = Omit<Attributes<typeof UserKeyItem>, 'entity'>;

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
  await putNew(tagged(WorkspaceItem, keys.workspace(id), { id, name, createdAt: clock.nowIso() }));
  return id;
}

export async function getWorkspace(workspaceId: string): Promise<{ id: string; name: string } | undefined> {
  const item = await getItem(keys.workspace(workspaceId), WorkspaceItem);
  return item ? { id: item.id, name: item.name } : undefined;
}

/** Creates an API user of a workspace. */
export async function createApiUser(workspaceId: string, role: Role, userId = newId('usr')): Promise<ApiUserRecord> {
  await putNew(tagged(ApiUserItem, keys.apiUser(workspaceId, userId), { userId, role, createdAt: clock.nowIso() }));
  return { workspaceId, userId, role, channelIds: [] };
}

/** One consistent read of an API user with the channels it may use. */
export async function getApiUser(workspaceId: string, userId: string): Promise<ApiUserRecord | undefined> {
  const Item = await getItem(keys.apiUser(workspaceId, userId), ApiUserItem, { consistent: true });
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
 * Stores a key's hash pointer, its id pointer (the id lets operators revoke it) and its
 * entry in its user's key list, and adds the key to its user's active keys. The list
 * entry goes first: a key that works is always listed (a failure after it leaves an
 * entry of a key that never worked, which a revoke clears).
 */
export async function putApiKey(record: ApiKeyRecord, listed: { prefix: string }): Promise<void> {
  await putNew(
    tagged(UserKeyItem, keys.apiUserKey(record.workspaceId, record.userId, record.keyId), {
      keyId: record.keyId,
      name: record.name,
      prefix: listed.prefix,
      createdAt: record.createdAt,
      expiresAt: record.expiresAt,
    }),
  );
  await putNew(tagged(ApiKeyItem, keys.apiKeyByHash(record.keyHash), record));
  await putNew(tagged(ApiKeyIdItem, keys.apiKeyById(record.keyId), { keyId: record.keyId, keyHash: record.keyHash, workspaceId: record.workspaceId }));
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
  return getItem(keys.apiKeyByHash(keyHash), ApiKeyItem, { consistent: true });
}

/**
 * Marks a key revoked and takes it out of its user's active keys. Returns undefined
 * when no key has that id, else the user and how many active keys it has left.
 */
export async function revokeApiKey(keyId: string): Promise<{ workspaceId: string; userId: string; activeKeys: number; usagePlanKeyId?: string } | undefined> {
  const pointer = await getItem(keys.apiKeyById(keyId), ApiKeyIdItem, { consistent: true });
  if (!pointer) return undefined;
  // Unconditional updates: only a condition makes their result undefined.
  const revokedAt = clock.nowIso();
  const key = (await update(keys.apiKeyByHash(pointer.keyHash)).set('revoked', true).set('revokedAt', revokedAt).sendReturning(ApiKeyItem))!;
  // A key made before the list existed has no entry: only an existing one is marked.
  await update(keys.apiUserKey(key.workspaceId, key.userId, keyId))
    .setIfNotExists('revokedAt', revokedAt)
    .when(when.itemExists())
    .send();
  // Only the attributes this needs: the update is unconditional, so it would also write a user item that is not there.
  const user = await update(keys.apiUser(key.workspaceId, key.userId))
    .deleteFromSet('activeKeyIds', new Set([keyId]))
    .sendReturning(v.pick(ApiUserItem, ['activeKeyIds', 'usagePlanKeyId']));
  return { workspaceId: key.workspaceId, userId: key.userId, activeKeys: user?.activeKeyIds?.size ?? 0, usagePlanKeyId: user?.usagePlanKeyId };
}

/** Reads a key's id pointer and then its record (operator use; the authorizer reads by hash). */
export async function getApiKeyById(keyId: string): Promise<ApiKeyRecord | undefined> {
  const pointer = await getItem(keys.apiKeyById(keyId), ApiKeyIdItem, { consistent: true });
  return pointer ? getApiKeyByHash(pointer.keyHash) : undefined;
}

/**
 * A user's keys, newest first: the entries of its key list (one query), and any active
 * key made before the list existed, read by its id.
 */
export async function listUserKeys(workspaceId: string, userId: string): Promise<UserKeyRecord[]> {
  const { pk, skPrefix } = keys.apiUserKeyPrefix(workspaceId, userId);
  const listed: UserKeyRecord[] = (await queryAll(pk, skPrefix, UserKeyItem)).map(({ keyId, name, prefix, createdAt, expiresAt, revokedAt }) => ({
    keyId,
    name,
    prefix,
    createdAt,
    expiresAt,
    revokedAt,
  }));
  const user = await getItem(keys.apiUser(workspaceId, userId), v.pick(ApiUserItem, ['activeKeyIds']));
  const unlisted = [...(user?.activeKeyIds ?? [])].filter((keyId) => !listed.some((key) => key.keyId === keyId));
  for (const keyId of unlisted) {
    const key = await getApiKeyById(keyId);
    if (key) listed.push({ keyId, name: key.name, prefix: UNLISTED_PREFIX, createdAt: key.createdAt, expiresAt: key.expiresAt });
  }
  return listed.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.keyId.localeCompare(a.keyId));
}

/** The prefix shown for a key made before key lists kept one (the key itself is not stored). */
const UNLISTED_PREFIX = 'wsk_…';
