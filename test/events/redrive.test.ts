import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { usePrivateStore } from '../support/private-store';

// The outbox index of a table of this file's own: the re-drive reads whole shards, which other files write to.
const store = await usePrivateStore();
afterAll(() => store.close());

const { putItem, getItem } = await import('../../shared/data/client');
const { pendingEventAttributes } = await import('../../shared/data/event-outbox');
const { eventOutboxShardOf } = await import('../../shared/data/keys');
const { redriveEvents } = await import('../../shared/domain/events');
const { EVENT_REDRIVE_AFTER_MS, EVENT_REDRIVE_REPEAT_MS } = await import('../../shared/config');
const { useMemoryEventQueue } = await import('../support/event-queue');
const { AnyItem } = await import('../support/table');
const { clock } = await import('../../shared/clock');
const { attachChatmid } = await import('../../shared/data/messages');
const lanes = await import('../../shared/data/events');
const { sweepLanes } = await import('../../shared/domain/event-delivery');
const { keys } = await import('../../shared/data/keys');
type Key = import('../../shared/identity').Key;

const queue = useMemoryEventQueue();

/** A source key (a chatmid pointer's shape) that falls in outbox shard `shard`. */
function keyInShard(shard: string): Key {
  for (;;) {
    const key = { pk: `CHATMID#wamid.${randomUUID()}`, sk: 'CHATMID' };
    if (eventOutboxShardOf(key) === shard) return key;
  }
}

const statusEvent = (at: number) => ({
  id: `evt_${at.toString(36).padStart(9, '0')}${randomUUID().replace(/-/g, '').slice(0, 16)}`,
  type: 'message.status',
  timestamp: new Date(at).toISOString(),
  data: { chatmid: 'wamid.x', status: 'delivered' },
});

/** A status webhook's pointer for a message this service never sent: no tenant, its event waits for an attach that never comes. */
async function putOrphan(key: Key, at: number) {
  await putItem({ ...key, status: 'delivered', ...pendingEventAttributes(key, statusEvent(at), at) });
}

/** A pointer of a tenant whose event's hand-off failed. */
async function putDue(key: Key, at: number) {
  await putItem({ ...key, workspaceId: 'wks_r', channelId: 'chn_r', phone: '+15550000001', ...pendingEventAttributes(key, statusEvent(at), at) });
}

const sentMessage = {
  workspaceId: 'wks_r',
  channelId: 'chn_r',
  messageId: 'msg_r',
  direction: 'outbound' as const,
  type: 'text',
  phone: '+15550000002',
  at: 1_767_225_600_000,
  phoneNumberId: 'pn_r',
};

const handedOver = (key: Key) => queue.messages.filter(({ message }) => message.kind === 'event' && message.source?.pk === key.pk);

describe('the event re-drive (shared/domain/events.ts) against a table of its own', () => {
  it('reports the age of the oldest due item with a tenant (tenant-less ones are not late: they wait for a send); first, with the oldest items of the file', async () => {
    // Prepare
    const shard = 'EVOUTBOX#7';
    const base = 500_000;
    await putOrphan(keyInShard(shard), base - 50_000);
    await putDue(keyInShard(shard), base);
    const now = base + 90_000;
    // Act
    const result = await redriveEvents(now);
    // Assess
    expect(result.oldestDueAgeMs).toBe(90_000);
  });

  it('is not blocked by tenant-less items: 150 orphans older than a due item in its shard, and the due item is handed over', async () => {
    // Prepare: the orphans are older, so a page of the shard oldest first holds only them
    const shard = 'EVOUTBOX#3';
    const base = 1_000_000;
    for (let i = 0; i < 150; i++) await putOrphan(keyInShard(shard), base + i);
    const due = keyInShard(shard);
    await putDue(due, base + 1_000);
    // Act
    await redriveEvents(base + 1_000 + EVENT_REDRIVE_AFTER_MS + 1);
    // Assess
    expect(handedOver(due)).toHaveLength(1);
  });

  it('parks an orphan until it is attached, so the next pass does not read it again, and an attach makes it due again', async () => {
    // Prepare
    const shard = 'EVOUTBOX#5';
    const base = 2_000_000;
    const orphan = keyInShard(shard);
    await putOrphan(orphan, base);
    // Act
    const now = base + EVENT_REDRIVE_AFTER_MS + 1;
    const first = await redriveEvents(now);
    const parked = await getItem(orphan, AnyItem, { consistent: true });
    const second = await redriveEvents(now + 60_000);
    clock.freeze(now + 120_000);
    await attachChatmid({ ...sentMessage, chatmid: orphan.pk.slice('CHATMID#'.length) });
    clock.reset();
    const afterAttach = await redriveEvents(now + 120_000 + EVENT_REDRIVE_AFTER_MS);
    // Assess: out of the due range, still in the outbox with its event, and handed over once attached
    expect([first.parked, second.parked]).toEqual([1, 0]);
    expect(parked).toMatchObject({ outboxShard: shard, pendingEvents: [expect.objectContaining({ type: 'message.status' })] });
    expect(parked?.outboxAt as number).toBeGreaterThan(now + 60_000);
    expect(afterAttach.parked).toBe(0);
    expect(handedOver(orphan)).toHaveLength(1);
  });

  it('hands a due item over once per EVENT_REDRIVE_REPEAT_MS, not at every pass, while the deliverer is behind; its age counts from its oldest event', async () => {
    // Prepare: a tenant's item whose hand-off failed; the deliverer never takes it out (it is minutes behind)
    const shard = 'EVOUTBOX#6';
    const base = 2_500_000;
    const due = keyInShard(shard);
    await putDue(due, base);
    const first = base + EVENT_REDRIVE_AFTER_MS + 1;
    // Act: a pass every minute until just before the repeat, then one after it
    const passes = [];
    for (let at = first; at < first + EVENT_REDRIVE_REPEAT_MS; at += 60_000) passes.push(await redriveEvents(at));
    const handedInRepeat = handedOver(due).length;
    const again = await redriveEvents(first + EVENT_REDRIVE_REPEAT_MS);
    // Assess: handed over at the first pass only, then again after the repeat time, with its true age
    expect(passes.length).toBeGreaterThan(1);
    expect(handedInRepeat).toBe(1);
    expect(passes.slice(1).map((pass) => pass.redriven)).toEqual(passes.slice(1).map(() => 0));
    expect(handedOver(due)).toHaveLength(2);
    // (the earlier tests' items are due again too: the age is the oldest's, at least this one's)
    expect(again.oldestDueAgeMs).toBeGreaterThanOrEqual(first + EVENT_REDRIVE_REPEAT_MS - base);
  });

  it('hands over every due item of a shard in one pass, past the first page', async () => {
    // Prepare
    const shard = 'EVOUTBOX#6';
    const base = 3_000_000;
    const keys = Array.from({ length: 130 }, () => keyInShard(shard));
    for (const [i, key] of keys.entries()) await putDue(key, base + i);
    // Act
    await redriveEvents(base + 130 + EVENT_REDRIVE_AFTER_MS);
    // Assess
    expect(keys.filter((key) => handedOver(key).length === 1)).toHaveLength(130);
  });
});

/** An event joins its lane, and a deliverer takes the lane's lock (`nowMs`: when). */
async function joinAndLock(
  channel: { workspaceId: string; channelId: string },
  webhookId: string,
  contactKey: string,
  eventId: string,
  lock: { owner: string; nowMs: number; until: number },
) {
  await lanes.addToLane(channel, webhookId, contactKey, eventId);
  await lanes.lockLane(channel, webhookId, contactKey, lock.owner, lock.nowMs, lock.until);
}

describe('the lane sweep (shared/domain/events.ts): a lane whose wake-up was lost is found and woken', () => {
  const channel = { workspaceId: 'wks_sweep', channelId: 'chn_sweep' };
  const wakeUpsOf = (contactKey: string) => queue.messages.filter(({ message }) => message.kind === 'lane' && message.contactKey === contactKey);

  it("wakes a lane whose holder died (its lease ended long ago) and one whose retry's wake-up went to the dead-letter queue", async () => {
    // Prepare: both lanes hold an event, and no message in any queue will ever work them
    const now = Date.now();
    await joinAndLock(channel, 'wh_s', '14155550001', 'evt_a', { owner: 'dead', nowMs: now - 120_000, until: now - 100_000 });
    await joinAndLock(channel, 'wh_s', '14155550002', 'evt_b', { owner: 'one', nowMs: now - 120_000, until: now - 100_000 });
    await lanes.deferLane(channel, 'wh_s', '14155550002', 'one', now - 90_000);
    await lanes.releaseLane(channel, 'wh_s', '14155550002', 'one', now - 95_000);
    // Act
    const swept = await sweepLanes(now);
    // Assess
    expect(swept.woken).toBeGreaterThanOrEqual(2);
    expect(wakeUpsOf('14155550001')).toEqual([
      expect.objectContaining({ message: { kind: 'lane', ...channel, webhookId: 'wh_s', contactKey: '14155550001' } }),
    ]);
    expect(wakeUpsOf('14155550002')).toHaveLength(1);
  });

  it('leaves alone a lane being worked and a lane waiting for its retry, and forgets an emptied lane', async () => {
    // Prepare
    const now = Date.now();
    await joinAndLock(channel, 'wh_s', '14155550003', 'evt_c', { owner: 'live', nowMs: now, until: now + 20_000 });
    await joinAndLock(channel, 'wh_s', '14155550004', 'evt_d', { owner: 'two', nowMs: now, until: now + 20_000 });
    await lanes.deferLane(channel, 'wh_s', '14155550004', 'two', now + 3_600_000);
    await lanes.releaseLane(channel, 'wh_s', '14155550004', 'two', now);
    await joinAndLock(channel, 'wh_s', '14155550005', 'evt_e', { owner: 'three', nowMs: now - 120_000, until: now - 100_000 });
    await lanes.finishLastLaneEvent(channel, 'wh_s', '14155550005', 'three', 'evt_e');
    // Act
    await sweepLanes(now);
    // Assess
    expect(wakeUpsOf('14155550003')).toEqual([]);
    expect(wakeUpsOf('14155550004')).toEqual([]);
    expect(wakeUpsOf('14155550005')).toEqual([]);
    expect(await getItem(keys.deliveryLane(channel, 'wh_s', '14155550005'), AnyItem, { consistent: true })).not.toHaveProperty('outboxShard');
  });
});
