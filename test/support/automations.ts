import type { Context, SQSEvent } from 'aws-lambda';
import { createAutomation, type AutomationStatus } from '../../shared/data/automations';
import { parseSteps } from '../../shared/domain/automation-steps';
import type { StepMessage } from '../../shared/queue/step-queue';
import { deleteLocalMessage, receiveLocalMessages, retryOrDeadLetter, type LocalMessage } from '../../scripts/local/table-step-queue';

type RunnerHandler = (event: SQSEvent, context: Context) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;

/** Creates an automation from a steps document, as `admin automation create --steps` does. */
export async function makeAutomation(workspaceId: string, channelId: string, name: string, steps: unknown[], status: AutomationStatus = 'active') {
  const automation = await createAutomation({ workspaceId, channelId }, { name, status, steps: parseSteps(steps) });
  if (!automation) throw new Error(`automation ${name} exists`);
  return automation;
}

/** The body of the queue message that runs step `step` of an execution now (a StepMessage, as enqueueStep sends it). */
export function stepMessageBody(channel: { workspaceId: string; channelId: string }, executionId: string, step = 0): string {
  const message: StepMessage = { workspaceId: channel.workspaceId, channelId: channel.channelId, executionId, step, notBefore: 0 };
  return JSON.stringify(message);
}

/** An SQS event carrying these local queue messages, as the event source mapping builds it. */
export function sqsEvent(messages: Array<Pick<LocalMessage, 'messageId' | 'body' | 'receiveCount'>>): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: message.messageId,
      receiptHandle: message.messageId,
      body: message.body,
      attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:q',
      awsRegion: 'local',
    })),
  };
}

/**
 * Runs the local queue through the real runner handler until nothing is due (as the
 * local runner loop does), returning the bodies it processed.
 */
export async function drainQueue(runner: RunnerHandler, maxRounds = 50): Promise<string[]> {
  const processed: string[] = [];
  for (let round = 0; round < maxRounds; round++) {
    const messages = await receiveLocalMessages(10);
    if (messages.length === 0) return processed;
    const { batchItemFailures } = await runner(sqsEvent(messages), {} as Context);
    const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
    for (const message of messages) {
      processed.push(message.body);
      if (failed.has(message.messageId)) await retryOrDeadLetter(message, 0, 5);
      else await deleteLocalMessage(message);
    }
  }
  return processed;
}
