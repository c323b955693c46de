import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addToLane, finishLaneEvent, finishLastLaneEvent, laneInHand, lockLane } from '../../shared/data/events';

/**
 * The delivery lane's writes against dynalite (shared/data/events.ts): the lock, and the
 * one-write steps the deliverer takes — joining (which says whether a deliverer has the
 * lane in hand), leaving with the release — which must refuse whenever another deliverer
 * or another event is involved.
 */

const channel = () => ({ workspaceId: 'ws_lanes', channelId: `ch_${randomBytes(6).toString('hex')}` });
const lease = (ms = 15_000) => ({ nowMs: Date.now(), until: Date.now() + ms });
type Lock = { owner: string; nowMs: number; until: number };
/** An event joins its lane, and a deliverer then takes the lane's lock. */
async function joinAndLock(ch: ReturnType<typeof channel>, webhookId: string, contactKey: string, eventId: string, lock: Lock) {
  await addToLane(ch, webhookId, contactKey, eventId);
  return lockLane(ch, webhookId, contactKey, lock.owner, lock.nowMs, lock.until);
}

describe('delivery lanes', () => {
  it('lets an event join a free lane, which no deliverer has in hand, and leave with the release in one write', async () => {
    // Prepare
    const ch = channel();
    // Act
    const joined = await addToLane(ch, 'wh_1', '14155550401', 'evt_a');
    const locked = await lockLane(ch, 'wh_1', '14155550401', 'one', Date.now(), Date.now() + 15_000);
    const left = await finishLastLaneEvent(ch, 'wh_1', '14155550401', 'one', 'evt_a');
    const after = await lockLane(ch, 'wh_1', '14155550401', 'two', Date.now(), Date.now() + 15_000);
    // Assess
    expect(joined).toMatchObject({ waiting: ['evt_a'] });
    expect(laneInHand(joined, Date.now())).toBe(false);
    expect(locked).toMatchObject({ waiting: ['evt_a'], lockOwner: 'one' });
    expect(left).toBe(true);
    expect(after).toMatchObject({ waiting: [], lockOwner: 'two' });
  });

  it('says an event that joins while another deliverer holds the lock is in hand: the holder sees it, no one else takes the lock', async () => {
    // Prepare
    const ch = channel();
    await joinAndLock(ch, 'wh_1', '14155550402', 'evt_a', { owner: 'one', ...lease() });
    // Act
    const joined = await addToLane(ch, 'wh_1', '14155550402', 'evt_b');
    const refused = await lockLane(ch, 'wh_1', '14155550402', 'two', Date.now(), Date.now() + 15_000);
    const holder = await lockLane(ch, 'wh_1', '14155550402', 'one', Date.now(), Date.now() + 15_000);
    // Assess
    expect(laneInHand(joined, Date.now())).toBe(true);
    expect(refused).toBeUndefined();
    expect(holder?.waiting).toEqual(['evt_a', 'evt_b']);
  });

  it('takes over a lock whose lease has ended', async () => {
    // Prepare
    const ch = channel();
    await joinAndLock(ch, 'wh_1', '14155550403', 'evt_a', { owner: 'dead', nowMs: Date.now() - 20_000, until: Date.now() - 5_000 });
    // Act
    const joined = await addToLane(ch, 'wh_1', '14155550403', 'evt_b');
    const taken = await lockLane(ch, 'wh_1', '14155550403', 'next', Date.now(), Date.now() + 15_000);
    // Assess
    expect(laneInHand(joined, Date.now())).toBe(false);
    expect(taken).toMatchObject({ waiting: ['evt_a', 'evt_b'], lockOwner: 'next' });
  });

  it('keeps the lock while another event waits: leaving with the release is refused, and the event leaves alone', async () => {
    // Prepare
    const ch = channel();
    await joinAndLock(ch, 'wh_1', '14155550404', 'evt_a', { owner: 'one', ...lease() });
    await addToLane(ch, 'wh_1', '14155550404', 'evt_b');
    // Act
    const refused = await finishLastLaneEvent(ch, 'wh_1', '14155550404', 'one', 'evt_a');
    const state = await finishLaneEvent(ch, 'wh_1', '14155550404', 'one', 'evt_a', Date.now() + 15_000);
    const other = await lockLane(ch, 'wh_1', '14155550404', 'two', Date.now(), Date.now() + 15_000);
    // Assess
    expect(refused).toBe(false);
    expect(state).toMatchObject({ waiting: ['evt_b'], lockOwner: 'one' });
    expect(other).toBeUndefined();
  });

  it('refuses the release to a deliverer that no longer holds the lock', async () => {
    // Prepare
    const ch = channel();
    await joinAndLock(ch, 'wh_1', '14155550405', 'evt_a', { owner: 'one', nowMs: Date.now() - 20_000, until: Date.now() - 5_000 });
    await lockLane(ch, 'wh_1', '14155550405', 'two', Date.now(), Date.now() + 15_000);
    // Act
    const refused = await finishLastLaneEvent(ch, 'wh_1', '14155550405', 'one', 'evt_a');
    const state = await lockLane(ch, 'wh_1', '14155550405', 'two', Date.now(), Date.now() + 15_000);
    // Assess
    expect(refused).toBe(false);
    expect(state).toMatchObject({ waiting: ['evt_a'], lockOwner: 'two' });
  });
});
