import { MAX_RECEIVES } from '../../shared/config';
import type { SqsBatchConsumer } from './table-step-queue';
import { WakeableSleep } from './wakeable-sleep';

/**
 * The local stand-in for SQS's event source mapping: reads the durable table queue
 * (table-step-queue.ts), invokes the runner bundle with SQS-shaped events,
 * deletes what succeeded, retries what failed with backoff and dead-letters after
 * the runner's maximum receives. It also runs the outbox re-drive and the
 * message-content retention sweep (and the inbound drain) at start (see `redriveAtStart`) and every 30 s. Everything lives in the table, so a restart resumes where it stopped.
 *
 * An idle loop reads the table rarely: it hears of the steps this process enqueues
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
  const loop = new RunnerLoop(options, queue, () => clock.now());
  const running = loop.run();
  return { stop: () => loop.stop(running) };
}

type TableQueue = typeof import('./table-step-queue');

/** The loop's state: when it last read and re-drove, and when the earliest message it knows of becomes visible. */
class RunnerLoop {
  private readonly pollMs: number;
  private readonly redriveEveryMs: number;
  private stopped = false;
  private lastRedrive: number;
  private lastRead = 0;
  /** When the earliest message known to be in the queue becomes visible (service clock): found by the last read or heard of since it began. */
  private nextVisibleAt = Infinity;
  private current: Promise<void> = Promise.resolve();
  private readonly sleeping = new WakeableSleep();
  private readonly stopListening: () => void;

  constructor(
    private readonly options: RunnerLoopOptions,
    private readonly queue: TableQueue,
    private readonly now: () => number,
  ) {
    this.pollMs = options.pollMs ?? queue.UNHEARD_READ_MS;
    this.redriveEveryMs = options.redriveEveryMs ?? 30_000;
    this.lastRedrive = options.redriveAtStart === false ? Date.now() : 0;
    this.stopListening = queue.onLocalMessage(queue.STEP_QUEUE, ({ visibleAt }) => {
      this.nextVisibleAt = Math.min(this.nextVisibleAt, visibleAt);
      this.sleeping.wake();
    });
  }

  /** Receives and handles a batch when one may be due; then learns when the next message becomes visible. */
  private async tick(): Promise<void> {
    if (Date.now() - this.lastRedrive >= this.redriveEveryMs) {
      this.lastRedrive = Date.now();
      await this.options.redrive();
      await this.options.sweep?.();
    }
    if (this.untilRead() > 0) return;
    this.lastRead = Date.now();
    // What is heard of from here on may be missing from this read: the listener keeps it.
    this.nextVisibleAt = Infinity;
    const messages = await this.queue.receiveLocalMessages(BATCH_SIZE);
    if (messages.length > 0) {
      await this.queue.consumeLocalBatch(messages, 'automation-queue', this.options.runner, { delayMs: RETRY_DELAY_MS, maxReceives: MAX_RECEIVES });
    }
    // A full batch may have left more due; otherwise the earliest left (a retry, a delayed step, one written meanwhile) says when to read.
    const earliest = messages.length === BATCH_SIZE ? this.now() : await this.queue.earliestVisibleAt(this.queue.STEP_QUEUE);
    this.nextVisibleAt = Math.min(this.nextVisibleAt, earliest ?? Infinity);
  }

  /** Milliseconds until the table is to be read: when the earliest known message is due, or `pollMs` after the last read. */
  private untilRead(): number {
    return Math.max(0, Math.min(this.nextVisibleAt - this.now(), this.pollMs - (Date.now() - this.lastRead)));
  }

  /** Sleeps until the next read or re-drive is due, or a step is enqueued here. */
  private async sleep(): Promise<void> {
    const wait = Math.min(this.untilRead(), this.redriveEveryMs - (Date.now() - this.lastRedrive));
    if (wait <= 0) return;
    await this.sleeping.sleep(wait);
  }

  async run(): Promise<void> {
    // What a killed run had received is nobody's now: taken at once, not after its visibility timeout.
    this.current = this.queue
      .releaseReceivedLocalMessages(this.queue.STEP_QUEUE)
      .then(() => undefined)
      .catch((error: unknown) => console.error('local runner error', error));
    await this.current;
    while (!this.stopped) {
      this.current = this.tick().catch((error: unknown) => console.error('local runner error', error));
      await this.current;
      if (!this.stopped) await this.sleep();
    }
  }

  async stop(running: Promise<void>): Promise<void> {
    this.stopped = true;
    this.sleeping.wake();
    await running;
    this.stopListening();
  }
}
