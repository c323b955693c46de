import { MAX_RECEIVES } from '../../shared/config';
import type { SqsBatchConsumer } from './table-step-queue';

/**
 * The local stand-in for SQS's event source mapping: reads the durable table queue
 * (table-step-queue.ts), invokes the runner bundle with SQS-shaped events,
 * deletes what succeeded, retries what failed with backoff and dead-letters after
 * the runner's maximum receives. It also runs the outbox re-drive and the
 * message-content retention sweep (and the inbound drain) at start (see `redriveAtStart`) and every 30 s. Everything lives in the table, so a restart resumes where it stopped.
 */

type RunnerHandler = SqsBatchConsumer;
type RedriveHandler = () => Promise<{ redriven: number }>;

export interface RunnerLoopOptions {
  runner: RunnerHandler;
  redrive: RedriveHandler;
  /** The message-content retention sweep, run beside the re-drive (hourly in AWS). */
  sweep?: () => Promise<unknown>;
  /** How often the queue is read. */
  pollMs?: number;
  redriveEveryMs?: number;
  /** Whether the re-drive and the sweep run at start (default) or first after `redriveEveryMs`. */
  redriveAtStart?: boolean;
}

const RETRY_DELAY_MS = 2_000;

export async function startRunnerLoop(options: RunnerLoopOptions): Promise<{ stop(): Promise<void> }> {
  const queue = await import('./table-step-queue');
  let stopped = false;
  let lastRedrive = options.redriveAtStart === false ? Date.now() : 0;
  let current: Promise<void> = Promise.resolve();

  async function tick() {
    if (Date.now() - lastRedrive >= (options.redriveEveryMs ?? 30_000)) {
      lastRedrive = Date.now();
      await options.redrive();
      await options.sweep?.();
    }
    const messages = await queue.receiveLocalMessages(10);
    if (messages.length === 0) return;
    await queue.consumeLocalBatch(messages, 'automation-queue', options.runner, { delayMs: RETRY_DELAY_MS, maxReceives: MAX_RECEIVES });
  }

  async function loop() {
    while (!stopped) {
      current = tick().catch((error: unknown) => console.error('local runner error', error));
      await current;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
    }
  }
  void loop();
  return {
    async stop() {
      stopped = true;
      await current;
    },
  };
}
