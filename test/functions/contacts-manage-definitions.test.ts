import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { countDbCalls, type DbCall } from '../../bench/counter';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { handler as manageLabel } from '../../functions/labels-manage';
import { clock } from '../../shared/clock';
import { db } from '../../shared/data/client';
import { callApi, type ApiResponse, type CallOptions, type Handler } from '../support/api';
import { createTenant, type TestTenant } from '../support/tenants';

/**
 * contacts/manage reads the channel's definitions (labels and custom fields) only when
 * the request needs them, from a per-container cache that is re-read before anything
 * is refused (docs/ARCHITECTURE.md, "DynamoDB calls per request"). The DynamoDB calls
 * of the handler itself are counted (the authorizer's are not).
 */

const counter = countDbCalls(db);
afterAll(() => counter.remove());
afterEach(() => clock.reset());

/** Calls contacts/manage and returns the response with the DynamoDB calls the handler made. */
async function countedManage(options: CallOptions): Promise<ApiResponse & { calls: DbCall[] }> {
  const counted: Handler = async (event, context) => {
    counter.start();
    try {
      return await manageContact(event, context);
    } finally {
      counter.stop();
    }
  };
  const response = await callApi(counted, options);
  return { ...response, calls: [...counter.calls] };
}

const definitionReads = (calls: DbCall[]) => calls.filter((call) => call.target?.startsWith('DEF#'));
const writes = (calls: DbCall[]) => calls.filter((call) => !['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand'].includes(call.command));

async function withDefinitions(tenant: TestTenant) {
  await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'VIP', color: '#AA0000' } });
  await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'city' } });
}

describe('contacts/manage definitions reads', () => {
  it('reads no definitions on an update that names no labels and no custom fields, cache or not', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', name: 'Ann' } });
    clock.shift(60_000); // far past any cached definitions
    // Act
    const update = await countedManage({ apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', email: 'ann@example.com' } });
    // Assess
    expect(update.status).toBe(200);
    expect(update.body.data).toMatchObject({ name: 'Ann', email: 'ann@example.com', created: false, labels: [] });
    expect(definitionReads(update.calls)).toEqual([]);
    expect(update.calls.map((call) => call.command)).toEqual(['UpdateItemCommand', 'UpdateItemCommand']); // limiter, contact
  });

  it('shows a labelled contact’s labels on a plain update from the warm container’s definitions, without a read', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', name: 'Ann', labelNames: ['vip'] } });
    // Act
    const update = await countedManage({ apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', email: 'ann@example.com' } });
    // Assess
    expect(update.status).toBe(200);
    expect(update.body.data.labels).toEqual([{ id: expect.stringMatching(/^lb_/), name: 'VIP', color: '#AA0000' }]);
    expect(definitionReads(update.calls)).toEqual([]);
  });

  it('validates labels and fields against the warm container’s definitions without a read', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', name: 'Ann' } });
    // Act
    const update = await countedManage({
      apiKey: tenant.adminKey,
      params: { phoneNumber: '+14155550100', labelNames: ['VIP'], customFieldsData: { city: 'Lyon' } },
    });
    // Assess
    expect(update.status).toBe(200);
    expect(update.body.data).toMatchObject({ customFields: { city: 'Lyon' }, labels: [{ name: 'VIP' }] });
    expect(definitionReads(update.calls)).toEqual([]);
  });

  it('accepts a label and a field created through their manage endpoints a moment ago, although definitions are cached', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    await callApi(manageContact, {
      apiKey: tenant.adminKey,
      params: { phoneNumber: '+14155550100', labelNames: ['VIP'], customFieldsData: { city: 'Paris' } },
    });
    const warm = await countedManage({ apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', labelNames: ['VIP'] } });
    await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'Gold', color: '#FFD700' } });
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'tier', type: 'dropdown', options: ['gold', 'silver'] } });
    // Act
    const update = await countedManage({
      apiKey: tenant.adminKey,
      params: { phoneNumber: '+14155550100', labelNames: ['VIP', 'gold'], customFieldsData: { tier: 'GOLD' } },
    });
    // Assess
    expect(definitionReads(warm.calls)).toEqual([]); // the cache was warm before the label and field were created
    expect(update.status).toBe(200);
    expect(update.body.data.labels.map((label: { name: string }) => label.name)).toEqual(['VIP', 'Gold']);
    expect(update.body.data.customFields).toEqual({ city: 'Paris', tier: 'gold' });
    expect(definitionReads(update.calls)).toHaveLength(1); // re-read once, before refusing
  });

  it('accepts a value that the cached definition of a field refuses once the field’s type has changed', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'age', type: 'number' } });
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', customFieldsData: { age: 30 } } });
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'age', type: 'text' } });
    // Act
    const update = await countedManage({ apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', customFieldsData: { age: 'thirty' } } });
    // Assess
    expect(update.status).toBe(200);
    expect(update.body.data.customFields).toEqual({ age: 'thirty' });
    expect(definitionReads(update.calls)).toHaveLength(1);
  });

  it('refuses an unknown label with a 400 naming it and writes nothing, after re-reading cached definitions', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', name: 'Ann', labelNames: ['VIP'] } });
    // Act
    const update = await countedManage({ apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', name: 'Renamed', labelNames: ['VIP', 'Nope'] } });
    const create = await countedManage({ apiKey: tenant.adminKey, params: { phoneNumber: '+14155550199', name: 'New', labelNames: 'Nope' } });
    const listed = await callApi(listContacts, { apiKey: tenant.adminKey });
    // Assess
    for (const refused of [update, create]) {
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('Nope');
      expect(refused.body.details).toMatchObject({ parameter: 'labelNames', unknown: ['Nope'] });
      expect(definitionReads(refused.calls)).toHaveLength(1);
      expect(writes(refused.calls)).toHaveLength(1); // the rate limiter's count only
    }
    expect(listed.body.pagination.total).toBe(1);
    expect(listed.body.data[0]).toMatchObject({ name: 'Ann', labels: [{ name: 'VIP' }] });
  });

  it('creates with the current definitions, never the cached ones: values and required fields', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'age' } });
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', customFieldsData: { age: '30' } } });
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'age', type: 'number' } });
    // Act
    const created = await countedManage({ apiKey: tenant.adminKey, params: { phoneNumber: '+14155550101', customFieldsData: { age: '31' } } });
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'region', isRequired: true } });
    const missing = await countedManage({ apiKey: tenant.adminKey, params: { phoneNumber: '+14155550102', customFieldsData: { age: '32' } } });
    const listed = await callApi(listContacts, { apiKey: tenant.adminKey });
    // Assess
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ created: true, customFields: { age: 31 } });
    expect(created.calls).toHaveLength(8); // limiter, failed update, definitions, Put, index entry, id pointer, pending claim, count
    expect(missing.status).toBe(400);
    expect(missing.body.details).toMatchObject({ parameter: 'customFieldsData', missing: ['region'] });
    expect(listed.body.data.map((contact: { phone: string }) => contact.phone)).toEqual(['14155550100', '14155550101']);
  });
});
