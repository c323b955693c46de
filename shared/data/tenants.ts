import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { newId } from '../ids';
import { db, tableName } from './client';
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
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.workspace(id), entity: 'workspace', id, name, createdAt: clock.nowIso() },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return id;
}

export async function getWorkspace(workspaceId: string): Promise<{ id: string; name: string } | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.workspace(workspaceId) }));
  return Item ? { id: Item.id, name: Item.name } : undefined;
}

/** Creates an API user of a workspace. */
export async function createApiUser(workspaceId: string, role: Role, userId = newId('usr')): Promise<ApiUserRecord> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.apiUser(workspaceId, userId), entity: 'apiUser', userId, role, createdAt: clock.nowIso() },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { workspaceId, userId, role, channelIds: [] };
}

/** One consistent read of an API user with the channels it may use. */
export async function getApiUser(workspaceId: string, userId: string): Promise<ApiUserRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.apiUser(workspaceId, userId), ConsistentRead: true }));
  if (!Item) return undefined;
  return {
    workspaceId,
    userId,
    role: Item.role,
    channelIds: [...((Item.channelIds as Set<string> | undefined) ?? [])].sort(),
    usagePlanKeyValue: Item.usagePlanKeyValue,
  };
}

/** Adds a channel to the set a user may use (idempotent: a string-set ADD). */
export async function grantChannel(workspaceId: string, userId: string, channelId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiUser(workspaceId, userId),
      UpdateExpression: 'ADD channelIds :channel',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':channel': new Set([channelId]) },
    }),
  );
}

/**
 * Stores a key's hash pointer and its id pointer (the id lets operators revoke it),
 * and adds the key to its user's active keys.
 */
export async function putApiKey(record: ApiKeyRecord): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.apiKeyByHash(record.keyHash), entity: 'apiKey', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.apiKeyById(record.keyId), entity: 'apiKeyId', keyId: record.keyId, keyHash: record.keyHash, workspaceId: record.workspaceId },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiUser(record.workspaceId, record.userId),
      UpdateExpression: 'ADD activeKeyIds :key',
      ExpressionAttributeValues: { ':key': new Set([record.keyId]) },
    }),
  );
}

/** Records the API Gateway usage-plan key of a user (AWS only). */
export async function setUsagePlanKey(workspaceId: string, userId: string, usagePlanKey: { apiGatewayKeyId: string; value: string } | null): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiUser(workspaceId, userId),
      ...(usagePlanKey
        ? { UpdateExpression: 'SET usagePlanKeyId = :id, usagePlanKeyValue = :value', ExpressionAttributeValues: { ':id': usagePlanKey.apiGatewayKeyId, ':value': usagePlanKey.value } }
        : { UpdateExpression: 'REMOVE usagePlanKeyId, usagePlanKeyValue' }),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

/** Reads a key's pointer item by the key's hash (strongly consistent, so a revocation is seen at once). */
export async function getApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyByHash(keyHash), ConsistentRead: true }));
  return Item as ApiKeyRecord | undefined;
}

/**
 * Marks a key revoked and takes it out of its user's active keys. Returns undefined
 * when no key has that id, else the user and how many active keys it has left.
 */
export async function revokeApiKey(keyId: string): Promise<{ workspaceId: string; userId: string; activeKeys: number; usagePlanKeyId?: string } | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyById(keyId), ConsistentRead: true }));
  if (!Item) return undefined;
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiKeyByHash(Item.keyHash),
      UpdateExpression: 'SET revoked = :true, revokedAt = :now',
      ExpressionAttributeValues: { ':true': true, ':now': clock.nowIso() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const key = Attributes as ApiKeyRecord;
  const user = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiUser(key.workspaceId, key.userId),
      UpdateExpression: 'DELETE activeKeyIds :key',
      ExpressionAttributeValues: { ':key': new Set([keyId]) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const remaining = (user.Attributes?.activeKeyIds as Set<string> | undefined)?.size ?? 0;
  return { workspaceId: key.workspaceId, userId: key.userId, activeKeys: remaining, usagePlanKeyId: user.Attributes?.usagePlanKeyId };
}

/** Reads a key's id pointer and then its record (operator use; the authorizer reads by hash). */
export async function getApiKeyById(keyId: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyById(keyId), ConsistentRead: true }));
  return Item ? getApiKeyByHash(Item.keyHash) : undefined;
}
