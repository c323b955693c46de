import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getItem, putItem, update } from '../../shared/data/client';
import {
  clearPendingEvents,
  dueEventOutboxKeys,
  getOutboxItem,
  pendingEventAttributes,
  withPendingEvent,
  type PendingEvent,
} from '../../shared/data/event-outbox';
import type { Key } from '../../shared/identity';
import { AnyItem } from '../support/table';

/** A source item of its own partition per test (the outbox index is shared by every test). */
const freshKey = (): Key => ({ pk: `TEST#${randomUUID()}`, sk: 'SOURCE' });
const event = (id: string): PendingEvent => ({ id, type: 'message.status', timestamp: '2026-01-01T00:00:00.000Z', data: { id } });

describe('event outbox (shared/data/event-outbox.ts) against dynalite', () => {
  it('lists an item whose events wait since before the cut-off, and leaves out one filed after it', async () => {
    // Prepare
    const old = freshKey();
    const recent = freshKey();
    await putItem({ ...old, ...pendingEventAttributes(old, event('ev_old'), 1_000) });
    await putItem({ ...recent, ...pendingEventAttributes(recent, event('ev_recent'), 5_000) });
    // Act
    const due = await dueEventOutboxKeys(2_000, 1_000);
    // Assess
    expect(due).toContainEqual(old);
    expect(due).not.toContainEqual(recent);
    expect(await getOutboxItem(old)).toMatchObject({ pendingEvents: [event('ev_old')] });
  });

  it('takes the item out of the outbox only when no event was appended since the ones recorded', async () => {
    // Prepare: one event filed with the write, then a second appended by a later change
    const key = freshKey();
    await putItem({ ...key, ...pendingEventAttributes(key, event('ev_1'), 1_000) });
    await withPendingEvent(update(key), key, event('ev_2'), 1_500).send();
    // Act
    const afterFirst = await clearPendingEvents(key, 1);
    const afterBoth = await clearPendingEvents(key, 2);
    const again = await clearPendingEvents(key, 2);
    // Assess
    expect([afterFirst, afterBoth, again]).toEqual([false, true, false]);
    const item = await getItem(key, AnyItem, { consistent: true });
    expect(item).toEqual(key);
    expect(await dueEventOutboxKeys(2_000, 1_000)).not.toContainEqual(key);
  });

  it('never takes an automation-outbox item out (only EVOUTBOX# shards), and clears an item without events at count 0', async () => {
    // Prepare
    const step = freshKey();
    const noEvents = freshKey();
    await putItem({ ...step, outboxShard: 'OUTBOX#1', outboxAt: 1_000 });
    await putItem({ ...noEvents, outboxShard: 'EVOUTBOX#1', outboxAt: 1_000 });
    // Act
    const stepCleared = await clearPendingEvents(step, 0);
    const noEventsCleared = await clearPendingEvents(noEvents, 0);
    // Assess
    expect([stepCleared, noEventsCleared]).toEqual([false, true]);
    expect(await getItem(step, AnyItem, { consistent: true })).toMatchObject({ outboxShard: 'OUTBOX#1' });
    expect(await getItem(noEvents, AnyItem, { consistent: true })).toEqual(noEvents);
  });
});
