import { erasuresOf } from '../data/erasure-tombstones';
import { eventIdTime } from '../events/event-types';
import type { ChannelRef } from '../identity';

/**
 * Which events an erasure took (INTERFACE §15): an event of a contact raised no later
 * than the contact's erasure (its tombstone, shared/data/erasure-tombstones.ts) is
 * neither delivered nor listed, whatever step the erasure or the deliverer has reached;
 * the number's events after the erasure belong to a new contact and go out as usual.
 */

/** Whether the event `eventId` was raised before an erasure of its contact at `erased` (ms), if there was one. */
export const raisedBefore = (eventId: string, erased: number | undefined) => erased !== undefined && eventIdTime(eventId) <= erased;

/** The entries whose event an erasure took (one consistent BatchGetItem of the tombstones per 100 contacts; none for no entries). */
export async function erasedEntries<Entry extends { channel: ChannelRef; event: { id: string; contactKey: string } }>(entries: Entry[]): Promise<Entry[]> {
  if (!entries.length) return [];
  const erasedAtOf = await erasuresOf(entries.map(({ channel, event }) => ({ channel, contactKey: event.contactKey })));
  return entries.filter(({ channel, event }) => raisedBefore(event.id, erasedAtOf(channel, event.contactKey)));
}
