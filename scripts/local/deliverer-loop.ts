import type { SqsBatchConsumer } from './table-step-queue';

/**
 * The local stand-in for the event queue's SQS event source: one receiver reads the
 * durable table queue (`LOCALQ#events`, table-step-queue.ts) and invokes the deliverer
 * bundle with SQS-shaped events, deletes what succeeded and retries what failed (dead
 * letters after 5 receives, as the AWS queue's maxReceiveCount). It also runs the event
 * re-drive at start and every 30 s. Everything lives in the table, so a SIGKILL loses
 * no delivery: a restart resumes the queue, retries included.
 */

type DelivererHandler = SqsBatchConsumer;
type RedriveHandler = () => Promise<{ redriven: number }>;

export interface DelivererLoopOptions {
  deliverer: DelivererHandler;
  redrive: RedriveHandler;
  /** Concurrent invocations of the deliverer: a slow receiver (up to 10 s an attempt) holds up only its own batch. */
  workers?: number;
  pollMs?: number;
  redriveEveryMs?: number;
}

const MAX_RECEIVES = 5;
const RETRY_DELAY_MS = 2_000;

export async function startDelivererLoop(options: DelivererLoopOptions): Promise<{ stop(): Promise<void> }> {
  const queue = await import('./table-step-queue');
  let stopped = false;
  let lastRedrive = 0;
  const running: Promise<void>[] = [];

  /** Receives one batch (hidden from other receivers until handled) and the redrive when due; undefined when none is due. */
  async function receive() {
    if (Date.now() - lastRedrive >= (options.redriveEveryMs ?? 30_000)) {
      lastRedrive = Date.now();
      await options.redrive();
    }
    const messages = await queue.receiveLocalMessages(10, queue.EVENT_QUEUE);
    return messages.length ? messages : undefined;
  }

  async function handle(messages: Awaited<ReturnType<typeof queue.receiveLocalMessages>>): Promise<void> {
    await queue.consumeLocalBatch(messages, 'event-queue', options.deliverer, { delayMs: RETRY_DELAY_MS, maxReceives: MAX_RECEIVES });
  }

  // One receiver (receivers racing for the same messages would each write a hidden copy and
  // delete it again), handing each batch to one of `workers` concurrent invocations, as
  // Lambda's event source mapping scales out: a slow receiver holds up only its own batch.
  const inFlight = new Set<Promise<void>>();
  async function loop() {
    while (!stopped) {
      if (inFlight.size >= (options.workers ?? 4)) {
        await Promise.race(inFlight);
        continue;
      }
      const messages = await receive().catch((error: unknown) => {
        console.error('local deliverer error', error);
        return undefined;
      });
      if (!messages) {
        await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 50));
        continue;
      }
      const run: Promise<void> = handle(messages)
        .catch((error: unknown) => console.error('local deliverer error', error))
        .finally(() => inFlight.delete(run));
      inFlight.add(run);
    }
  }
  running.push(loop());
  return {
    async stop() {
      stopped = true;
      await Promise.all(running);
      await Promise.all(inFlight);
    },
  };
}
