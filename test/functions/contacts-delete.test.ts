import { describe, expect, it } from 'vitest';
import { handler as deleteContact } from '../../functions/contacts-delete';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { handler as manageLabel } from '../../functions/labels-manage';
import { handler as listMessages } from '../../functions/chat-messages-list';
import { handler as messageStatus } from '../../functions/chat-message-status';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { contactsRecount } from '../../scripts/admin/commands';
import { API_ROUTES, tableAccessOf } from '../../shared/routes';
import { keys } from '../../shared/data/keys';
import { callApi, type Handler } from '../support/api';
import { newRecipient, openWindow, useChatTenant, type ChatNetwork, type ChatTenant } from '../support/chat';
import { injectFaults, serviceError } from '../support/faults';
import { checkInvariants } from '../support/invariants';
import { workspaceItems } from '../support/table';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(2, (started, created) => {
  network = started;
  tenant = created;
});

const channelId = () => tenant.channelIds[0];
const call = (handler: Handler, params: Record<string, unknown>) =>
  callApi(handler, { apiKey: tenant.adminKey, params: { channelId: channelId(), ...params } });
const total = async () => (await call(listContacts, { limit: 1 })).body.pagination.total as number;

/** A contact with everything a contact can have: name, email, labels, custom fields, sends, inbound messages of two types, an opt-out record. */
async function richContact() {
  const phone = newRecipient();
  const name = `Erin Erasable ${phone}`;
  const secret = `my address is ${phone.slice(-4)} Secret Street`;
  await call(manageLabel, { name: 'vip' });
  await call(manageField, { name: 'city' });
  const contact = await call(manageContact, {
    phoneNumber: phone,
    name,
    email: `erin${phone}@example.com`,
    labelNames: ['vip'],
    customFieldsData: { city: 'Privacyville' },
  });
  const template = await call(sendTemplate, { to: phone, templateName: 'order_update', variables: [name, 'A-1'], apiReference: `ref-${phone}` });
  const inbound = await openWindow(network, tenant.channels[0], phone, secret);
  const image = await network.sandbox.deliverInbound({
    phoneNumberId: tenant.channels[0].phoneNumberId,
    from: phone,
    message: { type: 'image', image: { id: 'media-9', mime_type: 'image/png', caption: `${secret} photo` } },
  });
  const reply = await call(sendMessage, { to: phone, body: `Thanks ${name}` });
  await openWindow(network, tenant.channels[0], phone, 'STOP');
  await network.sandbox.idle();
  return {
    phone,
    name,
    secret,
    id: contact.body.data.id as string,
    chatmids: [template.body.data.chatmid, inbound, image.chatmid, reply.body.data.chatmid] as string[],
  };
}

/** Every item of the workspace (its partitions and the contact's chatmid pointers), as text. */
async function workspaceText(contact: { chatmids: string[] }): Promise<string[]> {
  const pointers = contact.chatmids.map((chatmid) => keys.messageByChatmid(chatmid));
  return (await workspaceItems({}, tenant.workspaceId, { pointers })).map((item) => JSON.stringify(item));
}

function expectNothingOf(texts: string[], contact: { phone: string; name: string; secret: string; id: string }) {
  for (const needle of [contact.phone, contact.name, contact.secret, 'Privacyville', contact.id]) {
    expect(
      texts.filter((text) => text.includes(needle)).map((text) => text.slice(0, 400)),
      needle,
    ).toEqual([]);
  }
}

describe('contacts/delete', () => {
  it('erases the contact at once: count, search, history, contents, records; skeletons keep their statuses', async () => {
    // Prepare
    const contact = await richContact();
    const before = await total();
    // Act
    const erased = await call(deleteContact, { phoneNumber: `+${contact.phone}` });
    // Assess
    expect(erased.status).toBe(200);
    expect(erased.body.data).toEqual({ id: contact.id, deleted: true });
    expect(await total()).toBe(before - 1);
    expect((await call(listContacts, { search: contact.phone })).body.pagination.total).toBe(0);
    expect((await call(listMessages, { phoneNumber: contact.phone })).status).toBe(404);
    expect((await call(listMessages, { contactId: contact.id })).status).toBe(404);
    const statuses = await Promise.all(contact.chatmids.map((chatmid) => callApi(messageStatus, { apiKey: tenant.adminKey, params: { chatmid } })));
    expect(statuses.map((status) => [status.status, status.body.data.content])).toEqual(contact.chatmids.map(() => [200, null]));
    expect(statuses.map((status) => status.body.data.status)).toEqual(['delivered', 'received', 'received', 'delivered']);
    expectNothingOf(await workspaceText(contact), contact);
    expect((await checkInvariants({ workspaceId: tenant.workspaceId })).violations).toEqual([]);
  });

  it('leaves nothing of the contact readable through any endpoint', async () => {
    // Prepare
    const contact = await richContact();
    await call(deleteContact, { contactId: contact.id });
    const params = { channelId: channelId(), phoneNumber: contact.phone, contactId: contact.id, search: contact.phone, limit: 100 };
    // Act: every endpoint that reads, with every parameter that could name the contact
    const answers: string[] = [];
    for (const route of API_ROUTES.filter((row) => tableAccessOf(row) === 'read')) {
      const { handler } = (await import(/* @vite-ignore */ `../../${route.entry}`)) as { handler: Handler };
      if (route.path === 'chat/message/status') {
        for (const chatmid of contact.chatmids) answers.push(JSON.stringify((await callApi(handler, { apiKey: tenant.adminKey, params: { chatmid } })).body));
      } else {
        answers.push(JSON.stringify((await callApi(handler, { apiKey: tenant.adminKey, params })).body));
      }
    }
    answers.push(JSON.stringify((await call(listContacts, { limit: 200 })).body));
    answers.push(JSON.stringify((await call(deleteContact, { phoneNumber: contact.phone })).body));
    // Assess
    expect(answers.length).toBeGreaterThanOrEqual(API_ROUTES.filter((row) => tableAccessOf(row) === 'read').length + 5);
    expectNothingOf(answers, contact);
  });

  it('lets a later inbound message from the number create a new contact with an empty history', async () => {
    // Prepare
    const contact = await richContact();
    await call(deleteContact, { phoneNumber: contact.phone });
    // Act
    const chatmid = await openWindow(network, tenant.channels[0], contact.phone, 'hello again');
    // Assess
    const found = await call(listContacts, { search: contact.phone });
    expect(found.body.data).toEqual([expect.objectContaining({ phone: contact.phone, status: 'active' })]);
    expect(found.body.data[0].id).not.toBe(contact.id);
    const history = await call(listMessages, { phoneNumber: contact.phone });
    expect(history.body.data.map((message: { chatmid: string }) => message.chatmid)).toEqual([chatmid]);
  });

  it('keeps the opt-out after the erasure (a keyed hash, never the number) until the number writes START', async () => {
    // Prepare: richContact ends with STOP.
    const contact = await richContact();
    await call(deleteContact, { phoneNumber: contact.phone });
    // Act
    const afterErasure = await call(sendTemplate, { to: contact.phone, templateName: 'hello_world' });
    await openWindow(network, tenant.channels[0], contact.phone, 'hello again');
    const afterNewContact = await call(sendMessage, { to: contact.phone, body: 'still there?' });
    await openWindow(network, tenant.channels[0], contact.phone, 'START');
    const afterStart = await call(sendMessage, { to: contact.phone, body: 'welcome back' });
    // Assess
    for (const refused of [afterErasure, afterNewContact]) {
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('contact_opted_out');
    }
    expect(afterStart.status).toBe(200);
  });

  it('keeps the opt-out after the erasure until an API user sets status active, and audits the erasure without personal data', async () => {
    // Prepare
    const contact = await richContact();
    await call(deleteContact, { contactId: contact.id });
    const texts = await workspaceText(contact);
    // Act
    const refused = await call(sendTemplate, { to: contact.phone, templateName: 'hello_world' });
    const optIn = await call(manageContact, { phoneNumber: contact.phone, status: 'active' });
    const sent = await call(sendTemplate, { to: contact.phone, templateName: 'hello_world' });
    // Assess
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('contact_opted_out');
    expect(optIn.status).toBe(200);
    expect(sent.status).toBe(200);
    expectNothingOf(texts, contact);
    const audits = texts.map((text) => JSON.parse(text) as Record<string, unknown>).filter((item) => item.entity === 'contactErasure');
    expect(audits).toContainEqual(expect.objectContaining({ userId: tenant.adminUserId, at: expect.any(Number) }));
  });

  it('holds an opt-out kept through an erasure to its own channel: another channel still reaches the number', async () => {
    // Prepare: richContact ends with STOP on the first channel; the second channel knows the number too.
    const contact = await richContact();
    await openWindow(network, tenant.channels[1], contact.phone, 'hello on the other channel');
    await call(deleteContact, { phoneNumber: contact.phone });
    // Act
    const here = await call(sendTemplate, { to: contact.phone, templateName: 'hello_world' });
    const there = await callApi(sendTemplate, {
      apiKey: tenant.adminKey,
      params: { channelId: tenant.channelIds[1], to: contact.phone, templateName: 'hello_world' },
    });
    // Assess
    expect([here.status, here.body.error]).toEqual([403, 'contact_opted_out']);
    expect(there.status).toBe(200);
  });

  it('answers 404 for an unknown contact, another channel’s contact id, and a second delete', async () => {
    // Prepare
    const phone = newRecipient();
    const other = await callApi(manageContact, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[1], phoneNumber: phone } });
    await call(manageContact, { phoneNumber: phone });
    const before = await total();
    // Act
    const unknownPhone = await call(deleteContact, { phoneNumber: newRecipient() });
    const foreignId = await call(deleteContact, { contactId: other.body.data.id });
    const first = await call(deleteContact, { phoneNumber: phone });
    const second = await call(deleteContact, { phoneNumber: phone });
    const neither = await call(deleteContact, {});
    // Assess
    for (const answer of [unknownPhone, foreignId, second]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('not_found');
    }
    expect(first.status).toBe(200);
    expect(neither.status).toBe(400);
    expect(neither.body.details.parameter).toBe('phoneNumber');
    expect(await total()).toBe(before - 1);
    const otherChannel = await callApi(listContacts, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[1], search: phone } });
    expect(otherChannel.body.pagination.total).toBe(1);
  });

  it.each([
    ['running the delete again', async (contact: { phone: string }) => call(deleteContact, { phoneNumber: contact.phone })],
    ['admin contacts recount', async () => contactsRecount(channelId())],
  ])('finishes an erasure a crash interrupted halfway by %s', async (_how, finish) => {
    // Prepare
    const contact = await richContact();
    const before = await total();
    const fault = injectFaults((name, input) =>
      name === 'DeleteItemCommand' && String((input.Key as { sk?: { S?: string } })?.sk?.S ?? '').startsWith('HIST#')
        ? serviceError('InternalServerError', 500)
        : undefined,
    );
    let crashed;
    try {
      crashed = await call(deleteContact, { phoneNumber: contact.phone });
    } finally {
      fault.remove();
    }
    // The half-erased contact is already gone from every view.
    expect(crashed.status).toBeGreaterThanOrEqual(500);
    expect(await total()).toBe(before - 1);
    expect((await call(listContacts, { search: contact.phone })).body.pagination.total).toBe(0);
    expect(JSON.stringify((await call(listContacts, { limit: 200 })).body)).not.toContain(contact.phone);
    expect((await call(listMessages, { phoneNumber: contact.phone })).status).toBe(404);
    // Act
    await finish(contact);
    // Assess
    expect(await total()).toBe(before - 1);
    expectNothingOf(await workspaceText(contact), contact);
    expect((await checkInvariants({ workspaceId: tenant.workspaceId })).violations).toEqual([]);
  });
});
