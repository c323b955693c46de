import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsEndpoint, type AwsEndpoint } from '../../scripts/local/aws-endpoint';
import { tableEventQueue } from '../../scripts/local/table-step-queue';
import { clock } from '../../shared/clock';
import { enqueueEvent, provideEventQueue, type EventQueueMessage } from '../../shared/queue/event-queue';

/**
 * The event queues as a Lambda function sends to them in AWS (no queue provided): new
 * events to the FIFO queue in their contact's group, lanes' wake-ups with their delay to
 * the standard lane queue — through the SDK, to the local SQS endpoint, which refuses
 * what SQS refuses of a FIFO queue.
 */

const sent: Array<{ queue: string; body: EventQueueMessage; delaySeconds: number; groupId?: string }> = [];
let endpoint: AwsEndpoint;
const saved = { ...process.env };

const newEvent: EventQueueMessage = {
  kind: 'event',
  workspaceId: 'ws_sqs',
  channelId: 'ch_sqs',
  contactKey: '14155550320',
  event: { id: 'evt_sqs_1', type: 'message.received', timestamp: '2026-11-26T00:00:00.000Z', data: {} },
};

beforeAll(async () => {
  const record = (queue: string) => async (body: string, delaySeconds: number, groupId?: string) => {
    sent.push({ queue, body: JSON.parse(body) as EventQueueMessage, delaySeconds, groupId });
    return `msg_${sent.length}`;
  };
  endpoint = await startSqsEndpoint({ 'EventQueue.fifo': record('fifo'), EventLaneQueue: record('lanes') });
  Object.assign(process.env, {
    EVENT_QUEUE_URL: `${endpoint.url}/000000000000/EventQueue.fifo`,
    EVENT_LANE_QUEUE_URL: `${endpoint.url}/000000000000/EventLaneQueue`,
    AWS_ENDPOINT_URL_SQS: endpoint.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  provideEventQueue(undefined);
});

afterAll(async () => {
  // The worker setup provides the table queue to every test; put it back.
  provideEventQueue(tableEventQueue);
  process.env = saved;
  clock.reset();
  await endpoint.close();
});

describe('the event queues in AWS', () => {
  it("sends a new event to the FIFO queue in its contact's group, and a wake-up to the lane queue with its delay in its workspace's group (a fair queue's tenant)", async () => {
    // Prepare
    clock.freeze(Date.UTC(2026, 10, 26, 12));
    const wakeUp: EventQueueMessage = {
      kind: 'lane',
      workspaceId: 'ws_sqs',
      channelId: 'ch_sqs',
      webhookId: 'wh_sqs',
      contactKey: '14155550320',
      notBefore: clock.now() + 5_000,
    };
    // Act
    await enqueueEvent(newEvent);
    await enqueueEvent(wakeUp);
    // Assess
    expect(sent).toEqual([
      { queue: 'fifo', body: newEvent, delaySeconds: 0, groupId: 'ws_sqs#ch_sqs#14155550320' },
      { queue: 'lanes', body: wakeUp, delaySeconds: 5, groupId: 'ws_sqs' },
    ]);
  });

  it('is refused, as SQS refuses it, a FIFO message without a group or with a delay of its own', async () => {
    // Prepare
    const sqs = new SQSClient({});
    const send = (input: Partial<ConstructorParameters<typeof SendMessageCommand>[0]>) =>
      sqs.send(new SendMessageCommand({ QueueUrl: process.env.EVENT_QUEUE_URL, MessageBody: '{}', ...input })).then(
        () => 'sent',
        (error: Error) => error.name,
      );
    // Act
    const outcomes = [await send({}), await send({ MessageGroupId: 'g', MessageDeduplicationId: 'd', DelaySeconds: 5 })];
    // Assess
    expect(outcomes).toEqual(['MissingParameter', 'InvalidParameterValue']);
  });
});
