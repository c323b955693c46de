import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord, Context } from 'aws-lambda';
import { runStep } from '../shared/domain/automation-runner';
import { fetchInboundMedia, isMediaFetch, type StepQueueMessage } from '../shared/domain/media';
import { withInvocationDeadline } from '../shared/outbound/deadline';

const processor = new BatchProcessor(EventType.SQS);

async function runRecord(record: SQSRecord): Promise<void> {
  const message = JSON.parse(record.body) as StepQueueMessage;
  const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
  if (isMediaFetch(message)) await fetchInboundMedia(message, receiveCount);
  else await runStep(message, receiveCount);
}

/**
 * The automation runner, fed by the automation queue (SQS in AWS, the table queue
 * locally): automation steps, and the fetches of inbound media (shared/domain/media.ts). Partial batch responses: a failed record is redelivered alone, and goes
 * to the dead-letter queue after the queue's maxReceiveCount.
 * Sends end before the function's timeout (the invocation's deadline), so their outcome is recorded.
 * A batch in which every record failed is an invocation error (`throwOnFullBatchFailure`),
 * so the function's Errors alarm sees an outage of what every record needs.
 */
export const handler = (event: SQSEvent, context: Context) =>
  withInvocationDeadline(context, () => processPartialResponse(event, runRecord, processor, { context, throwOnFullBatchFailure: true }));
