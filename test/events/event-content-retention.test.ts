import { afterEach, describe, expect, it } from 'vitest';
import { handler as listEvents } from '../../functions/events-list';
import { handler as sweep } from '../../functions/message-content-sweep';
import { clock } from '../../shared/clock';
import { getEventLog } from '../../shared/data/events';
import { callApi } from '../support/api';
import { newRecipient, signedInboundText, useChatTenant, type ChatTenant } from '../support/chat';
import { useDeliveryPipeline } from '../support/event-queue';

/**
 * `MESSAGE_CONTENT_RETENTION_DAYS` covers the copies of a message's content in the events
 * log (the `message.received` body that events/list returns and every later attempt posts):
 * hidden at read time once the period has passed, and blanked in the store by the sweep.
 */

let tenant: ChatTenant;

useChatTenant(1, (_network, created) => {
  tenant = created;
});

const pipeline = useDeliveryPipeline();

afterEach(() => {
  delete process.env.MESSAGE_CONTENT_RETENTION_DAYS;
});

const DAY = 24 * 60 * 60 * 1000;
const channel = () => ({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });

interface ListedEvent {
  id: string;
  type: string;
  data: { chatmid?: string; content?: unknown; type?: string };
}

/** Every event of the channel's log, oldest first. */
async function allEvents(): Promise<ListedEvent[]> {
  const events: ListedEvent[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await callApi(listEvents, { apiKey: tenant.adminKey, params: { limit: 100, ...(cursor && { cursor }) } });
    expect(page.status).toBe(200);
    events.push(...page.body.data);
    if (!page.body.nextCursor || page.body.data.length === 0) return events;
    cursor = page.body.nextCursor;
  }
}

async function receivedEventOf(chatmid: string): Promise<ListedEvent> {
  const event = (await allEvents()).find((candidate) => candidate.type === 'message.received' && candidate.data.chatmid === chatmid);
  expect(event, `the message.received event of ${chatmid}`).toBeDefined();
  return event!;
}

describe('message content in the events log', () => {
  it('is hidden by events/list once the retention period has passed, and the sweep removes it from the stored body', async () => {
    // Prepare: an inbound message recorded in the events log while retention is 2 days
    process.env.MESSAGE_CONTENT_RETENTION_DAYS = '2';
    const delivery = signedInboundText(tenant.channels[0], newRecipient(), 'my private question');
    expect((await pipeline.webhook(delivery.event)).statusCode).toBe(200);
    await pipeline.queue.drain(pipeline.deliverer);
    const young = await receivedEventOf(delivery.chatmid);
    // Act
    clock.shift(2 * DAY + 1000);
    const expired = await receivedEventOf(delivery.chatmid);
    const result = await sweep();
    delete process.env.MESSAGE_CONTENT_RETENTION_DAYS;
    const stored = await getEventLog(channel(), young.id);
    const afterSweep = await receivedEventOf(delivery.chatmid);
    // Assess
    expect(young.data.content).toEqual({ body: 'my private question' });
    expect(expired.data).toMatchObject({ content: null, type: 'text', chatmid: delivery.chatmid });
    expect(result.blanked).toBeGreaterThanOrEqual(1);
    expect(stored?.body).toBeDefined();
    expect(stored!.body).not.toContain('my private question');
    expect(JSON.parse(stored!.body).data).toMatchObject({ content: null, type: 'text', chatmid: delivery.chatmid });
    // With retention switched off again the stored body still has no content: it is gone, not hidden.
    expect(afterSweep.data.content).toBeNull();
  });

  it('keeps the content while retention is off', async () => {
    // Prepare
    const delivery = signedInboundText(tenant.channels[0], newRecipient(), 'kept question');
    expect((await pipeline.webhook(delivery.event)).statusCode).toBe(200);
    await pipeline.queue.drain(pipeline.deliverer);
    // Act
    clock.shift(3 * DAY);
    await sweep();
    const event = await receivedEventOf(delivery.chatmid);
    // Assess
    expect(event.data.content).toEqual({ body: 'kept question' });
  });
});
