import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { until } from '../support/eventually';
import { usePrivateStore } from '../support/private-store';

/**
 * The local event queue's receiver (scripts/local/deliverer-loop.ts) over the durable
 * table queue, with a stand-in deliverer that records what it is handed. The file has a
 * store of its own: the loop takes every message of `LOCALQ#events`, and other test
 * files' handlers write there.
 */

const store = await usePrivateStore();
const { startDelivererLoop } = await import('../../scripts/local/deliverer-loop');
const { EVENT_QUEUE, localMessageItem, localQueueDepth, tableEventQueue } = await import('../../scripts/local/table-step-queue');
const { db, tableName } = await import('../../shared/data/client');
const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
const { clock } = await import('../../shared/clock');
type EventQueueMessage = import('../../shared/queue/event-queue').EventQueueMessage;

const lane = (contactKey: string): EventQueueMessage => ({ kind: 'lane', workspaceId: 'ws_loop', channelId: 'ch_loop', webhookId: 'wh_loop', contactKey });
const laneOf = (workspaceId: string, webhookId: string, contactKey: string): EventQueueMessage => ({
  kind: 'lane',
  workspaceId,
  channelId: 'ch_loop',
  webhookId,
  contactKey,
});
const newEvent = (id: string, contactKey: string): EventQueueMessage => ({
  kind: 'event',
  workspaceId: 'ws_loop',
  channelId: 'ch_loop',
  contactKey,
  event: { id, type: 'message.status', timestamp: '2026-11-26T00:00:00.000Z', data: {} },
});

/**
 * A deliverer that handles each event in `ms`, logging when it starts and ends, and fails
 * an event's first `failures[id]` receives.
 */
function timedDeliverer(ms: number, failures: Record<string, number> = {}, holds: Record<string, Promise<void>> = {}) {
  const log: string[] = [];
  const deliverer = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failed = await Promise.all(
      event.Records.map(async (record) => {
        const message = JSON.parse(record.body) as EventQueueMessage & { kind: 'event' };
        log.push(`start ${message.event.id}`);
        await (holds[message.event.id] ?? new Promise((resolve) => setTimeout(resolve, ms)));
        log.push(`end ${message.event.id}`);
        return Number(record.attributes.ApproximateReceiveCount) <= (failures[message.event.id] ?? 0) ? [{ itemIdentifier: record.messageId }] : [];
      }),
    );
    return { batchItemFailures: failed.flat() };
  };
  return { log, deliverer };
}

/** A deliverer that records each record it is handed (its contact and receive count) and fails the contacts in `failing`. */
function recordingDeliverer(failing = new Set<string>()) {
  const handed: Array<{ contactKey: string; receiveCount: number }> = [];
  const deliverer = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: Array<{ itemIdentifier: string }> = [];
    for (const record of event.Records) {
      const { contactKey } = JSON.parse(record.body) as Extract<EventQueueMessage, { contactKey: string }>;
      handed.push({ contactKey, receiveCount: Number(record.attributes.ApproximateReceiveCount) });
      if (failing.has(contactKey)) failures.push({ itemIdentifier: record.messageId });
    }
    return { batchItemFailures: failures };
  };
  return { handed, deliverer };
}

/** A deliverer that records each batch's workspaces and holds every batch of `ws_noisy` (a receiver that never answers) until `release`. */
function noisyDeliverer() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const state = { handed: [] as string[], batches: 0, release: () => release() };
  const deliverer = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const workspaces = event.Records.map((record) => (JSON.parse(record.body) as EventQueueMessage).workspaceId);
    state.handed.push(...workspaces);
    if (workspaces.includes('ws_noisy')) {
      state.batches++;
      await released;
    }
    return { batchItemFailures: [] };
  };
  return Object.assign(state, { deliverer });
}

let loops: Array<{ stop(): Promise<void> }> = [];
const start = async (options: Omit<Parameters<typeof startDelivererLoop>[0], 'redrive'>) => {
  const loop = await startDelivererLoop({ redrive: async () => ({ redriven: 0 }), ...options });
  loops.push(loop);
  return loop;
};

/** A message written straight into the table queue, as another process (or one killed after a receive) leaves it. */
async function writeToTable(messageId: string, message: EventQueueMessage, receiveCount: number, now = Date.now()) {
  const item = localMessageItem({ messageId, body: JSON.stringify(message), visibleAt: now, receiveCount, queue: EVENT_QUEUE });
  await db.send(new PutCommand({ TableName: tableName(), Item: item }));
}

afterEach(async () => {
  for (const loop of loops) await loop.stop();
  loops = [];
});

afterAll(async () => {
  await store.close();
});

describe('the local event queue receiver', () => {
  it('hands over a message this process writes without reading the table for it, and deletes it once handled', async () => {
    // Prepare: the table is read once at start, then not for ten minutes
    const { handed, deliverer } = recordingDeliverer();
    await start({ deliverer, pollMs: 600_000 });
    // Act
    await tableEventQueue.enqueue(lane('14155550301'));
    await until(() => handed.length === 1, 'the hand-over');
    await until(async () => (await localQueueDepth(EVENT_QUEUE)).queued === 0, 'the delete');
    // Assess
    expect(handed).toEqual([{ contactKey: '14155550301', receiveCount: 1 }]);
    expect(await localQueueDepth(EVENT_QUEUE)).toEqual({ queued: 0, dead: 0 });
  });

  it('hands over a delayed message this process writes when it becomes due, not before and without reading the table for it', async () => {
    // Prepare: the table is read once at start, then not for ten minutes
    const { handed, deliverer } = recordingDeliverer();
    const handedAt: number[] = [];
    await start({ deliverer: async (event) => (handedAt.push(clock.now()), deliverer(event)), pollMs: 600_000 });
    const notBefore = clock.now() + 300;
    // Act
    await tableEventQueue.enqueue({ ...lane('14155550398'), notBefore });
    await until(() => handed.length === 1, 'the hand-over');
    // Assess
    expect(handed).toEqual([{ contactKey: '14155550398', receiveCount: 1 }]);
    expect(handedAt[0]).toBeGreaterThanOrEqual(notBefore);
  });

  it('takes what another process writes straight into the table while it runs, at its next read', async () => {
    // Prepare: a message heard of here is handed over first, so the read at start is past
    const { handed, deliverer } = recordingDeliverer();
    await start({ deliverer, pollMs: 100 });
    await tableEventQueue.enqueue(lane('14155550396'));
    await until(() => handed.length === 1, 'the message heard of');
    // Act
    await writeToTable('msg_loop_elsewhere', lane('14155550397'), 0);
    await until(() => handed.length === 2, 'the message written elsewhere');
    // Assess
    expect(handed).toEqual([
      { contactKey: '14155550396', receiveCount: 1 },
      { contactKey: '14155550397', receiveCount: 1 },
    ]);
  });

  it('takes a delayed message another process wrote when it becomes due, without waiting for its next read of the table', async () => {
    // Prepare: the table is read once at start, then not for ten minutes
    const visibleAt = clock.now() + 300;
    await writeToTable('msg_loop_later', lane('14155550395'), 0, visibleAt);
    const { handed, deliverer } = recordingDeliverer();
    const handedAt: number[] = [];
    // Act
    await start({ deliverer: async (event) => (handedAt.push(clock.now()), deliverer(event)), pollMs: 600_000 });
    await until(() => handed.length === 1, 'the hand-over');
    // Assess
    expect(handed).toEqual([{ contactKey: '14155550395', receiveCount: 1 }]);
    expect(handedAt[0]).toBeGreaterThanOrEqual(visibleAt);
  });

  it('takes what another process wrote straight into the table, and what a killed receiver left there, each once', async () => {
    // Prepare: messages in the table before the loop starts, as another process or a killed stack leaves them
    for (const [i, contactKey] of ['14155550302', '14155550303', '14155550304'].entries()) await writeToTable(`msg_loop${i}`, lane(contactKey), i);
    const { handed, deliverer } = recordingDeliverer();
    // Act
    await start({ deliverer, pollMs: 20 });
    await until(async () => (await localQueueDepth(EVENT_QUEUE)).queued === 0, 'the queue drained');
    // Assess
    expect(handed.sort((a, b) => a.contactKey.localeCompare(b.contactKey))).toEqual([
      { contactKey: '14155550302', receiveCount: 1 },
      { contactKey: '14155550303', receiveCount: 2 },
      { contactKey: '14155550304', receiveCount: 3 },
    ]);
  });

  it('retries a failed message with its receive count and dead-letters it after 5 receives (also one read from the table), the others handled once', async () => {
    // Prepare
    const { handed, deliverer } = recordingDeliverer(new Set(['14155550305', '14155550307']));
    await writeToTable('msg_loop_fourth', lane('14155550307'), 4);
    await start({ deliverer, pollMs: 20, retryDelayMs: 1 });
    // Act
    await tableEventQueue.enqueue(lane('14155550305'));
    await tableEventQueue.enqueue(lane('14155550306'));
    // Both conditions: the healthy message's delete may land after the second dead letter.
    await until(async () => {
      const depth = await localQueueDepth(EVENT_QUEUE);
      return depth.dead === 2 && depth.queued === 0;
    }, 'the dead letters and the delete');
    // Assess
    expect(handed.filter((entry) => entry.contactKey === '14155550305').map((entry) => entry.receiveCount)).toEqual([1, 2, 3, 4, 5]);
    expect(handed.filter((entry) => entry.contactKey === '14155550306')).toEqual([{ contactKey: '14155550306', receiveCount: 1 }]);
    expect(handed.filter((entry) => entry.contactKey === '14155550307')).toEqual([{ contactKey: '14155550307', receiveCount: 5 }]);
    expect(await localQueueDepth(EVENT_QUEUE)).toEqual({ queued: 0, dead: 2 });
  });

  it("keeps a contact's events in their FIFO group: none handed out while an earlier one is in a batch, other contacts meanwhile", async () => {
    // Prepare: batches of one, so each event would go to its own concurrent worker; the first stays in its batch until released
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const { log, deliverer } = timedDeliverer(5, {}, { evt_fifo_1: firstHeld });
    await start({ deliverer, pollMs: 20, batchSize: 1, workers: 4 });
    // Act
    await tableEventQueue.enqueue(newEvent('evt_fifo_1', '14155550310'));
    await tableEventQueue.enqueue(newEvent('evt_fifo_2', '14155550310'));
    await tableEventQueue.enqueue(newEvent('evt_fifo_3', '14155550311'));
    // The other contact's event (queued after evt_fifo_2) goes out while the first is still in its batch.
    await until(() => log.includes('start evt_fifo_3'), "the other contact's event");
    releaseFirst();
    await until(() => log.filter((entry) => entry.startsWith('end')).length === 3, 'three events handled');
    // Assess
    expect(log.indexOf('start evt_fifo_2')).toBeGreaterThan(log.indexOf('end evt_fifo_1'));
    expect(log.indexOf('start evt_fifo_3')).toBeLessThan(log.indexOf('end evt_fifo_1'));
  });

  it("holds a contact's later event back while an earlier one waits for its retry, then hands both out in order", async () => {
    // Prepare
    const { log, deliverer } = timedDeliverer(5, { evt_retry_1: 1 });
    await start({ deliverer, pollMs: 20, retryDelayMs: 300, batchSize: 1, workers: 4 });
    // Act
    await tableEventQueue.enqueue(newEvent('evt_retry_1', '14155550312'));
    await tableEventQueue.enqueue(newEvent('evt_retry_2', '14155550312'));
    await until(async () => log.filter((entry) => entry.startsWith('end')).length === 3 && (await localQueueDepth(EVENT_QUEUE)).queued === 0, 'the retry');
    // Assess
    expect(log.filter((entry) => entry.startsWith('start'))).toEqual(['start evt_retry_1', 'start evt_retry_1', 'start evt_retry_2']);
  });

  it("keeps a workspace within its share of the workers: another workspace's message goes out while all of the first one's batches hang", async () => {
    // Prepare: workspace A's messages are handled only when the test lets them go (a receiver that never answers)
    const noisy = noisyDeliverer();
    const { handed, release } = noisy;
    await start({ deliverer: noisy.deliverer, pollMs: 20, workers: 4, batchSize: 2 });
    let noisyWhileHanging: number;
    try {
      for (let i = 0; i < 20; i++) await tableEventQueue.enqueue(laneOf('ws_noisy', `wh_${i % 10}`, `1415555${String(2000 + i)}`));
      await until(() => noisy.batches >= 3, "the noisy workspace's batches");
      // Act
      await tableEventQueue.enqueue(laneOf('ws_quiet', 'wh_quiet', '14155553000'));
      await until(() => handed.includes('ws_quiet'), "the quiet workspace's message");
      noisyWhileHanging = noisy.batches;
    } finally {
      release();
    }
    await until(() => handed.length === 21, 'everything handled');
    // Assess: 3 of the 4 workers at most, the last one kept for the others
    expect(noisyWhileHanging).toBe(3);
  });

  it('holds a workspace to the smaller contended share while another workspace is active, so its flood keeps few batches beside the other', async () => {
    // Prepare: the service clock stands still (the quiet workspace stays active); the noisy workspace's batches hang until released
    clock.freeze(Date.now());
    const noisy = noisyDeliverer();
    const { handed, release } = noisy;
    await start({ deliverer: noisy.deliverer, pollMs: 20, workers: 8, batchSize: 2 });
    let noisyWhileQuietActive: number;
    try {
      await tableEventQueue.enqueue(laneOf('ws_quiet', 'wh_quiet', '14155556000'));
      await until(() => handed.includes('ws_quiet'), "the quiet workspace's first message");
      // Act: the noisy workspace's flood, then the quiet workspace's next message
      for (let i = 0; i < 30; i++) await tableEventQueue.enqueue(laneOf('ws_noisy', `wh_${i % 10}`, `1415555${String(6100 + i)}`));
      await until(() => noisy.batches >= 2, "the noisy workspace's batches");
      await tableEventQueue.enqueue(laneOf('ws_quiet', 'wh_quiet', '14155556001'));
      await until(() => handed.filter((workspace) => workspace === 'ws_quiet').length === 2, "the quiet workspace's next message");
      noisyWhileQuietActive = noisy.batches;
    } finally {
      release();
      clock.reset();
    }
    await until(() => handed.length === 32, 'everything handled');
    // Assess: a quarter of the 8 workers, not the 6 of its share when alone
    expect(noisyWhileQuietActive).toBe(2);
  });

  it("holds a workspace to a few new events in flight while another workspace is active, so its fan-outs' table calls stay few beside the other's", async () => {
    // Prepare: the service clock stands still (the quiet workspace stays active); both workspaces' messages are in the
    // table before the loop starts, so it finds the noisy workspace's import-like burst of new events whole; its batches
    // hang until released
    clock.freeze(Date.now());
    const noisy = noisyDeliverer();
    const { handed, release } = noisy;
    await tableEventQueue.enqueue(laneOf('ws_quiet', 'wh_quiet', '14155556200'));
    for (let i = 0; i < 30; i++)
      await tableEventQueue.enqueue({ ...newEvent(`evt_burst_${String(i).padStart(2, '0')}`, `1415555${6300 + i}`), workspaceId: 'ws_noisy' });
    const noisyHanded = () => handed.filter((workspace) => workspace === 'ws_noisy').length;
    let noisyWhileQuietActive: number;
    try {
      // Act
      await start({ deliverer: noisy.deliverer, pollMs: 20, workers: 8, batchSize: 4 });
      await until(() => handed.includes('ws_quiet') && noisyHanded() > 0, "both workspaces' first messages");
      await tableEventQueue.enqueue(laneOf('ws_quiet', 'wh_quiet', '14155556201'));
      await until(() => handed.filter((workspace) => workspace === 'ws_quiet').length === 2, "the quiet workspace's next message");
      noisyWhileQuietActive = noisyHanded();
      // The quiet workspace's own new event goes out meanwhile too (its lane batches counted no fan-outs)
      await tableEventQueue.enqueue({ ...newEvent('evt_quiet_1', '14155556202'), workspaceId: 'ws_quiet' });
      await until(() => handed.filter((workspace) => workspace === 'ws_quiet').length === 3, "the quiet workspace's new event");
    } finally {
      release();
      clock.reset();
    }
    await until(() => handed.length === 33, 'everything handled');
    // Assess: 2 new events, in a batch cut to fit — not the 8 of its 2 contended batches
    expect(noisyWhileQuietActive).toBe(2);
  });

  it("holds only a burst to the cap: a workspace's few new events go out in one batch beside another's burst", async () => {
    // Prepare: the service clock stands still; the quiet workspace's 3 new events (under a batch) and the noisy
    // workspace's burst of 30 are in the table before the loop starts; the noisy workspace's batches hang until released
    clock.freeze(Date.now());
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const batches: string[][] = [];
    const deliverer = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const workspaces = event.Records.map((record) => (JSON.parse(record.body) as EventQueueMessage).workspaceId);
      batches.push(workspaces);
      if (workspaces.includes('ws_noisy')) await released;
      return { batchItemFailures: [] };
    };
    for (let i = 0; i < 3; i++) await tableEventQueue.enqueue({ ...newEvent(`evt_few_${i}`, `1415555${6400 + i}`), workspaceId: 'ws_quiet' });
    for (let i = 0; i < 30; i++)
      await tableEventQueue.enqueue({ ...newEvent(`evt_many_${String(i).padStart(2, '0')}`, `1415555${6500 + i}`), workspaceId: 'ws_noisy' });
    try {
      // Act
      await start({ deliverer, pollMs: 20, workers: 8, batchSize: 4 });
      await until(() => batches.flat().filter((workspace) => workspace === 'ws_quiet').length === 3, "the quiet workspace's events");
    } finally {
      release();
      clock.reset();
    }
    await until(() => batches.flat().length === 33, 'everything handled');
    // Assess: the quiet workspace's 3 events in one batch; the noisy one's burst 2 at a time meanwhile
    expect(batches.filter((batch) => batch.includes('ws_quiet'))).toEqual([['ws_quiet', 'ws_quiet', 'ws_quiet']]);
  });

  it('serves workspaces, and subscriptions within one, in turns, not first come first served', async () => {
    // Prepare: one worker, held by a first batch while a backlog builds: workspace A's first subscription, its second one's, then workspace B's
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const batches: string[][] = [];
    const deliverer = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const bodies = event.Records.map((record) => JSON.parse(record.body) as EventQueueMessage & { kind: 'lane' });
      batches.push(bodies.map((body) => `${body.workspaceId}/${body.webhookId}`));
      if (bodies.some((body) => body.webhookId === 'wh_gate')) await released;
      return { batchItemFailures: [] };
    };
    await start({ deliverer, pollMs: 20, workers: 1, batchSize: 4 });
    const backlog = [
      ...Array.from({ length: 8 }, (_, i) => laneOf('ws_a', 'wh_first', `1415555${4000 + i}`)),
      ...Array.from({ length: 4 }, (_, i) => laneOf('ws_a', 'wh_second', `1415555${4100 + i}`)),
      ...Array.from({ length: 2 }, (_, i) => laneOf('ws_b', 'wh_b', `1415555${4200 + i}`)),
    ];
    try {
      await tableEventQueue.enqueue(laneOf('ws_a', 'wh_gate', '14155554300'));
      await until(() => batches.length === 1, 'the first batch');
      for (const message of backlog) await tableEventQueue.enqueue(message);
    } finally {
      release();
    }
    // Act
    await until(() => batches.flat().length === backlog.length + 1, 'the backlog handled');
    // Assess: B, served least recently, first; then A's subscriptions in turns
    expect(batches.slice(1, 3)).toEqual([
      ['ws_b/wh_b', 'ws_b/wh_b'],
      ['ws_a/wh_first', 'ws_a/wh_second', 'ws_a/wh_first', 'ws_a/wh_second'],
    ]);
  });

  it('runs the event re-drive at start by default, and first after its period with redriveAtStart false (a table the start created)', async () => {
    for (const redriveAtStart of [undefined, false]) {
      // Prepare: a re-drive that counts its runs, due every ten minutes
      let redrives = 0;
      const { handed, deliverer } = recordingDeliverer();
      const loop = await startDelivererLoop({ deliverer, redrive: async () => ({ redriven: redrives++ }), redriveEveryMs: 600_000, redriveAtStart });
      loops.push(loop);
      // Act: a message handed over proves the loop has taken its turns (each turn starts a due re-drive before it hands out)
      await tableEventQueue.enqueue(lane(`1415555039${redriveAtStart === false ? 1 : 0}`));
      await until(() => handed.length === 1, 'the hand-over');
      await loop.stop();
      // Assert
      expect(redrives).toBe(redriveAtStart === false ? 0 : 1);
    }
  });
});
