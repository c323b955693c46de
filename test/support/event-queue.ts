import type { Context, SQSEvent } from 'aws-lambda';
import { beforeAll } from 'vitest';
import { clock } from '../../shared/clock';
import { provideEventQueue, type EventQueueMessage } from '../../shared/queue/event-queue';
import { sqsEvent } from './automations';
import type { WebhookHandler } from './chat';

/**
 * An in-memory event queue for handler tests: what the service enqueues is kept here
 * (delays included), and `drain` runs the real deliverer handler over it until nothing
 * is left. A delayed message is delivered at its time, which the service clock skips to
 * instead of waiting for it in real time. A file of its own, so tests
 * never work other files' events.
 */

type Deliverer = (event: SQSEvent, context: Context) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;

export interface MemoryEventQueue {
  messages: Array<{ id: number; message: EventQueueMessage; receiveCount: number }>;
  /** Every message ever enqueued, in order (drained ones included). */
  sent: EventQueueMessage[];
  /**
   * Delivers until the queue is empty or `until` holds, or `maxMs` (real time, and the time
   * skipped) has passed: by default 20 s, and 120 s with `until` (there the budget only
   * catches a hang: a loaded machine must not end the drain before its condition).
   */
  drain(deliverer: Deliverer, options?: { until?: () => boolean; maxMs?: number }): Promise<void>;
}

export function useMemoryEventQueue(): MemoryEventQueue {
  let next = 0;
  const queue: MemoryEventQueue = {
    messages: [],
    sent: [],
    async drain(deliverer, options = {}) {
      const budgetMs = options.maxMs ?? (options.until ? 120_000 : 20_000);
      const started = clock.realNow();
      // Service time the drain skipped instead of waiting it out: it counts against the budget as waited time would.
      let skippedMs = 0;
      const elapsed = () => clock.realNow() - started + skippedMs;
      while (queue.messages.length > 0 && elapsed() < budgetMs && !options.until?.()) {
        const due = queue.messages.filter((entry) => (entry.message.notBefore ?? 0) <= clock.now()).slice(0, 10);
        if (due.length === 0) {
          // Nothing due yet (a retry, a lane's wake-up after a lease): the service clock moves on to the first
          // message's time, as waiting would move it, without the wait. A frozen clock does not move: wait.
          const wait = Math.min(Math.min(...queue.messages.map((entry) => entry.message.notBefore ?? 0)) - clock.now(), budgetMs - elapsed());
          if (clock.isFrozen()) await new Promise((resolve) => setTimeout(resolve, 50));
          else {
            clock.shift(wait);
            skippedMs += wait;
          }
          continue;
        }
        queue.messages = queue.messages.filter((entry) => !due.includes(entry));
        const event = sqsEvent(due.map((entry) => ({ messageId: String(entry.id), body: JSON.stringify(entry.message), receiveCount: ++entry.receiveCount })));
        // An invocation error (every record of the batch failed) returns every message, as Lambda does.
        const { batchItemFailures } = await deliverer(event, {} as Context).catch(() => ({
          batchItemFailures: due.map((entry) => ({ itemIdentifier: String(entry.id) })),
        }));
        for (const failure of batchItemFailures) {
          const entry = due.find((candidate) => String(candidate.id) === failure.itemIdentifier)!;
          if (entry.receiveCount < 5) queue.messages.push(entry);
        }
      }
    },
  };
  provideEventQueue({
    async enqueue(message) {
      queue.sent.push(message);
      queue.messages.push({ id: next++, message, receiveCount: 0 });
    },
  });
  return queue;
}

/** The event pipeline of a handler test file: the in-memory event queue, the real deliverer and the real chat webhook handler. */
export interface DeliveryPipeline {
  queue: MemoryEventQueue;
  deliverer: Deliverer;
  webhook: WebhookHandler;
}

/**
 * Sets up {@link DeliveryPipeline} before the file's tests (loopback receivers allowed,
 * as test/support/receiver.ts listens on 127.0.0.1); its fields are there from then on.
 * `env` is set before the handlers are imported, since they read their settings once.
 */
export function useDeliveryPipeline(env: Record<string, string> = {}): DeliveryPipeline {
  const pipeline = {} as DeliveryPipeline;
  beforeAll(async () => {
    Object.assign(process.env, { WEBHOOK_ALLOW_LOOPBACK: 'true', ...env });
    pipeline.queue = useMemoryEventQueue();
    pipeline.deliverer = ((await import('../../functions/event-deliverer')) as unknown as { handler: Deliverer }).handler;
    pipeline.webhook = ((await import('../../functions/webhook-whatsapp')) as unknown as { handler: WebhookHandler }).handler;
  });
  return pipeline;
}
