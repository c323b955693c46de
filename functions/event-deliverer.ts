import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { handleBatch, type EventQueueMessage } from '../shared/domain/event-delivery';
import { outboundDeadline, withInvocationDeadline } from '../shared/outbound/deadline';

/**
 * The event deliverer, fed by the event queue (SQS in AWS, the table queue locally):
 * records and fans out new events, and delivers each lane's events in order
 * (shared/domain/event-delivery.ts). A contact's new events in one batch are handled
 * oldest first, one after another; the batch's new events go into the events log in one
 * write, and each channel's subscriptions are read once per batch. Partial batch
 * responses: a failed record is redelivered alone, and goes to the dead-letter queue
 * after the queue's maxReceiveCount. A batch in which every record failed is an invocation
 * error (`throwOnFullBatchFailure`), so the function's Errors alarm sees an outage of what
 * every record needs (the table, KMS).
 * Works within the invocation's deadline: no attempt starts that could outlast it, and a
 * lane still holding events then is handed to a wake-up (shared/domain/event-delivery.ts).
 * A processor per invocation: it keeps the batch's state, and the local stack runs
 * several invocations of this module at once.
 */
export const handler = (event: SQSEvent, context: Context) =>
  withInvocationDeadline(context, () => {
    const messages = new Map(event.Records.map((record) => [record.messageId, JSON.parse(record.body) as EventQueueMessage]));
    const handleInTurn = handleBatch([...messages.values()], outboundDeadline());
    const handleRecord = (record: SQSRecord) => handleInTurn(messages.get(record.messageId)!);
    return processPartialResponse(event, handleRecord, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: true });
  });
