import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { BatchWriteCommand, DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../../shared/clock';
import { queryUpTo } from '../../shared/data/batch';
import { db, deleteItem, tableName, when } from '../../shared/data/client';
import type { Key } from '../../shared/identity';
import { newId } from '../../shared/ids';
import type { EventQueue } from '../../shared/queue/event-queue';
import type { StepQueue } from '../../shared/queue/step-queue';

/**
 * The local stand-in for SQS: a durable queue kept in the table (the LOCALQ partition),
 * which the local runner loop (runner-loop.ts) reads; a SIGKILL loses nothing. The
 * local stack and the tests provide it with `provideStepQueue`; it is never part of a
 * Lambda bundle (production uses SQS: shared/queue/step-queue.ts). The event queue
 * (`LOCALQ#events`) has one receiver, deliverer-loop.ts, which takes messages without
 * hiding them (`peekLocalMessages`) and hears of this process's writes (`onLocalMessage`).
 */

/** A visibility time as the start of a message's sort key: fixed width, so keys sort by time. */
const visibilityKey = (ms: number) => String(ms).padStart(15, '0');
/** The sort key after every message visible at `ms` or earlier: a Query's bound between due messages and later ones. */
const visibleBy = (ms: number) => `${visibilityKey(ms)}~`;

/** The queue's items: ordered by visibility time, so a query reads the due ones; dead letters apart. */
const localKeys = {
  message: (visibleAt: number, messageId: string, queue = STEP_QUEUE): Key => ({ pk: queue, sk: `${visibilityKey(visibleAt)}#${messageId}` }),
  deadLetter: (messageId: string, queue = STEP_QUEUE): Key => ({ pk: queue === STEP_QUEUE ? 'LOCALDLQ' : `${queue}#DLQ`, sk: messageId }),
};

/** The partitions of the local queues: the automation steps, and the events for the deliverer. */
export const STEP_QUEUE = 'LOCALQ';
export const EVENT_QUEUE = 'LOCALQ#events';

/** The table queue as the service's step queue: a message becomes visible at its `notBefore`. */
export const tableStepQueue: StepQueue = {
  enqueue: (message) => putLocalMessage(JSON.stringify(message), message.notBefore, 0),
};

/** The table queue as the event deliverer's queue. */
export const tableEventQueue: EventQueue = {
  enqueue: (message) => putLocalMessage(JSON.stringify(message), message.notBefore ?? clock.now(), 0, newId('msg'), EVENT_QUEUE),
};

export interface LocalMessage {
  messageId: string;
  body: string;
  visibleAt: number;
  receiveCount: number;
  /** The partition it lives in (absent: the step queue). */
  queue?: string;
}

/** How long a received local message stays invisible to other receivers. */
const LOCAL_VISIBILITY_MS = 30_000;

/**
 * Puts a message sent through SQS's API into the local queue (the template-driven
 * local mode serves SQS SendMessage from here), visible after its delay as in SQS.
 */
export async function sendLocalMessage(body: string, delaySeconds: number, queue = STEP_QUEUE): Promise<string> {
  const messageId = newId('msg');
  await putLocalMessage(body, clock.now() + delaySeconds * 1000, 0, messageId, queue);
  return messageId;
}

/** Who hears of each message written to a queue by this process (once it is in the table). */
const listeners = new Map<string, Set<(message: LocalMessage) => void>>();

/**
 * A message's table item, keyed by its visibility time. `received`: the hidden copy of a
 * received message (see `releaseReceivedLocalMessages`). Tests write one straight to the
 * table to stand for another process's write, which this process never hears of.
 */
export function localMessageItem({ messageId, body, visibleAt, receiveCount, queue = STEP_QUEUE }: LocalMessage, received = false): Record<string, unknown> {
  return {
    ...localKeys.message(visibleAt, messageId, queue),
    entity: 'localQueueMessage',
    messageId,
    body,
    visibleAt,
    receiveCount,
    queue,
    ...(received ? { received: true } : {}),
  };
}

async function putLocalMessage(
  body: string,
  visibleAt: number,
  receiveCount: number,
  messageId = newId('msg'),
  queue = STEP_QUEUE,
  received = false,
): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: localMessageItem({ messageId, body, visibleAt, receiveCount, queue }, received) }));
  // Written: a receiver in this process may take it from here instead of reading the table for it.
  for (const listener of listeners.get(queue) ?? []) listener({ messageId, body, visibleAt, receiveCount, queue });
}

/**
 * Calls `listener` with every message this process writes to `queue`, once the write
 * has succeeded (so the message is durable before anyone hears of it); returns the
 * function that stops it. Messages written by other processes are only in the table.
 */
export function onLocalMessage(queue: string, listener: (message: LocalMessage) => void): () => void {
  const set = listeners.get(queue) ?? new Set();
  listeners.set(queue, set.add(listener));
  return () => set.delete(listener);
}

/**
 * How often, at most, a receiver reads the table for messages it has not heard of. A
 * receiver (runner-loop.ts, deliverer-loop.ts) reads the table at start, whenever a
 * message it knows of is due, and at least this often. The invariant: every message in
 * a queue is either known to its receiver (heard of through `onLocalMessage`, since this
 * process writes every message it enqueues, retries or re-drives, and hears of it only
 * once it is in the table; or found by its last read) and taken when due, or not known
 * (written by another process, left by a killed one, or let go after a failed table
 * call) and then taken by the next read after it is due: so nothing due waits longer
 * than this.
 */
export const UNHEARD_READ_MS = 5_000;

/**
 * When the earliest message in `queue` (visible after `after`, if given) becomes visible:
 * one consistent Limit-1 Query, the items sorting by visibility time; undefined when there is none.
 */
export async function earliestVisibleAt(queue = STEP_QUEUE, after?: number): Promise<number | undefined> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: { ':pk': queue, ...(after === undefined ? {} : { ':after': visibleBy(after) }) },
      ProjectionExpression: 'visibleAt',
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return (Items[0] as Pick<LocalMessage, 'visibleAt'> | undefined)?.visibleAt;
}

/** The key of a local message's item (its visibility time and id): what a receiver tells copies apart by. */
export const localMessageKey = (message: LocalMessage): string => localKeys.message(message.visibleAt, message.messageId, message.queue).sk;

/**
 * Reads up to `limit` due messages (one consistent Query) without hiding them: for the
 * single receiver of a queue, which keeps what it holds in memory (deliverer-loop.ts).
 */
export async function peekLocalMessages(limit: number, queue = STEP_QUEUE): Promise<LocalMessage[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk <= :due',
      ExpressionAttributeValues: { ':pk': queue, ':due': visibleBy(clock.now()) },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => {
    const { messageId, body, visibleAt, receiveCount } = item as LocalMessage;
    return { messageId, body, visibleAt, receiveCount, queue };
  });
}

/** Deletes processed local messages with BatchWriteItem (25 a call), retrying what the table left unprocessed. */
export async function deleteLocalMessages(messages: LocalMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 25) {
    let requests = messages
      .slice(i, i + 25)
      .map((message) => ({ DeleteRequest: { Key: localKeys.message(message.visibleAt, message.messageId, message.queue) } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    }
  }
}

/**
 * Receives up to `limit` due messages: each is moved to a new visibility time with a
 * conditional write (so two receivers never take the same copy), as SQS hides a
 * received message until it is deleted or its visibility times out.
 */
export async function receiveLocalMessages(limit = 10, queue = STEP_QUEUE): Promise<LocalMessage[]> {
  const now = clock.now();
  const received: LocalMessage[] = [];
  for (const message of await peekLocalMessages(limit, queue)) {
    const next = { ...message, receiveCount: message.receiveCount + 1, visibleAt: now + LOCAL_VISIBILITY_MS };
    // The hidden copy is written before the visible one goes: a crash between leaves two copies (the runner is idempotent), never none.
    await putLocalMessage(next.body, next.visibleAt, next.receiveCount, next.messageId, queue, true);
    const taken = await deleteItem(localKeys.message(message.visibleAt, message.messageId, queue), when.itemExists());
    if (!taken) {
      await deleteLocalMessage(next); // another receiver took it first
      continue;
    }
    received.push(next);
  }
  return received;
}

/**
 * Makes the messages a receiver had received and not yet settled visible now, receive
 * counts kept: for the one receiver of a queue at its start (one `npm start` per
 * DATA_DIR), when what is hidden was received by a process that is gone (a SIGKILL
 * during a batch), so its visibility timeout would only delay it. The moves are as a
 * receive's: the new copy first, so a crash between leaves two copies, never none.
 */
export async function releaseReceivedLocalMessages(queue = STEP_QUEUE): Promise<number> {
  const now = clock.now();
  const held = await queryUpTo({
    KeyConditionExpression: 'pk = :pk AND sk > :due',
    FilterExpression: 'received = :received',
    ExpressionAttributeValues: { ':pk': queue, ':due': visibleBy(now), ':received': true },
    ConsistentRead: true,
  });
  for (const item of held as unknown as LocalMessage[]) {
    const { messageId, body, visibleAt, receiveCount } = item;
    await putLocalMessage(body, now, receiveCount, messageId, queue);
    await deleteLocalMessage({ messageId, body, visibleAt, receiveCount, queue });
  }
  return held.length;
}

/** Deletes a processed local message. */
export async function deleteLocalMessage(message: LocalMessage): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: localKeys.message(message.visibleAt, message.messageId, message.queue) }));
}

/** Makes a failed local message visible again after `delayMs`, or moves it to the dead-letter partition. */
export async function retryOrDeadLetter(message: LocalMessage, delayMs: number, maxReceives: number): Promise<'retry' | 'dead'> {
  if (message.receiveCount >= maxReceives) {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        // The keys last: a received message may still carry its queue item's own (which the delete below removes).
        Item: { ...message, ...localKeys.deadLetter(message.messageId, message.queue), entity: 'localDeadLetter', deadAt: clock.nowIso() },
      }),
    );
    await deleteLocalMessage(message);
    return 'dead';
  }
  await putLocalMessage(message.body, clock.now() + delayMs, message.receiveCount, message.messageId, message.queue);
  await deleteLocalMessage(message);
  return 'retry';
}

/** Test and CLI use: how many messages wait in the local queue and its dead-letter partition. */
export async function localQueueDepth(queue = STEP_QUEUE): Promise<{ queued: number; dead: number }> {
  const count = async (pk: string) =>
    (
      await db.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          Select: 'COUNT',
          ConsistentRead: true,
        }),
      )
    ).Count ?? 0;
  return { queued: await count(queue), dead: await count(localKeys.deadLetter('', queue).pk) };
}

/** A queue consumer as Lambda invokes it from an SQS event source, with partial batch responses. */
export type SqsBatchConsumer = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/**
 * Hands received messages to a queue consumer as Lambda's SQS event source would (one
 * SQS-shaped event, partial batch response), then deletes what succeeded and retries what
 * failed with a growing delay, dead-lettering it after `maxReceives` receives.
 */
export async function consumeLocalBatch(
  messages: LocalMessage[],
  queueName: string,
  consumer: SqsBatchConsumer,
  retry: { delayMs: number; maxReceives: number },
): Promise<void> {
  const failed = await invokeWithLocalBatch(messages, queueName, consumer);
  for (const message of messages) {
    if (failed.has(message.messageId)) await retryOrDeadLetter(message, retry.delayMs * message.receiveCount, retry.maxReceives);
    else await deleteLocalMessage(message);
  }
}

/** Invokes a queue consumer with one SQS-shaped event of `messages`, as Lambda's SQS event source would; the ids of the messages that failed. */
export async function invokeWithLocalBatch(messages: LocalMessage[], queueName: string, consumer: SqsBatchConsumer): Promise<Set<string>> {
  const event: SQSEvent = {
    Records: messages.map((message) => ({
      messageId: message.messageId,
      receiptHandle: message.messageId,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(Date.now()),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${queueName}`,
      awsRegion: 'local',
    })),
  };
  try {
    const response = await consumer(event, { awsRequestId: randomUUID(), getRemainingTimeInMillis: () => 60_000 } as Context);
    return new Set(response?.batchItemFailures?.map((failure) => failure.itemIdentifier));
  } catch {
    // An invocation error (a batch in which every record failed throws): as in Lambda, every message comes back.
    return new Set(messages.map((message) => message.messageId));
  }
}
