import type { SQSClient } from '@aws-sdk/client-sqs';
import { clock } from '../clock';
import { config, type QueueUrlVariable } from '../config';

/** SQS's largest per-message delay. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** Where messages go: SQS in AWS, the table queue on the local stack. */
export interface QueuePort<T> {
  enqueue(message: T): Promise<void>;
}

/**
 * The SQS queue a message goes to: the variable holding its URL, and for a FIFO queue
 * the message group (messages of one group are received in the order sent, one batch at
 * a time) and the deduplication id (a repeat within SQS's five minutes is dropped). On a
 * standard queue, `tenant` is the message group of SQS fair queues: when one tenant's
 * messages take a disproportionate share of the consumers, SQS hands out other tenants'
 * first, so one tenant's backlog does not delay the others'.
 */
export interface SqsTarget {
  urlVariable: QueueUrlVariable;
  fifo?: { groupId: string; deduplicationId: string };
  tenant?: string;
}

let sqs: SQSClient | undefined;

/**
 * A queue the service hands messages to: SQS at the URL `target` names, unless the app's
 * assembly provided another with `provide` (the local stack and the tests provide a
 * durable queue kept in the table, scripts/local/table-step-queue.ts, so its code never
 * ships in a Lambda bundle). A provided queue is kept on the global object under
 * `Symbol.for(symbolName)`, so every copy of this module sees it — the source the local
 * stack runs and each function bundle it loads. A message due later than now goes with
 * SQS's own delay, at most 15 minutes (longer waits travel as hops: the consumer
 * re-enqueues a message that arrives before its `notBefore`); a FIFO queue takes no
 * per-message delay, so `target` sends delayed messages elsewhere. The SQS client loads
 * on first use, so a function that never enqueues pays nothing for it.
 */
export function queuePort<T extends { notBefore?: number }>(symbolName: string, what: string, target: (message: T) => SqsTarget) {
  const provided = Symbol.for(symbolName);
  type WithProvidedQueue = typeof globalThis & { [provided]?: QueuePort<T> };
  return {
    /** Assembly hook: the queue every function of this process uses (undefined goes back to SQS). */
    provide(queue: QueuePort<T> | undefined): void {
      (globalThis as WithProvidedQueue)[provided] = queue;
    },
    /** Hands a message to the provided queue, else to SQS at the URL its target names. */
    async enqueue(message: T): Promise<void> {
      const queue = (globalThis as WithProvidedQueue)[provided];
      if (queue) return queue.enqueue(message);
      const { urlVariable, fifo, tenant } = target(message);
      const queueUrl = config.queueUrl(urlVariable);
      if (!queueUrl) throw new Error(`No ${what}: ${urlVariable} is not set and no queue was provided (the local stack provides its table queue).`);
      const { SQSClient, SendMessageCommand } = await import('@aws-sdk/client-sqs');
      sqs ??= new SQSClient({});
      const body = { QueueUrl: queueUrl, MessageBody: JSON.stringify(message) };
      if (fifo) {
        await sqs.send(new SendMessageCommand({ ...body, MessageGroupId: fifo.groupId, MessageDeduplicationId: fifo.deduplicationId }));
        return;
      }
      const delaySeconds = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(((message.notBefore ?? 0) - clock.now()) / 1000)));
      await sqs.send(new SendMessageCommand({ ...body, DelaySeconds: delaySeconds, ...(tenant !== undefined && { MessageGroupId: tenant }) }));
    },
  };
}
