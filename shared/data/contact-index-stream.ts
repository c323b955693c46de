import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { keys, type ChannelRef } from './keys';

/**
 * The channel's compact contact index (the `CIDX#` bucket items: phone digits →
 * lowercased name prefix) read page by page, each query page (≤ 1 MB) handed to the
 * caller and then dropped, so a reader keeps only what it selects: memory stays at one
 * page plus the selection, whatever the channel's size (≈ 28 MB of index at 1M
 * contacts would be ≈ 150 MB as JavaScript objects if held whole).
 */
export async function streamContactIndex(channel: ChannelRef, visit: (phone: string, name: string) => void): Promise<void> {
  const { pk, skPrefix } = keys.contactIndexPrefix(channel);
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const bucket of (result.Items ?? []) as Array<Record<string, string>>) {
      for (const phone in bucket) if (phone !== 'pk' && phone !== 'sk') visit(phone, bucket[phone]);
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}

/** The head's count and phones version (consistent): what deep pages check their cached phone order against. */
export async function readPhonesVersion(channel: ChannelRef): Promise<{ contactCount: number; phonesVersion: number }> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.contactHead(channel), ProjectionExpression: 'contactCount, phonesVersion', ConsistentRead: true }),
  );
  return { contactCount: Number(Item?.contactCount ?? 0), phonesVersion: Number(Item?.phonesVersion ?? 0) };
}
