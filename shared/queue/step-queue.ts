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

/** Where steps go: SQS in AWS, the table queue on the local stack. */
export type StepQueue = QueuePort<StepMessage>;

// Pure: a bundle that imports this module without handing off carries no queue code (bundle-clients.test.ts).
const stepQueue = /* @__PURE__ */ queuePort<StepMessage>('workspace-api.stepQueue', 'step queue', () => ({ urlVariable: 'AUTOMATION_QUEUE_URL' }));

/** Assembly hook: the queue every function of this process uses (undefined goes back to SQS). */
export function provideStepQueue(queue: StepQueue | undefined): void {
  stepQueue.provide(queue);
}

/** Hands a step to the queue: the provided one, else SQS at AUTOMATION_QUEUE_URL. */
export function enqueueStep(message: StepMessage): Promise<void> {
  return stepQueue.enqueue(message);
}
