import { describe, expect, it } from 'vitest';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { handler as manageLabel } from '../../functions/labels-manage';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { serializeQuery } from '../../client';
import { callApi } from '../support/api';
import { newRecipient, sentBodies, type ChatNetwork, type ChatTenant, useChatTenant } from '../support/chat';

/**
 * List values that contain commas, sent by GET the way the project's typed client
 * (client/index.ts) sends them: they must arrive as the values given, as by POST.
 */

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

/** The query the typed client builds for these parameters, as API Gateway hands it over. */
const clientQuery = (params: Record<string, unknown>) => Object.fromEntries(new URLSearchParams(serializeQuery(params)));

describe('list values with commas, by GET from the typed client', () => {
  it('sends template variables containing commas as one variable each', async () => {
    // Prepare
    const to = newRecipient();
    // Act
    const response = await callApi(sendTemplate, {
      apiKey: tenant.adminKey,
      method: 'GET',
      query: clientQuery({ to, templateName: 'order_update', variables: ['Smith, Jr.', 'A-1, A-2'] }),
    });
    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const sent = sentBodies(network, tenant.channels[0]).filter((body) => (body as { to: string }).to === to) as Array<Record<string, any>>;
    expect(sent[0].template.components[0].parameters.map((p: { text: string }) => p.text)).toEqual(['Smith, Jr.', 'A-1, A-2']);
  });

  it('keeps label names and dropdown options containing commas whole', async () => {
    // Prepare
    await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'Smith, Jr.' } });
    // Act
    const field = await callApi(manageField, {
      apiKey: tenant.adminKey,
      method: 'GET',
      query: clientQuery({ name: 'size', type: 'dropdown', options: ['S, M', 'L'] }),
    });
    const contact = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      method: 'GET',
      query: clientQuery({ phoneNumber: newRecipient(), labelNames: ['Smith, Jr.'], customFieldsData: { size: 'S, M' } }),
    });
    // Assess
    expect(field.status, JSON.stringify(field.body)).toBe(200);
    expect(field.body.data.options).toEqual(['S, M', 'L']);
    expect(contact.status, JSON.stringify(contact.body)).toBe(200);
    expect(contact.body.data.labels.map((label: { name: string }) => label.name)).toEqual(['Smith, Jr.']);
    expect(contact.body.data.customFields).toEqual({ size: 'S, M' });
  });

  it('still reads a plain comma-separated string as a list, and a JSON array string written by hand', async () => {
    // Prepare
    const [a, b] = [newRecipient(), newRecipient()];
    // Act
    const commas = await callApi(sendTemplate, {
      apiKey: tenant.adminKey,
      method: 'GET',
      query: { to: a, templateName: 'order_update', variables: 'Ann,A-1' },
    });
    const json = await callApi(sendTemplate, {
      apiKey: tenant.adminKey,
      method: 'GET',
      query: { to: b, templateName: 'order_update', variables: '["Ann, Lee","A-1"]' },
    });
    // Assess
    expect([commas.status, json.status]).toEqual([200, 200]);
    const params = (to: string) =>
      (sentBodies(network, tenant.channels[0]).find((body) => (body as { to: string }).to === to) as Record<string, any>).template.components[0].parameters.map(
        (p: { text: string }) => p.text,
      );
    expect(params(a)).toEqual(['Ann', 'A-1']);
    expect(params(b)).toEqual(['Ann, Lee', 'A-1']);
  });
});
