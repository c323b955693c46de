import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { handleEventMessage, type EventQueueMessage } from '../shared/domain/event-delivery';

const processor = new BatchProcessor(EventType.SQS);

async function handleRecord(record: SQSRecord): Promise<void> {
  await handleEventMessage(JSON.parse(record.body) as EventQueueMessage);
}

/**
 * The event deliverer, fed by the event queue (SQS in AWS, the table queue locally):
 * records and fans out new events, and delivers each lane's events in order
 * (shared/domain/event-delivery.ts). Partial batch responses: a failed record is
 * redelivered alone, and goes to the dead-letter queue after the queue's maxReceiveCount.
 */
export const handler = (event: SQSEvent, context: Context) =>
  processPartialResponse(event, handleRecord, processor, { context, throwOnFullBatchFailure: false });
