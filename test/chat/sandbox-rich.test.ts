import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildInteractivePayload,
  buildLocationPayload,
  buildReactionPayload,
  buildTextPayload,
  INTERACTIVE_LIMITS as L,
  quoting,
  type InteractiveObject,
} from '../../shared/chat/payloads';
import { ChatNetworkError, createGraphClient, type GraphClient } from '../../shared/chat/graph-client';
import { interactiveObject } from '../../shared/domain/rich-message-params';
import type { SandboxHandle } from '../../scripts/local/sandbox';
import { NUMBER_A, NUMBER_B, startTestSandbox, startWebhookReceiver, type WebhookReceiver } from './helpers';

/**
 * The sandbox refuses interactive messages, reactions and quotes as the Cloud API does
 * (Meta's codes), and the API's own parameter check refuses exactly the interactive
 * objects the sandbox refuses: what the API lets through, the chat network takes.
 */

let sandbox: SandboxHandle;
let receiver: WebhookReceiver;
let graph: GraphClient;
let nextRecipient = 4915200000000;

const newRecipient = () => String((nextRecipient += 1));

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  sandbox = await startTestSandbox({ webhookUrl: `${receiver.url}/webhooks/whatsapp` });
  graph = createGraphClient({ baseUrl: sandbox.graphBaseUrl, maxAttempts: 1 });
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

/** A customer who wrote to number A, and the chatmid of what they wrote. */
async function customer(): Promise<{ to: string; inbound: string }> {
  const to = newRecipient();
  const { chatmid } = await sandbox.deliverInbound({ phoneNumberId: NUMBER_A.phoneNumberId, from: to, text: 'Hi' });
  return { to, inbound: chatmid };
}

const send = (payload: Parameters<GraphClient['sendMessage']>[2], number = NUMBER_A) =>
  graph.sendMessage(number.phoneNumberId, number.accessToken, payload).catch((error: unknown) => error);

const buttons = (titles: string[], ids = titles.map((_, i) => `id-${i}`)) => ({
  type: 'button' as const,
  body: { text: 'Choose' },
  action: { buttons: titles.map((title, i) => ({ type: 'reply' as const, reply: { id: ids[i], title } })) },
});
const rows = (count: number, row: (i: number) => Record<string, string> = (i) => ({ id: `r${i}`, title: `Row ${i}` })) =>
  Array.from({ length: count }, (_, i) => row(i));
const list = (sections: Array<{ title?: string; rows: Array<Record<string, string>> }>, button = 'Open') => ({
  type: 'list' as const,
  body: { text: 'Pick one' },
  action: { button, sections },
});
const cta = (display_text: string) => ({
  type: 'cta_url' as const,
  body: { text: 'Track it' },
  action: { name: 'cta_url' as const, parameters: { display_text, url: 'https://example.com/t' } },
});
const over = (limit: number) => 'x'.repeat(limit + 1);

const ACCEPTED: Array<[string, unknown]> = [
  ['3 reply buttons of 20 characters', buttons(['a'.repeat(L.buttonTitle), 'b'.repeat(L.buttonTitle), 'c'])],
  ['a list of 10 rows in 10 sections', list(Array.from({ length: 10 }, (_, s) => ({ title: `S${s}`, rows: [{ id: `r${s}`, title: 'Row' }] })))],
  ['a one-section list without a section title', list([{ rows: rows(10) }])],
  ['a call-to-action URL of 20 characters', cta('d'.repeat(L.ctaDisplayText))],
];

const REFUSED: Array<[string, unknown, number]> = [
  ['4 reply buttons', buttons(['a', 'b', 'c', 'd']), 131009],
  ['a button title of 21 characters', buttons([over(L.buttonTitle)]), 131009],
  ['an empty button title', buttons(['']), 131008],
  ['a button id of 257 characters', buttons(['a'], [over(L.buttonId)]), 131009],
  ['duplicate button titles', buttons(['Same', 'Same']), 131009],
  ['duplicate button ids', buttons(['A', 'B'], ['x', 'x']), 131009],
  ['a body of 1025 characters', { ...buttons(['a']), body: { text: over(L.buttonBody) } }, 131009],
  ['no body', { ...buttons(['a']), body: undefined }, 131008],
  ['a header of 61 characters', { ...buttons(['a']), header: { type: 'text', text: over(L.headerText) } }, 131009],
  ['a footer of 61 characters', { ...buttons(['a']), footer: { text: over(L.footer) } }, 131009],
  ['11 rows', list([{ rows: rows(11) }]), 131009],
  [
    '11 rows in two sections',
    list([
      { title: 'A', rows: rows(6) },
      { title: 'B', rows: rows(5, (i) => ({ id: `b${i}`, title: 'Row' })) },
    ]),
    131009,
  ],
  ['11 sections', list(Array.from({ length: 11 }, (_, s) => ({ title: `S${s}`, rows: [{ id: `r${s}`, title: 'Row' }] }))), 131009],
  ['a row title of 25 characters', list([{ rows: [{ id: 'r', title: over(L.rowTitle) }] }]), 131009],
  ['a row description of 73 characters', list([{ rows: [{ id: 'r', title: 'T', description: over(L.rowDescription) }] }]), 131009],
  ['a row id of 201 characters', list([{ rows: [{ id: over(L.rowId), title: 'T' }] }]), 131009],
  [
    'duplicate row ids',
    list([
      {
        rows: [
          { id: 'r', title: 'A' },
          { id: 'r', title: 'B' },
        ],
      },
    ]),
    131009,
  ],
  ['a section title of 25 characters', list([{ title: over(L.sectionTitle), rows: rows(1) }]), 131009],
  ['two sections, one untitled', list([{ title: 'A', rows: rows(1) }, { rows: [{ id: 'z', title: 'Z' }] }]), 131008],
  ['a list button of 21 characters', list([{ rows: rows(1) }], over(L.listButton)), 131009],
  ['a list with an image header', { ...list([{ rows: rows(1) }]), header: { type: 'image', image: { link: 'https://example.com/a.jpg' } } }, 131009],
  ['a call-to-action display text of 21 characters', cta(over(L.ctaDisplayText)), 131009],
];

describe('the sandbox validates interactive messages as the Cloud API does', () => {
  it.each(ACCEPTED)('accepts %s, and so does the API', async (_case, interactive) => {
    // Prepare
    const { to } = await customer();
    // Act
    const result = await send(buildInteractivePayload(to, interactive as InteractiveObject));
    // Assess
    expect(result).toMatchObject({ chatmid: expect.stringMatching(/^wamid\./) });
    expect(v.safeParse(interactiveObject, interactive).success).toBe(true);
  });

  it.each(REFUSED)('refuses %s with Meta code %i, and the API refuses it before the network', async (_case, interactive, code) => {
    // Prepare
    const { to } = await customer();
    // Act
    const refused = await send(buildInteractivePayload(to, interactive as InteractiveObject));
    // Assess
    expect(refused).toBeInstanceOf(ChatNetworkError);
    expect(refused).toMatchObject({ outcome: 'rejected', httpStatus: 400, metaCode: code });
    expect(v.safeParse(interactiveObject, interactive).success).toBe(false);
  });
});

describe('the sandbox checks quotes, reactions, locations and read marks against the conversation', () => {
  it('takes a quote and a reaction on a message of the conversation, and refuses them with 131009 on one of another customer or number', async () => {
    // Prepare
    const { to, inbound } = await customer();
    const other = await customer();
    // Act
    const quoted = await send(quoting(buildTextPayload(to, 'Sure'), inbound));
    const reacted = await send(buildReactionPayload(to, inbound, '❤️'));
    const removed = await send(buildReactionPayload(to, inbound, ''));
    const foreignQuote = await send(quoting(buildTextPayload(other.to, 'Hi'), inbound));
    const foreignReaction = await send(buildReactionPayload(other.to, inbound, '👍'));
    const otherNumber = await send(quoting(buildTextPayload(to, 'Hi'), inbound), NUMBER_B);
    const twoEmoji = await send(buildReactionPayload(to, inbound, '👍👍'));
    // Assess
    for (const accepted of [quoted, reacted, removed]) expect(accepted).toMatchObject({ chatmid: expect.stringMatching(/^wamid\./) });
    for (const refused of [foreignQuote, foreignReaction, otherNumber, twoEmoji]) expect(refused).toMatchObject({ httpStatus: 400, metaCode: 131009 });
  });

  it('takes a location and refuses one out of range or without a longitude', async () => {
    // Prepare
    const { to } = await customer();
    // Act
    const accepted = await send(buildLocationPayload(to, { latitude: -33.86, longitude: 151.2, name: 'Sydney' }));
    const outOfRange = await send(buildLocationPayload(to, { latitude: 95, longitude: 0 }));
    const missing = await send({ ...buildLocationPayload(to, { latitude: 1, longitude: 1 }), location: { latitude: 1 } } as never);
    // Assess
    expect(accepted).toMatchObject({ chatmid: expect.stringMatching(/^wamid\./) });
    expect(outOfRange).toMatchObject({ metaCode: 131009 });
    expect(missing).toMatchObject({ metaCode: 131008 });
  });

  it('marks an inbound message read, with the typing indicator when asked, and refuses an outbound or unknown message with 100', async () => {
    // Prepare
    const { to, inbound } = await customer();
    const { chatmid: outbound } = await graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(to, 'Hello'));
    // Act
    await graph.markRead(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, inbound, { typingIndicator: true });
    const ofOutbound = await graph.markRead(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, outbound).catch((error: unknown) => error);
    const unknown = await graph.markRead(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, 'wamid.unknown').catch((error: unknown) => error);
    const otherNumber = await graph.markRead(NUMBER_B.phoneNumberId, NUMBER_B.accessToken, inbound).catch((error: unknown) => error);
    // Assess
    expect(sandbox.reads.filter((read) => read.chatmid === inbound)).toEqual([
      { phoneNumberId: NUMBER_A.phoneNumberId, chatmid: inbound, typingIndicator: true, at: expect.any(Number) },
    ]);
    for (const refused of [ofOutbound, unknown, otherNumber]) {
      expect(refused).toBeInstanceOf(ChatNetworkError);
      expect(refused).toMatchObject({ operation: 'mark_read', outcome: 'rejected', metaCode: 100 });
    }
  });
});
