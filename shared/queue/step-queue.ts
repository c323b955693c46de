import type { SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { db, sendIfCondition, tableName } from '../data/client';
import { keys } from '../data/keys';
import { newId } from '../ids';

/**
 * The queue that hands automation steps to the runner. In AWS it is SQS
 * (AUTOMATION_QUEUE_URL): a step due within 15 minutes goes with the queue's own
 * delay; a longer wait travels as a chain of 15-minute hops (the runner re-enqueues
 * a message that arrives before its `notBefore`), so nothing polls. On the local
 * stack it is a durable queue kept in the table (the LOCALQ partition), which the
 * local runner loop reads; a SIGKILL loses nothing.
 */

export interface StepMessage {
  workspaceId: string;
  channelId: string;
  executionId: string;
  step: number;
  /** The step may not run before this time (ms since the epoch). */
  notBefore: number;
}

/** SQS's largest per-message delay. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

let sqs: SQSClient | undefined;

/** The SQS client and command, loaded on first use so the trigger's cold start pays nothing for them locally. */
async function sendToSqs(queueUrl: string, body: string, delaySeconds: number): Promise<void> {
  const { SQSClient, SendMessageCommand } = await import('@aws-sdk/client-sqs');
  sqs ??= new SQSClient({});
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body, DelaySeconds: delaySeconds }));
}

/** Hands a step to the queue. */
export async function enqueueStep(message: StepMessage): Promise<void> {
  const body = JSON.stringify(message);
  const queueUrl = process.env.AUTOMATION_QUEUE_URL;
  if (queueUrl) {
    const delay = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((message.notBefore - clock.now()) / 1000)));
    await sendToSqs(queueUrl, body, delay);
    return;
  }
  await putLocalMessage(body, message.notBefore, 0);
}

// ---- the local durable queue (the table's LOCALQ partition) ----

export interface LocalMessage {
  messageId: string;
  body: string;
  visibleAt: number;
  receiveCount: number;
}

/** How long a received local message stays invisible to other receivers. */
const LOCAL_VISIBILITY_MS = 30_000;

async function putLocalMessage(body: string, visibleAt: number, receiveCount: number, messageId = newId('msg')): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.localQueueMessage(visibleAt, messageId), entity: 'localQueueMessage', messageId, body, visibleAt, receiveCount },
    }),
  );
}

/**
 * Receives up to `limit` due messages: each is moved to a new visibility time with a
 * conditional write (so two receivers never take the same copy), as SQS hides a
 * received message until it is deleted or its visibility times out.
 */
export async function receiveLocalMessages(limit = 10): Promise<LocalMessage[]> {
  const now = clock.now();
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk <= :due',
      ExpressionAttributeValues: { ':pk': keys.localQueueDue(now).pk, ':due': keys.localQueueDue(now).skMax },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  const received: LocalMessage[] = [];
  for (const item of Items) {
    const message = item as LocalMessage & { sk: string };
    const next = { ...message, receiveCount: message.receiveCount + 1, visibleAt: now + LOCAL_VISIBILITY_MS };
    // The hidden copy is written before the visible one goes: a crash between leaves two copies (the runner is idempotent), never none.
    await putLocalMessage(next.body, next.visibleAt, next.receiveCount, next.messageId);
    const taken = await sendIfCondition(new DeleteCommand({ TableName: tableName(), Key: { pk: keys.localQueuePartition(), sk: message.sk }, ConditionExpression: 'attribute_exists(pk)' }));
    if (!taken) {
      await deleteLocalMessage(next); // another receiver took it first
      continue;
    }
    received.push(next);
  }
  return received;
}

/** Deletes a processed local message. */
export async function deleteLocalMessage(message: LocalMessage): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.localQueueMessage(message.visibleAt, message.messageId) }));
}

/** Makes a failed local message visible again after `delayMs`, or moves it to the dead-letter partition. */
export async function retryOrDeadLetter(message: LocalMessage, delayMs: number, maxReceives: number): Promise<'retry' | 'dead'> {
  if (message.receiveCount >= maxReceives) {
    await db.send(new PutCommand({ TableName: tableName(), Item: { ...keys.localDeadLetter(message.messageId), entity: 'localDeadLetter', ...message, deadAt: clock.nowIso() } }));
    await deleteLocalMessage(message);
    return 'dead';
  }
  await putLocalMessage(message.body, clock.now() + delayMs, message.receiveCount, message.messageId);
  await deleteLocalMessage(message);
  return 'retry';
}

/** Test and CLI use: how many messages wait in the local queue and its dead-letter partition. */
export async function localQueueDepth(): Promise<{ queued: number; dead: number }> {
  const count = async (pk: string) => (await db.send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Select: 'COUNT', ConsistentRead: true }))).Count ?? 0;
  return { queued: await count(keys.localQueuePartition()), dead: await count(keys.localDeadLetterPartition()) };
}

