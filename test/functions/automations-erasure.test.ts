import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteContact } from '../../functions/contacts-delete';
import { handler as triggerAutomation } from '../../functions/automations-trigger';
import { handler as manageLabel } from '../../functions/labels-manage';
import { getItem } from '../../shared/data/client';
import { ItemKey } from '../../shared/data/entity';
import { keys } from '../../shared/data/keys';
import { callApi } from '../support/api';
import { makeAutomation, sqsEvent, stepMessageBody } from '../support/automations';
import { newRecipient, useChatTenant, type ChatTenant } from '../support/chat';
import { useMemoryEventQueue, type MemoryEventQueue } from '../support/event-queue';

/**
 * INTERFACE §15, issue 24 finding 10: an erasure reaches the contact's automation
 * executions: they lose the phone (and get an expiry), and one that runs on after the
 * erasure raises no event under the erased contact.
 */

type Runner = (event: ReturnType<typeof sqsEvent>, context: Context) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;
let tenant: ChatTenant;
let runner: Runner;
let queue: MemoryEventQueue;

useChatTenant(1, (_network, created) => {
  tenant = created;
});

beforeAll(async () => {
  process.env.RATE_LIMIT_API_AUTOMATION_TRIGGER = '1000';
  queue = useMemoryEventQueue();
  runner = (await import('../../functions/automation-runner')).handler as unknown as Runner;
  await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'new' } });
});

const channel = () => ({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });

describe('automation executions of an erased contact', () => {
  it('lose the phone and get an expiry, and a step that runs after the erasure raises no event', async () => {
    // Prepare
    const automation = await makeAutomation(tenant.workspaceId, tenant.channelIds[0], `Erasable ${Date.now()}`, [{ type: 'add_labels', labels: ['new'] }]);
    const phone = newRecipient();
    const triggered = await callApi(triggerAutomation, { apiKey: tenant.adminKey, params: { phoneNumber: phone, automationId: automation.id } });
    const executionId = triggered.body.data.executionId as string;
    // Act
    expect((await callApi(deleteContact, { apiKey: tenant.adminKey, params: { phoneNumber: phone } })).status).toBe(200);
    await runner(sqsEvent([{ messageId: '1', body: stepMessageBody(channel(), executionId, 0), receiveCount: 1 }]), {} as Context);
    // Assess
    const stored = await getItem(keys.execution(channel(), executionId), ItemKey, { consistent: true });
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(phone);
    expect((stored as Record<string, unknown>).expiresAt).toEqual(expect.any(Number));
    const raised = queue.messages.map((entry) => entry.message).filter((message) => message.kind === 'event' && message.event.data.executionId === executionId);
    expect(raised).toEqual([]);
  });
});
