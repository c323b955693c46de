import { describe, expect, it } from 'vitest';
import { inContactOrder, type EventQueueMessage } from '../../shared/domain/event-delivery';

const event = (id: string, contactKey: string): EventQueueMessage => ({
  kind: 'event',
  workspaceId: 'ws',
  channelId: 'ch',
  contactKey,
  event: { id, type: 'message.received', timestamp: '2026-11-26T00:00:00.000Z', data: {} },
});

/** A handler that records when each message starts and ends, taking `ms` per message. */
function recorder(ms: number) {
  const log: string[] = [];
  const handle = async (message: EventQueueMessage) => {
    const name = message.kind === 'event' ? message.event.id : `${message.kind}:${'contactKey' in message ? message.contactKey : message.webhookId}`;
    log.push(`start ${name}`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    log.push(`end ${name}`);
  };
  return { log, handle };
}

describe('a batch in contact order', () => {
  it("handles one contact's events one after another, oldest event first, whatever the batch order", async () => {
    // Prepare
    const batch = [event('evt_3', 'alice'), event('evt_1', 'alice'), event('evt_2', 'alice')];
    const { log, handle } = recorder(5);
    // Act
    const handleInTurn = inContactOrder(batch, handle);
    await Promise.all(batch.map((message) => handleInTurn(message)));
    // Assess
    expect(log).toEqual(['start evt_1', 'end evt_1', 'start evt_2', 'end evt_2', 'start evt_3', 'end evt_3']);
  });

  it("runs other contacts' events and lane wake-ups concurrently", async () => {
    // Prepare
    const wakeUp: EventQueueMessage = { kind: 'lane', workspaceId: 'ws', channelId: 'ch', webhookId: 'wh', contactKey: 'carol' };
    const batch = [event('evt_1', 'alice'), event('evt_2', 'bob'), wakeUp];
    const { log, handle } = recorder(5);
    // Act
    const handleInTurn = inContactOrder(batch, handle);
    await Promise.all(batch.map((message) => handleInTurn(message)));
    // Assess
    expect(log.slice(0, 3).sort()).toEqual(['start evt_1', 'start evt_2', 'start lane:carol']);
  });

  it("fails a contact's later events unhandled when an earlier one fails, so the queue gives them back in order; other contacts go on", async () => {
    // Prepare
    const batch = [event('evt_1', 'alice'), event('evt_2', 'alice'), event('evt_3', 'alice'), event('evt_4', 'bob')];
    const handled: string[] = [];
    const handle = async (message: EventQueueMessage) => {
      if (message.kind === 'event' && message.event.id === 'evt_1') throw new Error('table unavailable');
      handled.push(message.kind === 'event' ? message.event.id : '');
    };
    // Act
    const handleInTurn = inContactOrder(batch, handle);
    const outcomes = await Promise.allSettled(batch.map((message) => handleInTurn(message)));
    // Assess
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected', 'fulfilled']);
    expect(handled).toEqual(['evt_4']);
  });
});
