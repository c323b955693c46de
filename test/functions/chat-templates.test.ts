import { describe, expect, it } from 'vitest';
import { handler as listTemplates } from '../../functions/chat-templates-list';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { syncTemplates } from '../../shared/domain/templates';
import { putTemplate } from '../../shared/data/templates';
import { getChatmidRecord, getMessage } from '../../shared/data/messages';
import { getContact } from '../../shared/data/contacts';
import { callApi } from '../support/api';
import { createChatTenant, newRecipient, sendRequests, sentBodies, type ChatNetwork, type ChatTenant, useChatTenant } from '../support/chat';
import { createTeamKey } from '../support/tenants';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

const send = (params: Record<string, unknown>, method: 'GET' | 'POST' = 'POST') => callApi(sendTemplate, { apiKey: tenant.adminKey, method, params });

/** Stores, as a sync would, an APPROVED template of the test channel with a one-variable TEXT header and no body variables; the sandbox chat network does not know it. */
const putTextHeaderTemplate = (graphId: string, name: string) =>
  putTemplate(
    { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] },
    {
      graphId,
      name,
      language: 'en',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
        { type: 'BODY', text: 'Welcome' },
      ],
      bodyVariables: 0,
      header: { format: 'TEXT', variables: 1 },
      syncedAt: new Date().toISOString(),
    },
  );

describe('template sync and chat/templates/list', () => {
  it('syncs every template whatever its status, and lists only the approved ones with their variable counts', async () => {
    // Prepare
    const fresh = await createChatTenant(network, 1, false);
    // Act
    const synced = await syncTemplates(fresh.channels[0]);
    const listed = await callApi(listTemplates, { apiKey: fresh.adminKey, method: 'GET' });
    // Assess
    expect(synced).toEqual({ channelId: fresh.channelIds[0], synced: 4 });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(['hello_world', 'order_update', 'promo_image']);
    const byName = Object.fromEntries(listed.body.data.map((t: { name: string }) => [t.name, t]));
    expect(byName.hello_world).toMatchObject({ language: 'en_US', category: 'UTILITY', status: 'APPROVED', bodyVariables: 0, header: null });
    expect(byName.order_update).toMatchObject({
      language: 'en',
      bodyVariables: 2,
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', variables: 2 }],
    });
    expect(byName.promo_image).toMatchObject({
      bodyVariables: 1,
      header: { format: 'IMAGE' },
      components: [
        { type: 'HEADER', format: 'IMAGE', variables: 1 },
        { type: 'BODY', variables: 1 },
      ],
    });
    expect(listed.body.message).toBe('Found 3 approved template(s)');
  });

  it('refuses a channel of another workspace with 403', async () => {
    // Prepare
    const other = await createChatTenant(network, 1, false);
    // Act
    const response = await callApi(listTemplates, { apiKey: tenant.adminKey, params: { channelId: other.channelIds[0] } });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('forbidden');
  });
});

describe('chat/templates/send', () => {
  it('sends hello_world by GET with the stored language and records the message before answering', async () => {
    // Prepare
    const to = newRecipient();
    // Act
    const response = await send({ to: `+${to}`, templateName: 'hello_world' }, 'GET');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      chatmid: expect.stringMatching(/^wamid\./),
      status: 'accepted',
      to,
      templateName: 'hello_world',
      languageCode: 'en_US',
      apiReference: null,
    });
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'template',
      template: { name: 'hello_world', language: { code: 'en_US' } },
    });
    const pointer = await getChatmidRecord(response.body.data.chatmid);
    expect(pointer).toMatchObject({
      workspaceId: tenant.workspaceId,
      channelId: tenant.channelIds[0],
      direction: 'outbound',
      type: 'template',
      status: expect.any(String),
    });
    const message = await getMessage({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, pointer!.messageId!);
    expect(message).toMatchObject({ sendState: 'accepted', phone: to, content: { templateName: 'hello_world', languageCode: 'en_US', bodyVariables: [] } });
  });

  it.each([
    ['variables, comma-separated (POST)', { variables: 'Ann, 123' }, 'POST'],
    ['variables as a JSON array', { variables: ['Ann', '123'] }, 'POST'],
    ['body1 and body2 (GET)', { body1: 'Ann', body2: '123' }, 'GET'],
    ['body1 and body2 as numbers', { body1: 'Ann', body2: 123 }, 'POST'],
  ] as const)('sends order_update with %s, in the Cloud API body format', async (_form, variables, method) => {
    // Prepare
    const to = newRecipient();
    // Act
    const response = await send({ to, templateName: 'order_update', ...variables }, method);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ to, templateName: 'order_update', languageCode: 'en' });
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ann' },
              { type: 'text', text: '123' },
            ],
          },
        ],
      },
    });
  });

  it.each([
    ['image', { image: 'https://example.com/p.jpg' }],
    ['mediaUrl with mediaType', { mediaUrl: 'https://example.com/p.jpg', mediaType: 'image' }],
    ['mediaUrl alone (type from the template)', { mediaUrl: 'https://example.com/p.jpg' }],
  ])('sends promo_image with its header media given as %s', async (_form, media) => {
    // Prepare
    const to = newRecipient();
    // Act
    const response = await send({ to, templateName: 'promo_image', languageCode: 'en', variables: 'Summer sale', ...media });
    // Assess
    expect(response.status).toBe(200);
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toMatchObject({
      type: 'template',
      template: {
        name: 'promo_image',
        language: { code: 'en' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/p.jpg' } }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Summer sale' }] },
        ],
      },
    });
  });

  it.each([
    ['an unknown name', { templateName: 'no_such_template' }, 404, 'not_found', 'templateName'],
    ['a template that is not approved', { templateName: 'draft_offer', variables: 'x' }, 404, 'not_found', 'templateName'],
    ['a language the template lacks', { templateName: 'hello_world', languageCode: 'de' }, 404, 'not_found', 'languageCode'],
    ['too few body variables', { templateName: 'order_update', variables: 'Ann' }, 400, 'invalid_parameter', 'variables'],
    ['too many body variables', { templateName: 'hello_world', variables: 'x' }, 400, 'invalid_parameter', 'variables'],
    ['a gap in bodyN', { templateName: 'order_update', body1: 'Ann', body3: '123' }, 400, 'invalid_parameter', 'body2'],
    ['too few bodyN', { templateName: 'order_update', body1: 'Ann' }, 400, 'invalid_parameter', 'body2'],
    ['variables and bodyN together', { templateName: 'order_update', variables: 'Ann,1', body1: 'Ann' }, 400, 'invalid_parameter', 'variables'],
    ['an empty variable', { templateName: 'order_update', variables: 'Ann,,1' }, 400, 'invalid_parameter', 'variables'],
    ['a missing header image', { templateName: 'promo_image', variables: 'x' }, 400, 'missing_parameter', 'image'],
    ['a header of the wrong kind', { templateName: 'promo_image', variables: 'x', video: 'https://example.com/v.mp4' }, 400, 'invalid_parameter', 'video'],
    [
      'a mediaType of the wrong kind',
      { templateName: 'promo_image', variables: 'x', mediaUrl: 'https://example.com/d.pdf', mediaType: 'document' },
      400,
      'invalid_parameter',
      'mediaType',
    ],
    [
      'two header media',
      { templateName: 'promo_image', variables: 'x', image: 'https://example.com/a.jpg', mediaUrl: 'https://example.com/b.jpg' },
      400,
      'invalid_parameter',
      'mediaUrl',
    ],
    ['a text header on a media template', { templateName: 'promo_image', variables: 'x', header: 'Hi' }, 400, 'invalid_parameter', 'header'],
    ['a header on a template without one', { templateName: 'hello_world', header: 'Hi' }, 400, 'invalid_parameter', 'header'],
    ['media on a template without a header', { templateName: 'hello_world', document: 'https://example.com/d.pdf' }, 400, 'invalid_parameter', 'document'],
    ['mediaType without mediaUrl', { templateName: 'promo_image', variables: 'x', mediaType: 'image' }, 400, 'missing_parameter', 'mediaUrl'],
    ['a non-http media link', { templateName: 'promo_image', variables: 'x', image: 'ftp://example.com/a.jpg' }, 400, 'invalid_parameter', 'image'],
    ['no recipient', { templateName: 'hello_world', to: undefined }, 400, 'missing_parameter', 'to'],
    ['no template name', { templateName: undefined }, 400, 'missing_parameter', 'templateName'],
    ['a bad language code', { templateName: 'hello_world', languageCode: 'english!' }, 400, 'invalid_parameter', 'languageCode'],
  ])('refuses %s before sending anything', async (_case, params, status, error, parameter) => {
    // Prepare
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const response = await send({ to: newRecipient(), ...params });
    // Assess
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ success: false, error, details: { parameter } });
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
  });

  it('says what the template expects when the variable count is wrong', async () => {
    // Act
    const response = await send({ to: newRecipient(), templateName: 'order_update', variables: 'Ann' });
    // Assess
    expect(response.body.message).toContain('order_update');
    expect(response.body.message).toContain('2 body variable(s)');
    expect(response.body.details).toMatchObject({ expectedBodyVariables: 2, given: 1 });
  });

  it('passes a text header variable, and maps the chat network refusing the template to 404 with a failed message record', async () => {
    // Prepare: a template stored with a text header that the chat network does not know
    await putTextHeaderTemplate('1', 'greeting_header');
    const missingHeader = await send({ to: newRecipient(), templateName: 'greeting_header' });
    // Act
    const response = await send({ to: newRecipient(), templateName: 'greeting_header', header: 'Ann' });
    // Assess
    expect(missingHeader.status).toBe(400);
    expect(missingHeader.body.details).toEqual({ parameter: 'header' });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: 'not_found', details: { parameter: 'templateName' } });
  });

  it.each([
    ['a newline', 'Line\nbreak'],
    ['a tab', 'Tab\there'],
    ['five consecutive spaces', 'five     spaces'],
  ])('refuses a variable or header with %s (the chat network would, error 132018) with a 400 naming it, before anything is written', async (_case, value) => {
    // Prepare
    await putTextHeaderTemplate('2', 'spaced_header');
    const to = newRecipient();
    const requestsBefore = sendRequests(network, tenant.channels[0]);
    // Act
    const variables = await send({ to, templateName: 'order_update', variables: [value, 'A-1'] });
    const bodyN = await send({ to, templateName: 'order_update', body1: 'Ann', body2: value }, 'GET');
    const header = await send({ to, templateName: 'spaced_header', header: value });
    // Assess
    expect([variables, bodyN, header].map((response) => [response.status, response.body.details?.parameter])).toEqual([
      [400, 'variables'],
      [400, 'body2'],
      [400, 'header'],
    ]);
    expect(variables.body.message).toMatch(/newline|tab|spaces/);
    expect(sendRequests(network, tenant.channels[0])).toBe(requestsBefore);
    expect(await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, to)).toBeUndefined();
  });

  it('lets a team key send only on its assigned channels', async () => {
    // Prepare
    const two = await createChatTenant(network, 2);
    const team = await createTeamKey({ ...two, channelIds: two.channelIds }, [two.channelIds[1]]);
    // Act
    const allowed = await callApi(sendTemplate, { apiKey: team.apiKey, params: { to: newRecipient(), templateName: 'hello_world' } });
    const refused = await callApi(sendTemplate, {
      apiKey: team.apiKey,
      params: { channelId: two.channelIds[0], to: newRecipient(), templateName: 'hello_world' },
    });
    // Assess
    expect(allowed.status).toBe(200);
    expect(sentBodies(network, two.channels[1])).toHaveLength(1);
    expect(refused.status).toBe(403);
    expect(sentBodies(network, two.channels[0])).toHaveLength(0);
  });
});
