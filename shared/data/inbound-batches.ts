import * as v from 'valibot';
import type { Key } from '../identity';
import { batchPutAll, dueOutboxKeys } from './batch';
import { deleteItem, getItem } from './client';
import { entity, tagged } from './entity';
import { inboundShardOf, keys } from './keys';

/** The `INBOUND#` shards of the outbox index, each drained on its own. */
export { INBOUND_PARTITIONS } from './keys';

/**
 * Parts of large chat-network webhooks, handed off durably before the webhook is
 * acknowledged and processed afterwards by the inbound drain (shared/domain/inbound-drain.ts).
 * A part carries its events as the JSON the webhook parsed, and `outboxShard = INBOUND#<n>`
 * / `outboxAt` = when it was received, so the sparse `outbox` index (keys only) lists the
 * waiting parts oldest first without a Scan; the other readers of that index read only
 * their own shards. A part is deleted once its events are processed: a crash in between
 * leaves it to the next drain, and processing is idempotent, so no event is lost and
 * none takes effect twice.
 */
const InboundBatchItem = entity('inboundBatch', {
  /** The webhook's parsed events, as JSON. */
  events: v.string(),
  receivedAt: v.number(),
  outboxShard: v.string(),
  outboxAt: v.number(),
});

/** Writes the parts (BatchWriteItem, 25 a call): each durable before the call returns. */
export async function putInboundBatches(batches: Array<{ id: string; events: string }>, receivedAt: number): Promise<void> {
  await batchPutAll(
    batches.map(({ id, events }) =>
      tagged(InboundBatchItem, keys.inboundBatch(id), { events, receivedAt, outboxShard: inboundShardOf(id), outboxAt: receivedAt }),
    ),
  );
}

/** Keys of the waiting parts of one `INBOUND#` shard, oldest first, at most `limit`. */
export function waitingInboundBatches(shard: string, limit: number): Promise<Key[]> {
  return dueOutboxKeys([shard], Number.MAX_SAFE_INTEGER, limit);
}

/** A waiting part's events (JSON), or undefined when another drain finished it meanwhile. */
export async function getInboundBatch(key: Key): Promise<string | undefined> {
  return (await getItem(key, InboundBatchItem, { consistent: true }))?.events;
}

/** Removes a processed part. */
export async function deleteInboundBatch(key: Key): Promise<void> {
  await deleteItem(key);
}
