import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SQSEvent, Context } from 'aws-lambda';
import { handler as listAutomations } from '../../functions/automations-list';
import { handler as triggerAutomation } from '../../functions/automations-trigger';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { handler as manageLabel } from '../../functions/labels-manage';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { claimReference } from '../../shared/data/messages';
import { clock } from '../../shared/clock';
import { getExecution } from '../../shared/data/automations';
import { getContact } from '../../shared/data/contacts';
import { getConversation } from '../../shared/data/conversations';
import { parseSteps } from '../../shared/domain/automation-steps';
import { MAX_RECEIVES } from '../../shared/config';
import { callApi } from '../support/api';
import { drainQueue, makeAutomation, sqsEvent, stepMessageBody } from '../support/automations';
import { createChatTenant, newRecipient, openWindow, sendRequests, sentBodies, startChatNetwork, type ChatNetwork, type ChatTenant } from '../support/chat';
import { injectFaults, serviceError } from '../support/faults';
import { createTenant } from '../support/tenants';

type Runner = (event: SQSEvent, context: Context) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;

describe('automations', () => {
  let network: ChatNetwork;
  let tenant: ChatTenant;
  let runner: Runner;
  let welcomeId: string;

  beforeAll(async () => {
    // The trigger class allows 20 a minute; this file triggers more, and the limiter has its own tests.
    process.env.RATE_LIMIT_API_AUTOMATION_TRIGGER = '1000';
    network = await startChatNetwork();
    runner = (await import('../../functions/automation-runner')).handler as unknown as Runner;
    tenant = await createChatTenant(network, 1);
    await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'new' } });
    await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'lead' } });
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'city' } });
    const welcome = await makeAutomation(tenant.workspaceId, tenant.channelIds[0], 'Welcome Flow', [
      { type: 'add_labels', labels: ['new'] },
      { type: 'send_template', templateName: 'hello_world' },
    ]);
    welcomeId = welcome.id;
  });
  afterAll(async () => network?.close());
  afterEach(() => clock.reset());

  const trigger = (params: Record<string, unknown>, apiKey = tenant.adminKey) => callApi(triggerAutomation, { apiKey, params });

  it('triggers by id and by name in any case, creating the contact and conversation, without waiting for the steps', async () => {
    // Prepare
    const phone = newRecipient();
    // Act
    const byName = await trigger({ phoneNumber: `+${phone}`, automationName: 'WELCOME flow' });
    const byId = await callApi(triggerAutomation, { apiKey: tenant.adminKey, method: 'GET', params: { phoneNumber: phone, automationId: welcomeId } });
    // Assess
    expect(byName.status).toBe(200);
    expect(byName.body.data).toEqual({
      executionId: expect.stringMatching(/^ex_/),
      automationId: welcomeId,
      automationName: 'Welcome Flow',
      contactId: expect.stringMatching(/^ct_/),
      conversationId: expect.any(String),
      status: 'triggered',
    });
    expect(byId.body.data).toMatchObject({ automationId: welcomeId, contactId: byName.body.data.contactId, conversationId: byName.body.data.conversationId });
    const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, byName.body.data.executionId);
    expect(execution).toMatchObject({ status: 'triggered', stepIndex: 0 });
    expect((await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, phone))?.id).toBe(byName.body.data.contactId);
    await drainQueue(runner);
  });

  it('runs the steps: labels the contact and sends hello_world through the chat network, and counts each execution once', async () => {
    // Prepare
    const phone = newRecipient();
    const before = (await callApi(listAutomations, { apiKey: tenant.adminKey })).body.data.find((a: { id: string }) => a.id === welcomeId).executionCount;
    // Act
    const triggered = await trigger({ phoneNumber: phone, automationName: 'welcome flow' });
    await drainQueue(runner);
    const listed = await callApi(listAutomations, { apiKey: tenant.adminKey, method: 'GET' });
    // Assess
    const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    expect(execution?.status).toBe('completed');
    expect(execution?.outcomes.map((o) => [o.type, o.status])).toEqual([
      ['add_labels', 'done'],
      ['send_template', 'done'],
    ]);
    const contacts = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: phone } });
    expect(contacts.body.data[0].labels.map((l: { name: string }) => l.name)).toEqual(['new']);
    const sends = sentBodies(network, tenant.channels[0]).filter((body) => (body as { to: string }).to === phone);
    expect(sends).toEqual([
      expect.objectContaining({ type: 'template', template: expect.objectContaining({ name: 'hello_world', language: { code: 'en_US' } }) }),
    ]);
    const welcome = listed.body.data.find((a: { id: string }) => a.id === welcomeId);
    expect(welcome).toEqual({ id: welcomeId, name: 'Welcome Flow', status: 'active', executionCount: before + 1 });
    expect(listed.body.total).toBe(listed.body.data.length);
  });

  it('runs every step kind: custom fields, text inside the window, remove labels and a long wait', async () => {
    // Prepare
    const phone = newRecipient();
    await openWindow(network, tenant.channels[0], phone, 'hello');
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], 'Every step', [
      { type: 'add_labels', labels: ['new', 'lead'] },
      { type: 'set_custom_fields', fields: { city: 'Lisbon' } },
      { type: 'send_text', body: 'Hi from {{contact.city}} to {{contact.phone}}' },
      { type: 'wait', days: 2 },
      { type: 'remove_labels', labels: ['new'] },
      { type: 'send_template', templateName: 'order_update', variables: ['{{contact.city}}', 'A-1'] },
    ]);
    const start = clock.now();
    clock.freeze(start);
    // Act
    const triggered = await trigger({ phoneNumber: phone, automationName: 'every step' });
    await drainQueue(runner);
    const waiting = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    clock.freeze(start + 2 * 86_400_000 + 1000);
    await drainQueue(runner);
    // Assess
    expect(waiting?.status).toBe('running');
    expect(waiting?.stepIndex).toBe(4);
    const done = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    expect(done?.status).toBe('completed');
    const contact = await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, phone);
    expect(contact?.customFields).toEqual({ city: 'Lisbon' });
    expect(contact?.labelIds).toHaveLength(1);
    const sends = sentBodies(network, tenant.channels[0]).filter((body) => (body as { to: string }).to === phone) as Array<Record<string, any>>;
    expect(sends[0]).toMatchObject({ type: 'text', text: { body: `Hi from Lisbon to ${phone}` } });
    expect(sends[1].template.components[0].parameters.map((p: { text: string }) => p.text)).toEqual(['Lisbon', 'A-1']);
  });

  it('sends reply buttons from a send_interactive step, its body text filled for the contact', async () => {
    // Prepare
    const phone = newRecipient();
    await openWindow(network, tenant.channels[0], phone, 'hello');
    const buttons = [
      { type: 'reply', reply: { id: 'yes', title: 'Yes' } },
      { type: 'reply', reply: { id: 'no', title: 'No' } },
    ];
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Survey ${phone}`, [
      { type: 'send_interactive', interactive: { type: 'button', body: { text: 'Happy with us, {{contact.phone}}?' }, action: { buttons } } },
    ]);
    // Act
    const triggered = await trigger({ phoneNumber: phone, automationName: `survey ${phone}` });
    await drainQueue(runner);
    // Assess
    const done = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    expect(done?.status).toBe('completed');
    const sends = sentBodies(network, tenant.channels[0]).filter((body) => (body as { to: string }).to === phone);
    expect(sends).toEqual([
      expect.objectContaining({ type: 'interactive', interactive: { type: 'button', body: { text: `Happy with us, ${phone}?` }, action: { buttons } } }),
    ]);
  });

  it('refuses a send_interactive step beyond Meta’s limits when the automation is created', () => {
    // Act
    const refused = () =>
      parseSteps([
        {
          type: 'send_interactive',
          interactive: {
            type: 'button',
            body: { text: 'Pick' },
            action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A title over twenty characters' } }] },
          },
        },
      ]);
    // Assess
    expect(refused).toThrow(/step 1 \(send_interactive\).*title.*20/);
  });

  it('never repeats a send when the same queue message is delivered twice', async () => {
    // Prepare
    const phone = newRecipient();
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Once ${phone}`, [{ type: 'send_template', templateName: 'hello_world' }]);
    const triggered = await trigger({ phoneNumber: phone, automationName: `once ${phone}` });
    const body = stepMessageBody({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    // Act
    await runner(sqsEvent([{ messageId: 'a', body, receiveCount: 1 }]), {} as Context);
    await runner(sqsEvent([{ messageId: 'b', body, receiveCount: 2 }]), {} as Context);
    await drainQueue(runner);
    // Assess
    expect(sentBodies(network, tenant.channels[0]).filter((b) => (b as { to: string }).to === phone)).toHaveLength(1);
    expect((await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId))?.status).toBe(
      'completed',
    );
  });

  it("keeps the runner's idempotency keys out of callers' reach: a caller's send never stands in for the automation's", async () => {
    // Prepare: the execution is recorded and queued, its step not run yet
    const phone = newRecipient();
    const triggered = await trigger({ phoneNumber: phone, automationName: 'welcome flow' });
    const reference = `automation:${triggered.body.data.executionId}:1`;
    // Act: a caller sends another template first, with the runner's reference
    const caller = await callApi(sendTemplate, {
      apiKey: tenant.adminKey,
      params: { to: phone, templateName: 'order_update', variables: ['Bo', 'A-1'], apiReference: reference },
    });
    await drainQueue(runner);
    // Assess
    expect(caller.status, JSON.stringify(caller.body)).toBe(400);
    expect(caller.body.details.parameter).toBe('apiReference');
    const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    const sends = sentBodies(network, tenant.channels[0]).filter((body) => (body as { to: string }).to === phone) as Array<Record<string, any>>;
    expect(sends.map((body) => body.template.name)).toEqual(['hello_world']);
    expect(execution?.status).toBe('completed');
  });

  it('never reads a conflict with a claim it did not make as sent: the execution fails, naming the reference', async () => {
    // Prepare: a claim on the runner's reference that the runner did not write (as a caller could before the prefix was reserved)
    const phone = newRecipient();
    const triggered = await trigger({ phoneNumber: phone, automationName: 'welcome flow' });
    const reference = `automation:${triggered.body.data.executionId}:1`;
    await claimReference(
      { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] },
      phone,
      reference,
      { fingerprint: 'someone-else', messageId: 'msg_other' },
      3600,
    );
    // Act
    await drainQueue(runner);
    // Assess
    const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    expect(sentBodies(network, tenant.channels[0]).filter((body) => (body as { to: string }).to === phone)).toEqual([]);
    expect(execution?.status).toBe('failed');
    expect(execution?.error).toContain('apiReference');
  });

  it('fails a send_template step whose rendered variable has a newline, before anything is sent', async () => {
    // Prepare: a contact name the chat network would refuse as a template parameter (error 132018)
    const phone = newRecipient();
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: phone, name: 'Ann\nLee' } });
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Rendered ${phone}`, [
      { type: 'send_template', templateName: 'order_update', variables: ['{{contact.name}}', 'A-1'] },
    ]);
    const requestsBefore = sendRequests(network, tenant.channels[0]);
    // Act
    const triggered = await trigger({ phoneNumber: phone, automationName: `rendered ${phone}` });
    await drainQueue(runner);
    // Assess
    const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    expect(execution?.status).toBe('failed');
    expect(execution?.error).toMatch(/newlines/);
    expect(sendRequests(network, tenant.channels[0])).toBe(requestsBefore);
  });

  it('fails a send_template step whose variable renders empty for a nameless contact, naming the variable and the fallback, before anything is sent', async () => {
    // Prepare: a contact without a name (the API refuses an empty variable, and so does the chat network)
    const phone = newRecipient();
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: phone } });
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Nameless ${phone}`, [
      { type: 'send_template', templateName: 'order_update', variables: ['{{contact.name}}', 'A-1'] },
    ]);
    const requestsBefore = sendRequests(network, tenant.channels[0]);
    // Act
    const triggered = await trigger({ phoneNumber: phone, automationName: `nameless ${phone}` });
    await drainQueue(runner);
    // Assess
    const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    expect(execution?.status).toBe('failed');
    expect(execution?.error).toBe(
      'Step 1 (send_template) failed: variable 1 ({{contact.name}}) renders empty for this contact; give the contact that value, or write a fallback such as {{contact.name|there}}',
    );
    expect(sendRequests(network, tenant.channels[0])).toBe(requestsBefore);
  });

  it('sends a placeholder fallback ({{contact.name|there}}) when the contact has no value, and the value when it has one', async () => {
    // Prepare
    const [nameless, named] = [newRecipient(), newRecipient()];
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: nameless } });
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: named, name: 'Dee' } });
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Fallback ${nameless}`, [
      { type: 'send_template', templateName: 'order_update', variables: ['{{ contact.name | there }}', 'A-7'] },
    ]);
    // Act
    for (const phone of [nameless, named]) await trigger({ phoneNumber: phone, automationName: `fallback ${nameless}` });
    await drainQueue(runner);
    // Assess
    const sent = sentBodies(network, tenant.channels[0]) as { to: string; template?: { components?: { parameters: { text: string }[] }[] } }[];
    const firstVariable = (phone: string) => sent.find((body) => body.to === phone)?.template?.components?.[0].parameters[0].text;
    expect([firstVariable(nameless), firstVariable(named)]).toEqual(['there', 'Dee']);
  });

  it('sets a custom field named constructor from a set_custom_fields step, through the execution record', async () => {
    // Prepare
    const phone = newRecipient();
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'constructor' } });
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Internals ${phone}`, [
      { type: 'set_custom_fields', fields: JSON.parse('{"constructor":"Builder","city":"Porto"}') },
    ]);
    // Act
    const triggered = await trigger({ phoneNumber: phone, automationName: `internals ${phone}` });
    await drainQueue(runner);
    // Assess
    expect(triggered.status, JSON.stringify(triggered.body)).toBe(200);
    expect((await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId))?.status).toBe(
      'completed',
    );
    const contact = await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, phone);
    expect(Object.hasOwn(contact!.customFields, 'constructor') && contact!.customFields.constructor).toBe('Builder');
  });

  it('creates one contact and one conversation under 20 parallel triggers for one new number, counting 20 executions', async () => {
    // Prepare
    const phone = newRecipient();
    const automation = await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Parallel ${phone}`, [{ type: 'add_labels', labels: ['lead'] }]);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => trigger({ phoneNumber: i % 2 ? `+${phone}` : phone, automationId: automation.id })),
    );
    await drainQueue(runner);
    const listed = await callApi(listAutomations, { apiKey: tenant.adminKey });
    // Assess
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(responses.map((r) => r.body.data.contactId)).size).toBe(1);
    expect(new Set(responses.map((r) => r.body.data.conversationId)).size).toBe(1);
    expect(new Set(responses.map((r) => r.body.data.executionId)).size).toBe(20);
    expect((await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, phone))?.id).toBe(
      responses[0].body.data.conversationId,
    );
    const contacts = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: phone } });
    expect(contacts.body.pagination.total).toBe(1);
    expect(listed.body.data.find((a: { id: string }) => a.id === automation.id).executionCount).toBe(20);
  });

  it('fails the execution with the reason when a step cannot succeed (text outside the window)', async () => {
    // Prepare
    const phone = newRecipient();
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Closed ${phone}`, [
      { type: 'send_text', body: 'too late' },
      { type: 'add_labels', labels: ['lead'] },
    ]);
    // Act
    const triggered = await trigger({ phoneNumber: phone, automationName: `closed ${phone}` });
    await drainQueue(runner);
    // Assess
    const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    expect(execution?.status).toBe('failed');
    expect(execution?.error).toMatch(/Step 1 \(send_text\) failed: Outside the 24-hour session window/);
    expect(execution?.outcomes).toHaveLength(1);
    expect(sentBodies(network, tenant.channels[0]).filter((b) => (b as { to: string }).to === phone)).toHaveLength(0);
  });

  it('retries a transient failure and fails the execution only on the last delivery', async () => {
    // Prepare
    const phone = newRecipient();
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Flaky ${phone}`, [{ type: 'add_labels', labels: ['lead'] }]);
    const triggered = await trigger({ phoneNumber: phone, automationName: `flaky ${phone}` });
    const body = stepMessageBody({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
    // The definitions query (labels and fields) fails: a store outage while the step runs.
    const faults = injectFaults((command, input) =>
      command === 'QueryCommand' && JSON.stringify(input).includes('"DEF#"') ? serviceError('InternalServerError', 500) : undefined,
    );
    try {
      // Act
      // A batch whose every record failed is an invocation error (the Errors alarm sees it); Lambda returns every record.
      const first = await runner(sqsEvent([{ messageId: 'm1', body, receiveCount: 1 }]), {} as Context).catch((error: Error) => error);
      const afterFirst = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
      const last = await runner(sqsEvent([{ messageId: 'm5', body, receiveCount: MAX_RECEIVES }]), {} as Context).catch((error: Error) => error);
      // Assess
      expect(first).toMatchObject({ name: 'FullBatchFailureError' });
      expect(afterFirst?.status).not.toBe('failed');
      expect(last).toMatchObject({ name: 'FullBatchFailureError' });
      const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, triggered.body.data.executionId);
      expect(execution?.status).toBe('failed');
      expect(execution?.error).toContain('Step 1 (add_labels) failed');
    } finally {
      faults.remove();
      await drainQueue(runner);
    }
  });

  it('re-drives an execution a crash left in the outbox: counted once and run to the end', async () => {
    // Prepare: what a trigger that crashed after recording the execution leaves behind
    const { putExecution, outboxFields } = await import('../../shared/data/automations');
    const { handler: redrive } = await import('../../functions/automation-redrive');
    const phone = newRecipient();
    const automation = await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Crash ${phone}`, [{ type: 'add_labels', labels: ['lead'] }]);
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: phone } });
    const start = clock.now();
    clock.freeze(start);
    const executionId = `ex_crash${phone}`;
    await putExecution({
      id: executionId,
      workspaceId: tenant.workspaceId,
      channelId: tenant.channelIds[0],
      automationId: automation.id,
      automationName: automation.name,
      contactId: 'ct_x',
      conversationId: 'cv_x',
      phone,
      status: 'triggered',
      stepIndex: 0,
      steps: automation.steps,
      outcomes: [],
      countPending: true,
      ...outboxFields(executionId, start),
      createdAt: new Date(start).toISOString(),
      updatedAt: new Date(start).toISOString(),
    });
    // Act
    const early = await redrive();
    clock.freeze(start + 31_000);
    const due = await redrive();
    await drainQueue(runner);
    const again = await redrive();
    // Assess
    expect(early.redriven).toBe(0);
    expect(due.redriven).toBeGreaterThanOrEqual(1);
    expect(again.redriven).toBe(0);
    const execution = await getExecution({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, executionId);
    expect(execution?.status).toBe('completed');
    expect(execution?.countPending).toBeUndefined();
    // Out of the step outbox; its completion event waits in the event outbox (EVOUTBOX#) until the deliverer records it.
    expect(execution?.outboxShard ?? 'none').not.toMatch(/^OUTBOX#/);
    const listed = await callApi(listAutomations, { apiKey: tenant.adminKey });
    expect(listed.body.data.find((a: { id: string }) => a.id === automation.id).executionCount).toBe(1);
  });

  it('answers 404 for ids and names of another channel or workspace, 400 for an inactive automation or neither id nor name', async () => {
    // Prepare
    const other = await createTenant(1);
    const foreign = await makeAutomation(other.workspaceId, other.channelIds[0], 'Foreign flow', []);
    await makeAutomation(tenant.workspaceId, tenant.channelIds[0], 'Paused flow', [], 'inactive');
    const phone = newRecipient();
    // Act
    const foreignId = await trigger({ phoneNumber: phone, automationId: foreign.id });
    const foreignName = await trigger({ phoneNumber: phone, automationName: 'Foreign flow' });
    const fromOther = await trigger({ phoneNumber: phone, automationId: welcomeId }, other.adminKey);
    const inactive = await trigger({ phoneNumber: phone, automationName: 'paused FLOW' });
    const neither = await trigger({ phoneNumber: phone });
    // Assess
    for (const response of [foreignId, foreignName, fromOther]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ success: false, error: 'not_found', message: 'Automation not found in this channel.' });
      expect(JSON.stringify(response.body)).not.toContain('Welcome Flow');
    }
    expect(inactive.status).toBe(400);
    expect(inactive.body.error).toBe('automation_inactive');
    expect(inactive.body.message).toContain('inactive');
    expect(neither.status).toBe(400);
    expect(await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, phone)).toBeUndefined();
  });
});

describe('automation steps', () => {
  it('names the bad step', () => {
    // Act / Assess
    expect(() => parseSteps([{ type: 'add_labels', labels: ['a'] }, { type: 'send_template' }])).toThrow('Invalid step 2 (send_template): templateName');
    expect(() => parseSteps([{ type: 'teleport' }])).toThrow(/Invalid step 1 \(teleport\)/);
    expect(() => parseSteps([{ type: 'wait', days: 31 }])).toThrow(/Invalid step 1 \(wait\)/);
    expect(parseSteps({ steps: [{ type: 'wait', minutes: 2, seconds: 5 }] })).toEqual([{ type: 'wait', seconds: 125 }]);
  });
});
