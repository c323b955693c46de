import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

/**
 * The local stand-in for the event queue's SQS event source: several workers read the
 * durable table queue (`LOCALQ#events`, table-step-queue.ts), invoke the deliverer
 * bundle with SQS-shaped events, delete what succeeded and retry what failed (dead
 * letters after 5 receives, as the AWS queue's maxReceiveCount). It also runs the event
 * re-drive at start and every 30 s. Everything lives in the table, so a SIGKILL loses
 * no delivery: a restart resumes the queue, retries included.
 */

type DelivererHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;
type RedriveHandler = () => Promise<{ redriven: number }>;

export interface DelivererLoopOptions {
  deliverer: DelivererHandler;
  redrive: RedriveHandler;
  /** Concurrent receivers: a slow receiver (up to 10 s an attempt) holds up only its own worker. */
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

  async function tick(): Promise<boolean> {
    if (Date.now() - lastRedrive >= (options.redriveEveryMs ?? 30_000)) {
      lastRedrive = Date.now();
      await options.redrive();
    }
    const messages = await queue.receiveLocalMessages(10, queue.EVENT_QUEUE);
    if (messages.length === 0) return false;
    const event: SQSEvent = {
      Records: messages.map((message) => ({
        messageId: message.messageId,
        receiptHandle: message.messageId,
        body: message.body,
        attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: String(Date.now()), SenderId: 'local', ApproximateFirstReceiveTimestamp: String(Date.now()) },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:event-queue',
        awsRegion: 'local',
      })),
    };
    const response = await options.deliverer(event, { awsRequestId: randomUUID(), getRemainingTimeInMillis: () => 60_000 } as Context);
    const failed = new Set(response?.batchItemFailures?.map((failure) => failure.itemIdentifier));
    for (const message of messages) {
      if (failed.has(message.messageId)) await queue.retryOrDeadLetter(message, RETRY_DELAY_MS * message.receiveCount, MAX_RECEIVES);
      else await queue.deleteLocalMessage(message);
    }
    return true;
  }

  async function worker() {
    while (!stopped) {
      const busy = await tick().catch((error: unknown) => {
        console.error('local deliverer error', error);
        return false;
      });
      if (!busy) await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
    }
  }
  for (let i = 0; i < (options.workers ?? 4); i++) running.push(worker());
  return {
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}
