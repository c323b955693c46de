import type { SQSClient } from '@aws-sdk/client-sqs';
import { clock } from '../clock';

/**
 * The queue that hands automation steps to the runner. In AWS it is SQS
 * (AUTOMATION_QUEUE_URL): a step due within 15 minutes goes with the queue's own
 * delay; a longer wait travels as a chain of 15-minute hops (the runner re-enqueues
 * a message that arrives before its `notBefore`), so nothing polls.
 *
 * Another queue is chosen where the app is assembled, with `provideStepQueue`: the local
 * stack (and the tests) provide a durable queue kept in the table
 * (scripts/local/table-step-queue.ts), so its code never ships in a Lambda bundle.
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
export interface StepQueue {
  enqueue(message: StepMessage): Promise<void>;
}

/** SQS's largest per-message delay. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/**
 * Where a provided queue is kept: on the global object, so every copy of this module
 * sees it — the source the local stack runs and each function bundle it loads.
 */
const PROVIDED = Symbol.for('workspace-api.stepQueue');
type WithProvidedQueue = typeof globalThis & { [PROVIDED]?: StepQueue };

/** Assembly hook: the queue every function of this process uses (undefined goes back to SQS). */
export function provideStepQueue(queue: StepQueue | undefined): void {
  (globalThis as WithProvidedQueue)[PROVIDED] = queue;
}

/** Hands a step to the queue: the provided one, else SQS at AUTOMATION_QUEUE_URL. */
export async function enqueueStep(message: StepMessage): Promise<void> {
  const provided = (globalThis as WithProvidedQueue)[PROVIDED];
  if (provided) return provided.enqueue(message);
  const queueUrl = process.env.AUTOMATION_QUEUE_URL;
  if (!queueUrl) throw new Error('No step queue: AUTOMATION_QUEUE_URL is not set and no queue was provided (the local stack provides its table queue).');
  await sqsStepQueue(queueUrl).enqueue(message);
}

let sqs: SQSClient | undefined;

/** The SQS queue at `queueUrl`; its client and command load on first use, so a function that never enqueues pays nothing for them. */
export function sqsStepQueue(queueUrl: string): StepQueue {
  return {
    async enqueue(message) {
      const delaySeconds = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((message.notBefore - clock.now()) / 1000)));
      const { SQSClient, SendMessageCommand } = await import('@aws-sdk/client-sqs');
      sqs ??= new SQSClient({});
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: delaySeconds }));
    },
  };
}
