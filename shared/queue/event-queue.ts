import { queuePort, type QueuePort, type SqsTarget } from './queue-port';

/**
 * The queues that feed the event deliverer. In AWS: new events go to a FIFO queue
 * (EVENT_QUEUE_URL), grouped by contact, so a contact's events reach the deliverer in the
 * order they were handed over, one batch at a time, whatever the concurrency; lanes'
 * wake-ups (every delivery attempt: a new event's lanes, retries, lease ends,
 * redeliveries) and anything due later go to a standard queue (EVENT_LANE_QUEUE_URL),
 * which takes per-message delays, and is fair across workspaces (SQS fair queues).
 * Locally both are the durable table queue the stack provides with `provideEventQueue`
 * (queue-port.ts), whose one receiver keeps the same groups and schedules fairly too
 * (scripts/local/deliverer-loop.ts).
 */

/** A new event to record and fan out, a lane to work on (a retry's wake-up, a redelivery), or a subscription's parked lanes to wake. */
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
  | { kind: 'lane'; workspaceId: string; channelId: string; webhookId: string; contactKey: string; notBefore?: number }
  /** A subscription's circuit breaker closed: wake its parked lanes, from `from` (a page's start key) on. */
  | { kind: 'unpark'; workspaceId: string; channelId: string; webhookId: string; from?: Record<string, unknown>; notBefore?: number };

export type EventQueue = QueuePort<EventQueueMessage>;

/** A new event's FIFO message group: its contact in its channel (undefined for a lane's wake-up, which has none). */
export function eventGroupOf(message: EventQueueMessage): string | undefined {
  return message.kind === 'event' ? `${message.workspaceId}#${message.channelId}#${message.contactKey}` : undefined;
}

/** The FIFO group a message travels in: a new event's due now; none for what goes to the lane queue (wake-ups, anything delayed). */
export function fifoGroupOf(message: EventQueueMessage): string | undefined {
  return message.notBefore === undefined ? eventGroupOf(message) : undefined;
}

/**
 * A new event due now goes to the FIFO queue in its contact's group (deduplicated by its
 * id); the rest to the lane queue, a fair queue whose tenant is the workspace.
 */
function sqsTarget(message: EventQueueMessage): SqsTarget {
  const group = fifoGroupOf(message);
  if (message.kind === 'event' && group) return { urlVariable: 'EVENT_QUEUE_URL', fifo: { groupId: group, deduplicationId: message.event.id } };
  return { urlVariable: 'EVENT_LANE_QUEUE_URL', tenant: message.workspaceId };
}

// Pure: a bundle that imports this module without handing off carries no queue code (bundle-clients.test.ts).
const eventQueue = /* @__PURE__ */ queuePort<EventQueueMessage>('workspace-api.eventQueue', 'event queue', sqsTarget);

/** Assembly hook: the event queue every function of this process uses (undefined goes back to SQS). */
export function provideEventQueue(queue: EventQueue | undefined): void {
  eventQueue.provide(queue);
}

/** Hands a message to the event queues: the provided one, else SQS (the FIFO queue or the lane queue, by `sqsTarget`). */
export function enqueueEvent(message: EventQueueMessage): Promise<void> {
  return eventQueue.enqueue(message);
}
