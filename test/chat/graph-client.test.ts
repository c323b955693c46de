import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildMediaPayload,
  buildTemplatePayload,
  buildTextPayload,
  ChatNetworkError,
  createGraphClient,
  type GraphClientOptions,
} from '../../shared/chat/graph-client';
import type { SandboxHandle } from '../../scripts/local/sandbox';
import { closedPortUrl, graphRequests, NUMBER_A, NUMBER_B, startTestSandbox } from './helpers';

const TO = '4915112345678';

let sandbox: SandboxHandle;
let sleeps: number[];

/** A client on the sandbox whose waits are recorded instead of slept. */
function client(options: Partial<GraphClientOptions> = {}) {
  return createGraphClient({
    baseUrl: sandbox.graphBaseUrl,
    timeoutMs: 2000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
}

/** The ChatNetworkError a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<ChatNetworkError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ChatNetworkError);
  return error as ChatNetworkError;
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  sleeps = [];
  sandbox.requests.length = 0;
  sandbox.sent.length = 0;
});

describe('graph client against the sandbox: sends', () => {
  it('sends a text and returns the wamid, the wa_id and the status', async () => {
    // Prepare
    const graph = client();

    // Act
    const result = await graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hello'));

    // Assess
    expect(result.chatmid).toMatch(/^wamid\./);
    expect(result).toMatchObject({ waId: TO, messageStatus: 'accepted' });
    expect(sandbox.sent).toHaveLength(1);
    expect(sandbox.sent[0]).toMatchObject({ phoneNumberId: NUMBER_A.phoneNumberId, chatmid: result.chatmid });
    expect(sandbox.sent[0].body).toEqual(buildTextPayload(TO, 'Hello'));
  });

  it('sends media messages of every type', async () => {
    // Prepare
    const graph = client();
    const link = 'https://example.com/file';

    // Act
    const results = await Promise.all([
      graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildMediaPayload(TO, 'image', { link, caption: 'c' })),
      graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildMediaPayload(TO, 'video', { link })),
      graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildMediaPayload(TO, 'document', { link, filename: 'f.pdf' })),
      graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildMediaPayload(TO, 'audio', { link })),
    ]);

    // Assess
    expect(new Set(results.map((result) => result.chatmid)).size).toBe(4);
    expect(sandbox.sent).toHaveLength(4);
  });

  it('sends templates with and without parameters, language.policy included', async () => {
    // Prepare
    const graph = client();
    const hello = buildTemplatePayload(TO, { name: 'hello_world', languageCode: 'en_US', bodyVariables: [] });
    const withPolicy = { ...hello, template: { ...hello.template, language: { code: 'en_US', policy: 'deterministic' } } };
    const order = buildTemplatePayload(TO, { name: 'order_update', languageCode: 'en', bodyVariables: ['Ann', '123'] });
    const promo = buildTemplatePayload(TO, {
      name: 'promo_image',
      languageCode: 'en',
      header: { type: 'image', link: 'https://example.com/p.jpg' },
      bodyVariables: ['Sale'],
    });

    // Act
    const results = await Promise.all(
      [hello, withPolicy, order, promo].map((payload) => graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, payload)),
    );

    // Assess
    expect(results.every((result) => result.chatmid.startsWith('wamid.'))).toBe(true);
  });

  it("reports Meta's wa_id rewrite of Brazilian mobile numbers", async () => {
    // Act
    const result = await client().sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload('5511987654321', 'Oi'));

    // Assess
    expect(result.waId).toBe('551187654321');
  });

  it("refuses another number's token as an invalid token (190), without resending", async () => {
    // Act
    const error = await failure(client().sendMessage(NUMBER_A.phoneNumberId, NUMBER_B.accessToken, buildTextPayload(TO, 'Hi')));

    // Assess
    expect(error).toMatchObject({ outcome: 'rejected', metaCode: 190, httpStatus: 401 });
    expect(error.message).not.toContain(NUMBER_B.accessToken);
    expect(graphRequests(sandbox, 'messages')).toBe(1);
    expect(sandbox.sent).toHaveLength(0);
  });

  it('refuses a wrong template parameter count or a missing header image with 132000', async () => {
    // Prepare
    const graph = client();
    const oneVariable = buildTemplatePayload(TO, { name: 'order_update', languageCode: 'en', bodyVariables: ['Ann'] });
    const noHeader = buildTemplatePayload(TO, { name: 'promo_image', languageCode: 'en', bodyVariables: ['Sale'] });

    // Act
    const errors = await Promise.all(
      [oneVariable, noHeader].map((payload) => failure(graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, payload))),
    );

    // Assess
    for (const error of errors) expect(error).toMatchObject({ outcome: 'rejected', metaCode: 132000, httpStatus: 400 });
    expect(errors[0].details).toContain('(1) does not match the expected number of params (2)');
  });

  it('refuses unknown, wrongly localised and unapproved templates with 132001', async () => {
    // Prepare
    const graph = client();
    const payloads = [
      buildTemplatePayload(TO, { name: 'no_such_template', languageCode: 'en', bodyVariables: [] }),
      buildTemplatePayload(TO, { name: 'order_update', languageCode: 'en_US', bodyVariables: ['Ann', '1'] }),
      buildTemplatePayload(TO, { name: 'draft_offer', languageCode: 'en', bodyVariables: ['10%'] }),
    ];

    // Act
    const errors = await Promise.all(payloads.map((payload) => failure(graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, payload))));

    // Assess
    for (const error of errors) expect(error).toMatchObject({ outcome: 'rejected', metaCode: 132001 });
  });

  it('refuses payloads the Cloud API refuses, with Meta codes 100 and 131008', async () => {
    // Prepare
    const graph = client();
    const base = buildTextPayload(TO, 'x');

    // Act
    const badTo = await failure(graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, { ...base, to: 'abc' }));
    const noBody = await failure(graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, { ...base, text: {} as { body: string } }));
    const audioCaption = await failure(
      graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, {
        ...buildMediaPayload(TO, 'audio', { link: 'https://example.com/a.ogg' }),
        audio: { link: 'https://example.com/a.ogg', caption: 'no' },
      }),
    );

    // Assess
    expect(badTo).toMatchObject({ outcome: 'rejected', metaCode: 100 });
    expect(noBody).toMatchObject({ outcome: 'rejected', metaCode: 131008 });
    expect(audioCaption).toMatchObject({ outcome: 'rejected', metaCode: 100 });
  });
});

describe('graph client against the sandbox: templates', () => {
  it('lists every template of the WABA, following the paging cursors', async () => {
    // Act
    const templates = await client().listTemplates(NUMBER_A.wabaId, NUMBER_A.accessToken, { pageSize: 3 });

    // Assess
    expect(graphRequests(sandbox, 'message_templates')).toBe(2);
    expect(templates.map((template) => [template.name, template.language, template.status, template.category])).toEqual([
      ['hello_world', 'en_US', 'APPROVED', 'UTILITY'],
      ['order_update', 'en', 'APPROVED', 'UTILITY'],
      ['promo_image', 'en', 'APPROVED', 'MARKETING'],
      ['draft_offer', 'en', 'PENDING', 'MARKETING'],
    ]);
    expect(templates.every((template) => /^\d+$/.test(template.id))).toBe(true);
    expect(templates[2].components).toContainEqual(expect.objectContaining({ type: 'HEADER', format: 'IMAGE' }));
  });

  it("refuses a token of another WABA's number", async () => {
    // Act
    const error = await failure(client().listTemplates(NUMBER_A.wabaId, NUMBER_B.accessToken));

    // Assess
    expect(error).toMatchObject({ outcome: 'rejected', metaCode: 190, operation: 'list_templates' });
    expect(graphRequests(sandbox, 'message_templates')).toBe(1);
  });
});

describe('graph client retry rules', () => {
  it('retries a refused connection with growing backoff, then reports not_sent', async () => {
    // Prepare
    const graph = client({ baseUrl: `${await closedPortUrl()}/v21.0`, maxAttempts: 3, backoffBaseMs: 100 });

    // Act
    const error = await failure(graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hi')));

    // Assess
    expect(error.outcome).toBe('not_sent');
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  it('waits out a 429 Retry-After and then succeeds', async () => {
    // Prepare
    sandbox.injectFault({ kind: '429', retryAfterSeconds: 2, path: 'messages' });

    // Act
    const result = await client().sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hi'));

    // Assess
    expect(result.chatmid).toMatch(/^wamid\./);
    expect(sleeps).toEqual([2000]);
    expect(graphRequests(sandbox, 'messages')).toBe(2);
    expect(sandbox.sent).toHaveLength(1);
  });

  it('does not wait out a Retry-After above the cap: the caller gets it instead', async () => {
    // Prepare
    sandbox.injectFault({ kind: '429', retryAfterSeconds: 30, path: 'messages' });

    // Act
    const error = await failure(client().sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hi')));

    // Assess
    expect(error).toMatchObject({ outcome: 'rejected', httpStatus: 429, metaCode: 130429, retryAfterSeconds: 30 });
    expect(sleeps).toEqual([]);
    expect(graphRequests(sandbox, 'messages')).toBe(1);
  });

  it('gives up on 429 after maxAttempts', async () => {
    // Prepare
    sandbox.injectFault({ kind: '429', retryAfterSeconds: 1, count: 2, path: 'messages' });

    // Act
    const error = await failure(client({ maxAttempts: 2 }).sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hi')));

    // Assess
    expect(error).toMatchObject({ outcome: 'rejected', httpStatus: 429 });
    expect(graphRequests(sandbox, 'messages')).toBe(2);
    expect(sandbox.sent).toHaveLength(0);
  });

  it('never resends after a 5xx: the outcome is unknown', async () => {
    // Prepare
    sandbox.injectFault({ kind: '5xx', path: 'messages' });

    // Act
    const error = await failure(client().sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hi')));

    // Assess
    expect(error).toMatchObject({ outcome: 'unknown', httpStatus: 500, operation: 'send' });
    expect(graphRequests(sandbox, 'messages')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('never resends after a timeout: the outcome is unknown', async () => {
    // Prepare
    sandbox.injectFault({ kind: 'timeout', path: 'messages' });

    // Act
    const error = await failure(client({ timeoutMs: 150 }).sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hi')));

    // Assess
    expect(error.outcome).toBe('unknown');
    expect(error.message).toContain('150 ms');
    expect(graphRequests(sandbox, 'messages')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('treats a success without a message id as unknown', async () => {
    // Prepare
    sandbox.injectFault({ kind: 'malformed', path: 'messages' });

    // Act
    const error = await failure(client().sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hi')));

    // Assess
    expect(error).toMatchObject({ outcome: 'unknown', httpStatus: 200 });
    expect(graphRequests(sandbox, 'messages')).toBe(1);
  });

  it('carries code, message and details of a Meta refusal', async () => {
    // Prepare
    sandbox.injectFault({ kind: 'meta_error', code: 131026, path: 'messages' });

    // Act
    const error = await failure(client().sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(TO, 'Hi')));

    // Assess
    expect(error).toMatchObject({ outcome: 'rejected', metaCode: 131026, httpStatus: 400, message: '(#131026) Message undeliverable' });
  });

  it('retries reads on 5xx and timeouts', async () => {
    // Prepare
    sandbox.injectFault({ kind: '5xx', path: 'templates' });
    sandbox.injectFault({ kind: 'timeout', path: 'templates' });

    // Act
    const templates = await client({ timeoutMs: 150 }).listTemplates(NUMBER_A.wabaId, NUMBER_A.accessToken);

    // Assess
    expect(templates).toHaveLength(4);
    expect(graphRequests(sandbox, 'message_templates')).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('retries reads on 429 and connection refusal, and reports how the last attempt failed', async () => {
    // Prepare
    sandbox.injectFault({ kind: '429', retryAfterSeconds: 0, path: 'templates' });
    sandbox.injectFault({ kind: '5xx', count: 2, path: 'templates' });
    const refused = client({ baseUrl: `${await closedPortUrl()}/v21.0` });

    // Act
    const serverError = await failure(client().listTemplates(NUMBER_A.wabaId, NUMBER_A.accessToken));
    const notReached = await failure(refused.listTemplates(NUMBER_A.wabaId, NUMBER_A.accessToken));

    // Assess
    expect(serverError).toMatchObject({ outcome: 'unknown', httpStatus: 500, operation: 'list_templates' });
    expect(graphRequests(sandbox, 'message_templates')).toBe(3);
    expect(notReached).toMatchObject({ outcome: 'not_sent', operation: 'list_templates' });
  });
});
