import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteContact } from '../../functions/contacts-delete';
import { handler as importContacts } from '../../functions/contacts-import';
import { handler as listEvents } from '../../functions/events-list';
import { handler as drainInbound } from '../../functions/inbound-drain';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { webhookEnvelope } from '../../scripts/local/sandbox-webhooks';
import { listStatusChanges } from '../../shared/data/contact-status';
import { getContact } from '../../shared/data/contacts';
import { INLINE_EVENTS, PART_EVENTS } from '../../shared/domain/inbound-drain';
import { callApi } from '../support/api';
import { signedWebhook, useChatTenant, type ChatTenant } from '../support/chat';
import { loadEndpoints, METHODS } from '../support/endpoints';
import { useDeliveryPipeline } from '../support/event-queue';
import { recordFigures } from '../support/log-audit';
import { startReceiver, type Receiver } from '../support/receiver';
import { snapshotDiff, snapshotTable } from '../support/table';
import { createTeamKey } from '../support/tenants';
import { expectEnvelope, liftRateLimits, Tally } from './helpers';
import { newChatmid } from '../support/chatmid';

/**
 * The hostile run's abuse kinds (issues 23 and 24), beside hostile-input.test.ts's bad
 * input: each generates what an adversary would send and asserts the invariant the
 * service promises, against the real handlers, the sandbox chat network and a real
 * receiver (the event queue is in memory, drained by the real deliverer).
 *
 * - import repeats: contacts/import naming one number many times with alternating status
 *   → one contact with each field's last value, at most one status change and one opt-out
 *   event per call;
 * - large inbound batches: one signed chat-network webhook carrying many messages (some
 *   repeated, the whole delivery sent again) → each message recorded once, one
 *   `message.received` each;
 * - role: a team key on every admin-only route, with any parameters → 403 `forbidden`,
 *   nothing written;
 * - erasure race: inbound messages just before contacts/delete → nothing of the contact
 *   delivered or listed after it;
 * - Unicode keyword: an opt-out keyword in any case, width, with punctuation, symbols,
 *   whitespace and invisible characters around it → opted out; punctuation inside the
 *   word → not a keyword.
 */

let tenant: ChatTenant;
let receiver: Receiver;
const tally = new Tally();
const restoreLimits = liftRateLimits();

useChatTenant(1, (_network, created) => {
  tenant = created;
});
const pipeline = useDeliveryPipeline();

beforeAll(async () => {
  receiver = await startReceiver('/hostile-abuse');
  const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: receiver.url } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  receiver.secrets.push(created.body.data.secret);
});

afterAll(async () => {
  restoreLimits();
  await receiver?.close();
  recordFigures('hostile-abuse', {
    importRepeatCalls: tally.get('import calls'),
    importRowsOfOneNumber: tally.get('import rows'),
    largeWebhooks: tally.get('large webhooks'),
    largeWebhookMessages: tally.get('large webhook messages'),
    teamKeyCallsToAdminRoutes: tally.get('role calls'),
    erasureRaces: tally.get('erasure races'),
    keywordVariants: tally.get('keywords'),
  });
});

const channel = () => ({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });
let phoneCounter = 0;
/** A number of its own for each case: +1 628 4xx xxxx. */
const nextPhone = () => `16284${String(Date.now() % 100).padStart(2, '0')}${String(phoneCounter++ % 10_000).padStart(4, '0')}`;

/** One signed webhook of the tenant's channel carrying `messages` (Cloud API shape). */
function inboundDelivery(messages: Array<{ from: string; id: string; text: string }>) {
  const phoneChannel = tenant.channels[0];
  return signedWebhook(
    webhookEnvelope(
      { phoneNumberId: phoneChannel.phoneNumberId, wabaId: phoneChannel.wabaId!, displayPhoneNumber: phoneChannel.displayPhoneNumber! },
      {
        contacts: [...new Set(messages.map((message) => message.from))].map((from) => ({ profile: { name: 'Hostile' }, wa_id: from })),
        messages: messages.map(({ from, id, text }) => ({ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } })),
      },
    ),
  );
}

async function inbound(from: string, text: string): Promise<void> {
  expect((await pipeline.webhook(inboundDelivery([{ from, id: newChatmid(), text }]))).statusCode).toBe(200);
}

/** The events the service raised so far (queued, or still on the contact's outbox) whose contact is `phone`, by id. */
async function raisedFor(phone: string): Promise<Map<string, { type: string; data: Record<string, any> }>> {
  const raised = new Map<string, { type: string; data: Record<string, any> }>();
  for (const { message } of pipeline.queue.messages)
    if (message.kind === 'event' && (message.event.data.contact as { phone?: string } | undefined)?.phone === phone)
      raised.set(message.event.id, message.event);
  const contact = (await getContact(channel(), phone)) as { pendingEvents?: Array<{ id: string; type: string; data: Record<string, any> }> } | undefined;
  for (const event of contact?.pendingEvents ?? []) raised.set(event.id, event);
  return raised;
}

/** Where the last read of events/list ended: an erasure race reads only the events raised since its start. */
let listedUpTo: string | undefined;

/** The events events/list shows after `listedUpTo`, all pages; moves `listedUpTo` to their end. */
async function eventsListedSince(): Promise<Array<{ id: string; type: string; data: Record<string, any> }>> {
  const events: Array<{ id: string; type: string; data: Record<string, any> }> = [];
  for (;;) {
    const page = await callApi(listEvents, { apiKey: tenant.adminKey, params: { limit: 100, cursor: listedUpTo } });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    events.push(...page.body.data);
    if (page.body.nextCursor) listedUpTo = page.body.nextCursor;
    if (page.body.data.length === 0 || !page.body.nextCursor) return events;
  }
}

// ---- Import repeats (issue 23) -------------------------------------------------------------

describe('import repeats', () => {
  it('collapses many rows of one number with alternating status into one contact: last values, at most one status change and one opt-out event a call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 300 }),
        fc.boolean(),
        fc.constantFrom('active', 'opted_out', undefined),
        async (rows, startOptedOut, initial) => {
          // Prepare: the number exists already (with a status) or not
          const phone = nextPhone();
          if (initial) {
            const seeded = await callApi(importContacts, { apiKey: tenant.adminKey, params: { contacts: [{ phoneNumber: `+${phone}`, status: initial }] } });
            expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
          }
          const changesBefore = (await listStatusChanges(channel(), phone)).length;
          const eventsBefore = await raisedFor(phone);
          const contacts = Array.from({ length: rows }, (_, i) => ({
            phoneNumber: i % 3 === 0 ? `+${phone}` : phone,
            name: `Repeat ${i}`,
            status: (i % 2 === 0) === startOptedOut ? 'opted_out' : 'active',
          }));
          tally.add('import calls');
          tally.add('import rows', rows);
          // Act
          const response = await callApi(importContacts, { apiKey: tenant.adminKey, params: { contacts } });
          // Assess
          expectEnvelope(response);
          expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
          expect(response.body.data).toMatchObject({ failed: 0, merged: rows - 1 });
          const last = contacts[rows - 1];
          expect(await getContact(channel(), phone)).toMatchObject({ name: last.name, status: last.status });
          // One audit record for the call's one status (a status the contact already has is audited too), one event only for a change.
          const changed = (initial ?? 'active') !== last.status;
          expect((await listStatusChanges(channel(), phone)).length - changesBefore).toBe(1);
          const raised = [...(await raisedFor(phone))].filter(([id]) => !eventsBefore.has(id)).map(([, event]) => event.type);
          expect(raised).toEqual(changed ? [last.status === 'opted_out' ? 'contact.opted_out' : 'contact.opted_in'] : []);
        },
      ),
      { numRuns: 10 },
    );
  }, 300_000);
});

// ---- Large inbound batches (issue 23) ------------------------------------------------------

describe('large inbound batches', () => {
  it('records each message of one signed webhook carrying many (repeats inside, the delivery sent twice) exactly once, with one message.received each', async () => {
    await fc.assert(
      // From one message past what is processed within the request to past two full parts (docs/MESSAGING.md, "Large
      // deliveries"): one to three parts, a repeat in another part than its first copy. What happens to a part does
      // not depend on how many parts wait (the full-size hand-off: test/functions/chat-webhook-large.test.ts).
      fc.asyncProperty(
        fc.integer({ min: INLINE_EVENTS + 1, max: 2 * PART_EVENTS + 1 }),
        fc.integer({ min: 1, max: 20 }),
        fc.nat({ max: 10 }),
        async (count, senders, repeats) => {
          // Prepare: `count` messages from `senders` numbers, `repeats` of them twice in the same delivery
          const phones = Array.from({ length: senders }, nextPhone);
          const messages = Array.from({ length: count }, (_, i) => ({ from: phones[i % senders], id: newChatmid(), text: `batch ${i}` }));
          const delivery = inboundDelivery([...messages, ...messages.slice(0, repeats)]);
          tally.add('large webhooks');
          tally.add('large webhook messages', count + repeats);
          // Act: delivered, delivered again (the chat network retries), and the hand-off drained
          // (the drain takes every waiting part of the table: no other file hands off large deliveries to the shared store)
          const first = await pipeline.webhook(delivery);
          const again = await pipeline.webhook(delivery);
          for (let drained = await drainInbound(); !drained.done || drained.parts > 0; drained = await drainInbound());
          // Assess
          expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
          // Each sender's raised events read once: who each message.received names, and how many there are of each message.
          const received = new Map<string, Set<string>>();
          const byChatmid = new Map<string, number>();
          for (const phone of phones)
            for (const event of (await raisedFor(phone)).values())
              if (event.type === 'message.received') {
                received.set(event.data.chatmid, new Set([...(received.get(event.data.chatmid) ?? []), event.data.contact.phone]));
                byChatmid.set(event.data.chatmid, (byChatmid.get(event.data.chatmid) ?? 0) + 1);
              }
          expect(received.size).toBe(count);
          for (const message of messages) expect(received.get(message.id), message.id).toEqual(new Set([message.from]));
          expect([...byChatmid.values()].filter((n) => n !== 1)).toEqual([]);
          // Their deliveries are not what this kind tests: out of the queue, so later kinds drain only their own.
          pipeline.queue.messages.length = 0;
        },
      ),
      { numRuns: 6 },
    );
  }, 300_000);
});

// ---- Role (issue 24) -----------------------------------------------------------------------

describe('role', () => {
  it('refuses a team key on every admin-only route, whatever its parameters, with 403 forbidden, and writes nothing', async () => {
    // Prepare
    const adminOnly = (await loadEndpoints()).filter((endpoint) => endpoint.route.adminOnly);
    expect(adminOnly.map((endpoint) => endpoint.path)).toEqual(expect.arrayContaining(['webhooks/manage', 'webhooks/delete']));
    const team = await createTeamKey(tenant, tenant.channelIds);
    const subscription = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/hostile-role', isActive: false } });
    // Inactive: the later kinds' deliveries go to the receiver alone.
    const webhookId = subscription.body.data.id as string;
    const before = await snapshotTable({}, { workspaceId: tenant.workspaceId });
    // An admin's own calls: rotate, deactivate, retarget, delete, create, each as a team key would try them
    const attempts = fc.record(
      {
        url: fc.constantFrom('https://example.com/hostile-role', 'https://attacker.example/steal', receiver.url),
        rotateSecret: fc.boolean(),
        isActive: fc.boolean(),
        events: fc.subarray(['message.received', 'message.status', 'contact.opted_out']),
        webhookId: fc.constantFrom(webhookId, 'wh_unknown', ''),
        channelId: fc.constantFrom(tenant.channelIds[0], 'ch_other'),
      },
      { requiredKeys: [] },
    );
    // Act + Assess
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...adminOnly), fc.constantFrom(...METHODS), attempts, async (endpoint, method, params) => {
        tally.add('role calls');
        const response = await callApi(endpoint.handler, { apiKey: team.apiKey, method, params: { ...endpoint.base, ...params } });
        expectEnvelope(response);
        expect(response.status, `${endpoint.path} ${JSON.stringify(response.body)}`).toBe(403);
        expect(response.body.error).toBe('forbidden');
        expect(JSON.stringify(response.body)).not.toMatch(/whsec_/);
      }),
      { numRuns: 60 },
    );
    expect(snapshotDiff(before, await snapshotTable({}, { workspaceId: tenant.workspaceId }))).toEqual({ added: [], removed: [] });
  }, 120_000);
});

// ---- Erasure race (issue 24) ---------------------------------------------------------------

describe('erasure race', () => {
  it('delivers and lists nothing of a contact whose inbound messages arrived just before its erasure', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 2 }), fc.integer({ min: 1, max: 3 }), async (deliveredBefore, inFlight) => {
        // Prepare: some messages delivered, then more raised and still queued when the erasure comes
        const phone = nextPhone();
        tally.add('erasure races');
        await pipeline.queue.drain(pipeline.deliverer, { maxMs: 120_000 });
        await eventsListedSince();
        for (let i = 0; i < deliveredBefore; i++) await inbound(phone, `before ${i}`);
        await pipeline.queue.drain(pipeline.deliverer);
        for (let i = 0; i < inFlight; i++) await inbound(phone, `secret in flight ${i}`);
        const receivedAtErasure = receiver.received.length;
        // Act
        const erased = await callApi(deleteContact, { apiKey: tenant.adminKey, params: { phoneNumber: phone } });
        await pipeline.queue.drain(pipeline.deliverer, { maxMs: 120_000 });
        // Assess
        expect(erased.status, JSON.stringify(erased.body)).toBe(200);
        expect(pipeline.queue.messages.filter(({ message }) => JSON.stringify(message).includes(phone))).toEqual([]);
        const afterErasure = receiver.received.slice(receivedAtErasure).filter((delivery) => delivery.body.includes(phone));
        expect(afterErasure.map((delivery) => delivery.event.type)).toEqual([]);
        const listed = (await eventsListedSince()).filter((event) => JSON.stringify(event).includes(phone));
        expect(listed.map((event) => event.type)).toEqual([]);
      }),
      { numRuns: 6 },
    );
  }, 300_000);
});

// ---- Unicode keyword (issue 24) ------------------------------------------------------------

const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
/** What may surround a keyword (docs/MESSAGING.md "Opt-out and opt-in"): whitespace, punctuation, symbols, invisible characters. */
const AROUND = [' ', '\u00a0', '\t', '.', '!', '?', '¿', '¡', '*', '"', '…', '。', '！', '🙂', '\u200b', '\u200c', '\u200d', '\ufeff', '\u200e', '\u2060'];
const fullwidth = (text: string) => text.replace(/[A-Za-z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 0xfee0));

const keywordVariant = fc
  .tuple(
    fc.constantFrom(...OPT_OUT_KEYWORDS),
    fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }),
    fc.boolean(),
    fc.array(fc.constantFrom(...AROUND), { maxLength: 3 }),
    fc.array(fc.constantFrom(...AROUND), { maxLength: 3 }),
  )
  .map(([keyword, lower, wide, before, after]) => {
    const cased = [...keyword].map((letter, i) => (lower[i] ? letter.toLowerCase() : letter)).join('');
    return `${before.join('')}${wide ? fullwidth(cased) : cased}${after.join('')}`;
  });

describe('Unicode keyword', () => {
  it('opts the contact out on a keyword in any case or width, with punctuation, symbols, whitespace or invisible characters around it', async () => {
    await fc.assert(
      fc.asyncProperty(keywordVariant, async (text) => {
        // Prepare
        const phone = nextPhone();
        tally.add('keywords');
        await inbound(phone, 'hello');
        // Act
        await inbound(phone, text);
        // Assess
        expect((await getContact(channel(), phone))?.status, JSON.stringify(text)).toBe('opted_out');
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it.each(['S.T.O.P', 'please stop', 'stop it', 'STOPP', 'st op'])(
    'does not opt out on "%s" (punctuation inside the word, or more than a keyword)',
    async (text) => {
      // Prepare
      const phone = nextPhone();
      tally.add('keywords');
      await inbound(phone, 'hello');
      // Act
      await inbound(phone, text);
      // Assess
      expect((await getContact(channel(), phone))?.status).toBe('active');
    },
  );
});
