import { MAX_RECEIVES } from '../../shared/config';
import type { SqsBatchConsumer } from './table-step-queue';

/**
 * The local stand-in for SQS's event source mapping: reads the durable table queue
 * (table-step-queue.ts), invokes the runner bundle with SQS-shaped events,
 * deletes what succeeded, retries what failed with backoff and dead-letters after
 * the runner's maximum receives. It also runs the outbox re-drive and the
 * message-content retention sweep (and the inbound drain) at start (see `redriveAtStart`) and every 30 s. Everything lives in the table, so a restart resumes where it stopped.
 *
 * An idle stack reads nothing: the loop hears of the steps this process enqueues
 * (`onLocalMessage`) and receives at once those due, reads the table when the earliest
 * message it knows of becomes due (after a read that left nothing due, one Limit-1 Query
 * tells when the next one does), and otherwise every `pollMs` for what another process
 * wrote (UNHEARD_READ_MS: the invariant is there).
 */

type RunnerHandler = SqsBatchConsumer;
type RedriveHandler = () => Promise<{ redriven: number }>;

export interface RunnerLoopOptions {
  runner: RunnerHandler;
  redrive: RedriveHandler;
  /** The message-content retention sweep, run beside the re-drive (hourly in AWS). */
  sweep?: () => Promise<unknown>;
  /** How often, at most, the table is read for messages this process did not write (default UNHEARD_READ_MS). */
  pollMs?: number;
  redriveEveryMs?: number;
  /** Whether the re-drive and the sweep run at start (default) or first after `redriveEveryMs`. */
  redriveAtStart?: boolean;
}

const RETRY_DELAY_MS = 2_000;
const BATCH_SIZE = 10;

export async function startRunnerLoop(options: RunnerLoopOptions): Promise<{ stop(): Promise<void> }> {
  const queue = await import('./table-step-queue');
  // The queue's visibility times are the service clock's (tests move it).
  const { clock } = await import('../../shared/clock');
  const pollMs = options.pollMs ?? queue.UNHEARD_READ_MS;
  const redriveEveryMs = options.redriveEveryMs ?? 30_000;
  let stopped = false;
  let lastRedrive = options.redriveAtStart === false ? Date.now() : 0;
  let lastRead = 0;
  /** When the earliest message known to be in the queue becomes visible (service clock): found by the last read or heard of since it began. */
  let nextVisibleAt = Infinity;
  let wake: (() => void) | undefined;
  const stopListening = queue.onLocalMessage(queue.STEP_QUEUE, ({ visibleAt }) => {
    nextVisibleAt = Math.min(nextVisibleAt, visibleAt);
    wake?.();
  });
  let current: Promise<void> = Promise.resolve();

  /** Receives and handles a batch when one may be due; then learns when the next message becomes visible. */
  async function tick() {
    if (Date.now() - lastRedrive >= redriveEveryMs) {
      lastRedrive = Date.now();
      await options.redrive();
      await options.sweep?.();
    }
    if (untilRead() > 0) return;
    lastRead = Date.now();
    // What is heard of from here on may be missing from this read: the listener keeps it.
    nextVisibleAt = Infinity;
    const messages = await queue.receiveLocalMessages(BATCH_SIZE);
    if (messages.length > 0)
      await queue.consumeLocalBatch(messages, 'automation-queue', options.runner, { delayMs: RETRY_DELAY_MS, maxReceives: MAX_RECEIVES });
    // A full batch may have left more due; otherwise the earliest left (a retry, a delayed step, one written meanwhile) says when to read.
    const earliest = messages.length === BATCH_SIZE ? clock.now() : await queue.earliestVisibleAt(queue.STEP_QUEUE);
    nextVisibleAt = Math.min(nextVisibleAt, earliest ?? Infinity);
  }

  /** Milliseconds until the table is to be read: when the earliest known message is due, or `pollMs` after the last read. */
  function untilRead(): number {
    return Math.max(0, Math.min(nextVisibleAt - clock.now(), pollMs - (Date.now() - lastRead)));
  }

  /** Sleeps until the next read or re-drive is due, or a step is enqueued here. */
  async function sleep() {
    const wait = Math.min(untilRead(), redriveEveryMs - (Date.now() - lastRedrive));
    if (wait <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = undefined;
  }

  async function loop() {
    // What a killed run had received is nobody's now: taken at once, not after its visibility timeout.
    current = queue
      .releaseReceivedLocalMessages(queue.STEP_QUEUE)
      .then(() => undefined)
      .catch((error: unknown) => console.error('local runner error', error));
    await current;
    while (!stopped) {
      current = tick().catch((error: unknown) => console.error('local runner error', error));
      await current;
      if (!stopped) await sleep();
    }
  }
  void loop();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await current;
      stopListening();
    },
  };
}
