import { queuePort, type QueuePort } from './queue-port';

/**
 * The queue that feeds the event deliverer: SQS (EVENT_QUEUE_URL) in AWS, the durable
 * table queue the local stack provides with `provideEventQueue` (queue-port.ts).
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

export type EventQueue = QueuePort<EventQueueMessage>;

// Pure: a bundle that imports this module without handing off carries no queue code (bundle-clients.test.ts).
const eventQueue = /* @__PURE__ */ queuePort<EventQueueMessage>('workspace-api.eventQueue', 'EVENT_QUEUE_URL', 'event queue');

/** Assembly hook: the event queue every function of this process uses (undefined goes back to SQS). */
export function provideEventQueue(queue: EventQueue | undefined): void {
  eventQueue.provide(queue);
}

/** Hands a message to the event queue: the provided one, else SQS at EVENT_QUEUE_URL. */
export function enqueueEvent(message: EventQueueMessage): Promise<void> {
  return eventQueue.enqueue(message);
}
