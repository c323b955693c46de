import { queuePort, type QueuePort } from './queue-port';

/**
 * The queue that hands automation steps to the runner. In AWS it is SQS
 * (AUTOMATION_QUEUE_URL): a step due within 15 minutes goes with the queue's own
 * delay; a longer wait travels as a chain of 15-minute hops (the runner re-enqueues
 * a message that arrives before its `notBefore`), so nothing polls.
 *
 * Another queue is chosen where the app is assembled, with `provideStepQueue`: the local
 * stack (and the tests) provide a durable queue kept in the table (queue-port.ts).
 */

export interface StepMessage {
  workspaceId: string;
  channelId: string;
  executionId: string;
  step: number;
  /** The step may not run before this time (ms since the epoch). */
  notBefore: number;
}

/**
 * An inbound message's media to fetch from the chat network (shared/domain/media.ts). It
 * rides the automation queue: its consumer already reads channel tokens and calls the
 * chat network, and the queue's redelivery is the fetch's background retry.
 */
export interface MediaFetchMessage {
  kind: 'media';
  workspaceId: string;
  channelId: string;
  mediaId: string;
  /** Due now: when it was queued. */
  notBefore: number;
}

export type StepQueueMessage = StepMessage | MediaFetchMessage;

export const isMediaFetch = (message: StepQueueMessage): message is MediaFetchMessage => 'kind' in message && message.kind === 'media';

/** Where steps go: SQS in AWS, the table queue on the local stack. */
export type StepQueue = QueuePort<StepQueueMessage>;

// Pure: a bundle that imports this module without handing off carries no queue code (bundle-clients.test.ts).
const stepQueue = /* @__PURE__ */ queuePort<StepQueueMessage>('workspace-api.stepQueue', 'step queue', () => ({ urlVariable: 'AUTOMATION_QUEUE_URL' }));

/** Assembly hook: the queue every function of this process uses (undefined goes back to SQS). */
export function provideStepQueue(queue: StepQueue | undefined): void {
  stepQueue.provide(queue);
}

/** Hands a step to the queue: the provided one, else SQS at AUTOMATION_QUEUE_URL. */
export function enqueueStep(message: StepMessage): Promise<void> {
  return stepQueue.enqueue(message);
}

/** Hands a media fetch to the same queue. */
export function enqueueMediaFetch(message: MediaFetchMessage): Promise<void> {
  return stepQueue.enqueue(message);
}
