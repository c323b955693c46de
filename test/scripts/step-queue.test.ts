import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { bundlePath } from '../../infra/bundles';
import { deleteLocalMessage, receiveLocalMessages, tableStepQueue } from '../../scripts/local/table-step-queue';
import { clock } from '../../shared/clock';
import { enqueueStep, provideStepQueue, type StepMessage, type StepQueueMessage } from '../../shared/queue/step-queue';
import { API_ROUTES, SUPPORT_FUNCTIONS } from '../../shared/routes';

const step = (executionId: string, notBefore: number): StepMessage => ({ workspaceId: 'ws_q', channelId: 'ch_q', executionId, step: 1, notBefore });

afterEach(() => {
  // The worker setup provides the table queue to every test; put it back.
  provideStepQueue(tableStepQueue);
  clock.reset();
});

describe('the step queue adapter', () => {
  it('keeps the local table queue out of every production bundle', async () => {
    // Prepare
    const names = [...API_ROUTES.map((route) => route.name), ...Object.values(SUPPORT_FUNCTIONS).map((fn) => fn.name)];
    // Act
    const bundles = await Promise.all(names.map(async (name) => ({ name, code: await readFile(bundlePath(name), 'utf8') })));
    // Assess
    expect(bundles.filter((bundle) => /LOCALQ|LOCALDLQ|receiveLocalMessages|retryOrDeadLetter/.test(bundle.code)).map((bundle) => bundle.name)).toEqual([]);
    expect(bundles.find((bundle) => bundle.name === SUPPORT_FUNCTIONS.automationRunner.name)?.code).toContain('SendMessageCommand');
  });

  it('hands steps to the queue provided where the app is assembled', async () => {
    // Prepare
    const taken: StepQueueMessage[] = [];
    provideStepQueue({ enqueue: async (message) => void taken.push(message) });
    // Act
    await enqueueStep(step('ex_provided', 0));
    // Assess
    expect(taken).toEqual([step('ex_provided', 0)]);
  });

  it('refuses to enqueue with neither a provided queue nor AUTOMATION_QUEUE_URL, naming both', async () => {
    // Prepare
    provideStepQueue(undefined);
    const url = process.env.AUTOMATION_QUEUE_URL;
    delete process.env.AUTOMATION_QUEUE_URL;
    // Act
    const outcome = await enqueueStep(step('ex_none', 0)).then(
      () => 'enqueued',
      (error: Error) => error.message,
    );
    // Assess
    if (url !== undefined) process.env.AUTOMATION_QUEUE_URL = url;
    expect(outcome).toContain('AUTOMATION_QUEUE_URL');
    expect(outcome).toContain('provided');
  });

  it('the table queue keeps a step invisible until its notBefore', async () => {
    // Prepare: long ago, so no other test's message is due and none is taken from it.
    const start = Date.UTC(2001, 0, 1, 12, 0, 0);
    clock.freeze(start);
    await enqueueStep(step('ex_table_later', start + 60_000));
    // Act
    const early = (await receiveLocalMessages(10)).filter((message) => message.body.includes('ex_table_later'));
    clock.freeze(start + 60_000);
    const due = (await receiveLocalMessages(10)).filter((message) => message.body.includes('ex_table_later'));
    // Assess
    expect(early).toEqual([]);
    expect(due.map((message) => JSON.parse(message.body))).toEqual([step('ex_table_later', start + 60_000)]);
    await Promise.all(due.map(deleteLocalMessage));
  });
});
