import * as v from 'valibot';
import type { ChannelRef, Key } from '../identity';
import { batchGetAll } from './batch';
import { getItem, putItem, when } from './client';
import { entity, keyed, tagged } from './entity';
import { keys } from './keys';
import { type NumberHasher, numberHasher } from './number-hash';

/**
 * Erasure tombstones (`TOMBSTONE#<hash>`, INTERFACE §15): that a contact was erased, and
 * when, under the keyed hash of its phone (shared/data/number-hash.ts), never the phone.
 * The erasure writes one before it deletes the contact's events; the event deliverer
 * reads it after recording an event in the log and before each attempt, and drops an
 * event of that contact whose id time is not after the erasure. So an event raised
 * before the erasure and still in flight (queued, waiting in its lane, behind a retry)
 * is neither delivered nor kept in the log, while the number's events after the erasure
 * (a new contact) go out as usual.
 */

/** Kept longer than any event can be in flight: the queues keep a message at most 14 days (SQS's limit). */
const TOMBSTONE_RETENTION_SECONDS = 15 * 24 * 60 * 60;

const TombstoneItem = entity('erasureTombstone', {
  /** The erasure's time (ms): events raised until then are erased. */
  at: v.number(),
  /** TTL (epoch seconds). */
  expiresAt: v.number(),
});

/** The tombstone's key under the current suppression key (where it is written)… */
const tombstoneKey = (hasher: NumberHasher, channel: ChannelRef, contactKey: string): Key =>
  keys.erasureTombstone(channel, hasher.current(channel, contactKey));

/** …and every key it may be under (the replaced key's too, after a rotation). */
const tombstoneKeys = (hasher: NumberHasher, channel: ChannelRef, contactKey: string): Key[] =>
  hasher.all(channel, contactKey).map((hash) => keys.erasureTombstone(channel, hash));

const id = ({ pk, sk }: Key) => `${pk}\n${sk}`;

/** Records that the contact `phone` is erased as of `at` (idempotent; a later erasure moves the time on). */
export async function writeTombstone(channel: ChannelRef, phone: string, at: number): Promise<void> {
  const key = tombstoneKey(await numberHasher(), channel, phone);
  const item = tagged(TombstoneItem, key, { at, expiresAt: Math.floor(at / 1000) + TOMBSTONE_RETENTION_SECONDS });
  await putItem(item, when.or(when.itemAbsent(), when.lte('at', at)));
}

/** When the contact `contactKey` was last erased (ms), if it was (a consistent read: an erasure that has begun is seen). */
export async function erasedAt(channel: ChannelRef, contactKey: string): Promise<number | undefined> {
  const keysOfContact = tombstoneKeys(await numberHasher(), channel, contactKey);
  return latest(await Promise.all(keysOfContact.map(async (key) => (await getItem(key, TombstoneItem, { consistent: true }))?.at)));
}

/** The latest of the erasure times found (one tombstone a key; two keys while a rotation's previous key is kept). */
function latest(times: ReadonlyArray<number | undefined>): number | undefined {
  const found = times.filter((time) => time !== undefined);
  return found.length > 0 ? Math.max(...found) : undefined;
}

/**
 * {@link erasedAt} of many contacts at once (one consistent BatchGetItem per 100): a
 * lookup of when each erased one was last erased.
 */
export async function erasuresOf(
  contacts: ReadonlyArray<{ channel: ChannelRef; contactKey: string }>,
): Promise<(channel: ChannelRef, contactKey: string) => number | undefined> {
  const hasher = await numberHasher();
  const wanted = new Map(contacts.flatMap(({ channel, contactKey }) => tombstoneKeys(hasher, channel, contactKey)).map((key) => [id(key), key]));
  const found = await batchGetAll([...wanted.values()], keyed(TombstoneItem), true);
  const at = new Map(found.map((item) => [id(item), item.at]));
  return (channel, contactKey) => latest(tombstoneKeys(hasher, channel, contactKey).map((key) => at.get(id(key))));
}
