/**
 * Puts one `message.received` event into the channel's events log, as the deliverer
 * records it, without delivering it to any subscription: what webhooks/redeliver and the
 * portal's redeliver need before they can send it. Returns the event's id (unique to `seed`).
 * The data layer is imported on the call, since its callers (a private store, the bench's
 * table) set the table's environment first.
 */
export async function logUndeliveredEvent(channel: { workspaceId: string; channelId: string }, seed: string): Promise<string> {
  const { putEventLogs } = await import('../../shared/data/events');
  const { eventIdFor } = await import('../../shared/events/event-types');
  const id = eventIdFor(Date.now(), seed);
  const body = JSON.stringify({ id, type: 'message.received', timestamp: new Date().toISOString(), data: {} });
  await putEventLogs([{ channel, event: { id, type: 'message.received', body, contactKey: '14155550112' } }], Date.now());
  return id;
}
