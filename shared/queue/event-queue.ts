import type { SQSClient } from '@aws-sdk/client-sqs';
import { clock } from '../clock';
import { MAX_QUEUE_DELAY_SECONDS } from './step-queue';

/**
 * The queue that feeds the event deliverer. In AWS it is SQS (EVENT_QUEUE_URL); a wait
 * longer than SQS's 15-minute delay travels as a chain of hops (the deliverer
 * re-enqueues a message that arrives before its `notBefore`). The local stack (and the
 * tests) provide a durable queue kept in the table with `provideEventQueue`
 * (scripts/local/table-step-queue.ts), so its code never ships in a Lambda bundle.
 */

/** A new event to record and fan out, or a lane to work on (a retry's wake-up, a redelivery). */
export type EventQueueMessage =
  | {
      kind: 'event';
      workspaceId: string;
      channelId: string;
      contactKey: string;
      /** The delivery body, `{id, type, timestamp, data}`. */
      event: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
      /** The item that carried the event: out of the outbox once recorded, if it holds `count` pending events still. */
      source?: { pk: string; sk: string; count: number };
      notBefore?: number;
    }
  | { kind: 'lane'; workspaceId: string; channelId: string; webhookId: string; contactKey: string; notBefore?: number };

export interface EventQueue {
  enqueue(message: EventQueueMessage): Promise<void>;
}

const PROVIDED = Symbol.for('workspace-api.eventQueue');
type WithProvidedQueue = typeof globalThis & { [PROVIDED]?: EventQueue };

/** Assembly hook: the event queue every function of this process uses (undefined goes back to SQS). */
export function provideEventQueue(queue: EventQueue | undefined): void {
  (globalThis as WithProvidedQueue)[PROVIDED] = queue;
}

/** Hands a message to the event queue: the provided one, else SQS at EVENT_QUEUE_URL. */
export async function enqueueEvent(message: EventQueueMessage): Promise<void> {
  const provided = (globalThis as WithProvidedQueue)[PROVIDED];
  if (provided) return provided.enqueue(message);
  const queueUrl = process.env.EVENT_QUEUE_URL;
  if (!queueUrl) throw new Error('No event queue: EVENT_QUEUE_URL is not set and no queue was provided (the local stack provides its table queue).');
  await sqsEventQueue(queueUrl).enqueue(message);
}

let sqs: SQSClient | undefined;

/** The SQS queue at `queueUrl` (client loaded on first use). */
export function sqsEventQueue(queueUrl: string): EventQueue {
  return {
    async enqueue(message) {
      const delaySeconds = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(((message.notBefore ?? 0) - clock.now()) / 1000)));
      const { SQSClient, SendMessageCommand } = await import('@aws-sdk/client-sqs');
      sqs ??= new SQSClient({});
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: delaySeconds }));
    },
  };
}
