import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEnvelope } from '../../scripts/local/sandbox-webhooks';
import { signPayload } from '../../shared/chat/signature';
import { EVENT_REDRIVE_AFTER_MS } from '../../shared/config';
import { INLINE_EVENTS } from '../../shared/domain/inbound-drain';
import { WEBHOOK_PATH } from '../../shared/routes';
import { demoAdmin, startStack, type RunningStack } from '../support/local-stack';
import { recordFigures } from '../support/log-audit';
import { startReceiver, type Receiver } from '../support/receiver';

/**
 * Issue 23, "SIGKILL during a flood loses nothing": the local stack (`npm start`'s
 * program: one process, in which dynalite, the gateway, the deliverer's worker threads
 * and the table queues all run) is flooded with signed chat-network webhooks (small
 * ones processed in the request, large ones handed off to the inbound drain) and
 * opt-out imports, all raising events to a subscribed receiver; it is killed with
 * SIGKILL mid-flood and started again on the same DATA_DIR. Every inbound message and
 * every opt-out it acknowledged before the kill is then delivered, and listed by
 * events/list. Delivery is at least once with a stable id (docs/EVENTS.md, "Crashes"):
 * a delivery the receiver answered just before the kill may come again, always with the
 * same webhook-id and body. Everything waits on conditions, with a generous bound.
 *
 * The stack comes back as if it had been down longer than the event re-drive's age
 * (EVENT_REDRIVE_AFTER_MS) and a lane lock's lease (the delivery timeout plus 15 s): its
 * service clock runs RESTARTED_LATER_MS ahead (CLOCK_OFFSET_MS, the local stack's shifted
 * clock). So the outbox items whose hand-off the kill cut off are re-driven by the re-drive
 * the restart runs, and the lanes the dead process held are free (their lock expired, their
 * wake-up due), as after such a downtime, instead of in real time: the same recovery, by
 * the same code, without waiting out the periods it measures.
 */

const ENV = {
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1',
  RATE_LIMIT_API_WRITE: '1000000',
  RATE_LIMIT_API_READ: '1000000',
  RATE_LIMIT_API_IMPORT: '1000000',
};
/** Messages in a large webhook: one above the inline limit, so it is handed off to the drain (shared/domain/inbound-drain.ts). */
const LARGE_WEBHOOK = INLINE_EVENTS + 1;
const SMALL_WEBHOOK = 3;
const IMPORT_ROWS = 25;
/** How much later than the kill the restarted stack's clock says it is: past the re-drive's age, and so past a lane's lease, shorter at the default delivery timeout (10 s + 15 s). */
const RESTARTED_LATER_MS = EVENT_REDRIVE_AFTER_MS + 5_000;

let stack: RunningStack;
let adminKey: string;
let channelId: string;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startStack({ env: ENV });
  ({ adminKey, channelId } = demoAdmin(stack));
  receiver = await startReceiver('/flood');
  const created = await stack.call('webhooks/manage', {
    apiKey: adminKey,
    params: { channelId, url: receiver.url, events: ['message.received', 'contact.opted_out'] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  receiver.secrets.push(created.body.data.secret);
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

async function until(condition: () => boolean | Promise<boolean>, what: () => string, ms = 420_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what()}`);
}

/** One signed chat-network webhook carrying `count` text messages from distinct numbers to the demo channel. */
function inboundWebhook(run: string, first: number, count: number) {
  const channel = stack.demo.workspaces[0].channels[0];
  const messages = Array.from({ length: count }, (_, i) => ({
    from: `1628555${String(first + i).padStart(4, '0')}`,
    id: `wamid.flood${run}${first + i}`,
    timestamp: String(Math.floor(Date.now() / 1000)),
    type: 'text',
    text: { body: `flood ${first + i}` },
  }));
  const body = webhookEnvelope(
    { phoneNumberId: channel.phoneNumberId, wabaId: channel.wabaId, displayPhoneNumber: channel.displayPhoneNumber },
    { contacts: messages.map((message) => ({ profile: { name: 'Flood' }, wa_id: message.from })), messages },
  );
  const raw = JSON.stringify(body);
  const sign = signPayload(raw, stack.demo.chatNetwork.appSecret);
  return { raw, sign, chatmids: messages.map((message) => message.id) };
}

interface Acknowledged {
  chatmids: Set<string>;
  /** Large webhooks acknowledged (handed off to the drain before the answer). */
  largeWebhooks: number;
  optedOut: Set<string>;
}

/**
 * Keeps the stack busy until `killed`: webhooks (every other one large) and opt-out
 * imports of new numbers, several in flight; records what was acknowledged (200).
 */
function flood(run: string, acknowledged: Acknowledged, killed: () => boolean) {
  let next = 0;
  const inbound = async () => {
    for (let i = 0; !killed(); i++) {
      const count = i % 2 === 0 ? LARGE_WEBHOOK : SMALL_WEBHOOK;
      const { raw, sign, chatmids } = inboundWebhook(run, next, count);
      next += count;
      const response = await fetch(`${stack.url}${WEBHOOK_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': sign },
        body: raw,
      }).catch(() => undefined);
      if (response?.status !== 200) continue;
      chatmids.forEach((chatmid) => acknowledged.chatmids.add(chatmid));
      if (count === LARGE_WEBHOOK) acknowledged.largeWebhooks++;
    }
  };
  let batch = 0;
  const imports = async () => {
    while (!killed()) {
      const phones = Array.from({ length: IMPORT_ROWS }, (_, i) => `1629${String(batch * IMPORT_ROWS + i).padStart(7, '0')}`);
      batch++;
      const response = await stack
        .call('contacts/import', { apiKey: adminKey, params: { channelId, contacts: phones.map((phone) => ({ phoneNumber: phone, status: 'opted_out' })) } })
        .catch(() => undefined);
      // A 200 acknowledges the rows it applied; those it had no time for come back in `pending` (not applied: no event promised).
      if (response?.status !== 200) continue;
      const pending = new Set((response.body as { data: { pending: number[] } }).data.pending);
      phones.forEach((phone, index) => pending.has(index) || acknowledged.optedOut.add(phone));
    }
  };
  return Promise.all([inbound(), inbound(), imports()]);
}

/** Every event events/list shows for the channel, all pages. */
async function listedEvents(): Promise<Map<string, unknown>> {
  const events = new Map<string, unknown>();
  let cursor: string | undefined;
  for (;;) {
    const page = await stack.call('events/list', { apiKey: adminKey, method: 'GET', params: { channelId, limit: 100, ...(cursor ? { cursor } : {}) } });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    for (const event of page.body.data as Array<{ id: string }>) events.set(event.id, event);
    if (page.body.data.length === 0 || !page.body.nextCursor) return events;
    cursor = page.body.nextCursor;
  }
}

/** What the receiver was delivered (answered 200): the chatmids and opted-out numbers, and the bodies by webhook-id. */
function delivered() {
  const chatmids = new Set<string>();
  const optedOut = new Set<string>();
  const bodies = new Map<string, string[]>();
  for (const delivery of receiver.received.filter((d) => d.answered === 200)) {
    if (delivery.event.type === 'message.received') chatmids.add(delivery.event.data.chatmid);
    if (delivery.event.type === 'contact.opted_out') optedOut.add(delivery.event.data.contact.phone);
    bodies.set(delivery.webhookId, [...(bodies.get(delivery.webhookId) ?? []), delivery.body]);
  }
  return { chatmids, optedOut, bodies };
}

const missing = (expected: Set<string>, got: Set<string>) => [...expected].filter((value) => !got.has(value));

describe('SIGKILL during a flood', () => {
  it(
    'delivers every event raised before the kill (inbound messages, large webhooks handed off, opt-out imports) at least once with its stable id, and lists each',
    { timeout: 900_000 },
    async () => {
      // Prepare
      const run = randomBytes(4).toString('hex');
      const acknowledged: Acknowledged = { chatmids: new Set(), largeWebhooks: 0, optedOut: new Set() };
      let killed = false;
      // Act: flood; SIGKILL once deliveries are under way and work is still queued behind them
      const flooding = flood(run, acknowledged, () => killed);
      try {
        await until(
          () =>
            acknowledged.largeWebhooks >= 1 && acknowledged.optedOut.size >= IMPORT_ROWS && delivered().chatmids.size >= 5 && delivered().optedOut.size >= 5,
          () =>
            `deliveries under way: ${delivered().chatmids.size} messages and ${delivered().optedOut.size} opt-outs delivered, ` +
            `${acknowledged.chatmids.size} messages (${acknowledged.largeWebhooks} large webhooks) and ${acknowledged.optedOut.size} opt-outs acknowledged`,
        );
        await stack.stop('SIGKILL');
      } finally {
        killed = true;
        await flooding;
      }
      const atKill = delivered();
      const pendingAtKill = missing(acknowledged.chatmids, atKill.chatmids).length + missing(acknowledged.optedOut, atKill.optedOut).length;
      stack = await startStack({ dataDir: stack.dataDir, env: { ...ENV, CLOCK_OFFSET_MS: String(RESTARTED_LATER_MS) } });
      await until(
        () => missing(acknowledged.chatmids, delivered().chatmids).length === 0 && missing(acknowledged.optedOut, delivered().optedOut).length === 0,
        () =>
          `every acknowledged event delivered: ${missing(acknowledged.chatmids, delivered().chatmids).length} messages and ` +
          `${missing(acknowledged.optedOut, delivered().optedOut).length} opt-outs missing`,
      );
      const listed = await listedEvents();
      // Assess: the kill came mid-flood (acknowledged work still undelivered), and nothing acknowledged is lost
      expect(pendingAtKill).toBeGreaterThan(0);
      const after = delivered();
      expect(missing(acknowledged.chatmids, after.chatmids)).toEqual([]);
      expect(missing(acknowledged.optedOut, after.optedOut)).toEqual([]);
      // Every delivery is verified, its webhook-id is its event id, and a repeat carries the same body
      const deliveries = receiver.received.filter((d) => d.answered === 200);
      expect(deliveries.filter((d) => d.verifiedBy.length !== 1 || d.webhookId !== d.event.id)).toEqual([]);
      const differingRepeats = [...after.bodies].filter(([, bodies]) => new Set(bodies).size !== 1);
      expect(differingRepeats).toEqual([]);
      // Each delivered event is the one events/list shows
      const unlisted = [...after.bodies].filter(([id, bodies]) => !isDeepStrictEqual(listed.get(id), JSON.parse(bodies[0])));
      expect(unlisted.map(([id]) => id)).toEqual([]);
      const repeats = [...after.bodies.values()].filter((bodies) => bodies.length > 1).length;
      recordFigures('flood-crash', {
        inboundAcknowledged: acknowledged.chatmids.size,
        optOutsAcknowledged: acknowledged.optedOut.size,
        deliveredBeforeKill: atKill.chatmids.size + atKill.optedOut.size,
        acknowledgedUndeliveredAtKill: pendingAtKill,
        deliveredAfterRestart: after.chatmids.size + after.optedOut.size - atKill.chatmids.size - atKill.optedOut.size,
        eventsDelivered: after.bodies.size,
        eventsDeliveredTwice: repeats,
        lost: 0,
      });
    },
  );
});
