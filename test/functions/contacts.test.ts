import { describe, expect, it } from 'vitest';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { handler as manageLabel } from '../../functions/labels-manage';
import { callApi } from '../support/api';
import { createTenant, type TestTenant } from '../support/tenants';

async function withDefinitions(tenant: TestTenant) {
  await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'VIP', color: '#AA0000' } });
  await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'new' } });
  await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'city' } });
  await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'age', type: 'number' } });
  await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'tier', type: 'dropdown', options: ['gold', 'silver'] } });
}

describe('contacts/manage', () => {
  it('creates a contact with every field, then updates it by the same number in another notation', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    // Act
    const created = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      params: {
        phoneNumber: '+1 (415) 555-0100',
        name: 'Ann',
        email: 'Ann@Example.com',
        profilePictureUrl: 'https://example.com/a.png',
        customFieldsData: { city: 'Paris', age: 30 },
        labelNames: ['vip'],
      },
    });
    const updated = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      method: 'GET',
      params: { phoneNumber: '14155550100', customFieldsData: 'tier:GOLD', labelNames: 'new' },
    });
    // Assess
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      phone: '14155550100',
      name: 'Ann',
      email: 'ann@example.com',
      created: true,
      customFields: { city: 'Paris', age: 30 },
      status: 'active',
    });
    expect(created.body.data.labels).toEqual([{ id: expect.stringMatching(/^lb_/), name: 'VIP', color: '#AA0000' }]);
    expect(updated.body.data).toMatchObject({ id: created.body.data.id, created: false, name: 'Ann', customFields: { city: 'Paris', age: 30, tier: 'gold' } });
    expect(updated.body.data.labels.map((l: { name: string }) => l.name)).toEqual(['new']);
  });

  it('refuses unknown labels and custom fields, naming them, and writes nothing', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    // Act
    const badLabel = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550111', labelNames: 'VIP,Nope' } });
    const badField = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550111', customFieldsData: { shoe: 42 } } });
    const badValue = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      params: { phoneNumber: '+14155550111', customFieldsData: { age: 'old', tier: 'bronze' } },
    });
    const listed = await callApi(listContacts, { apiKey: tenant.adminKey });
    // Assess
    expect(badLabel.status).toBe(400);
    expect(badLabel.body.message).toContain('Nope');
    expect(badLabel.body.details).toMatchObject({ parameter: 'labelNames', unknown: ['Nope'] });
    expect(badField.body.details).toMatchObject({ parameter: 'customFieldsData', unknown: ['shoe'] });
    expect(badValue.body.message).toContain('age');
    expect(badValue.body.message).toContain('tier');
    expect(listed.body.pagination.total).toBe(0);
  });

  it('enforces required custom fields only when it creates the contact', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+442079460958', name: 'Existing' } });
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'region', isRequired: true } });
    // Act
    const missing = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+442079460959' } });
    const update = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+442079460958', name: 'Renamed' } });
    const given = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+442079460959', customFieldsData: 'region:EU' } });
    // Assess
    expect(missing.status).toBe(400);
    expect(missing.body.details).toMatchObject({ missing: ['region'] });
    expect(update.body.data).toMatchObject({ name: 'Renamed', created: false });
    expect(given.body.data).toMatchObject({ created: true, customFields: { region: 'EU' } });
  });

  it.each([
    [{}, 'phoneNumber', 'missing_parameter'],
    [{ phoneNumber: '4155550100' }, 'phoneNumber', 'invalid_parameter'],
    [{ phoneNumber: 'abc' }, 'phoneNumber', 'invalid_parameter'],
    [{ phoneNumber: '+14155550100', email: 'not-an-email' }, 'email', 'invalid_parameter'],
    [{ phoneNumber: '+14155550100', profilePictureUrl: 'ftp://x/y.png' }, 'profilePictureUrl', 'invalid_parameter'],
    [{ phoneNumber: '+14155550100', customFieldsData: 'nocolon' }, 'customFieldsData', 'invalid_parameter'],
    [{ phoneNumber: '+14155550100', labelNames: 7 }, 'labelNames', 'invalid_parameter'],
    [{ phoneNumber: '+14155550100', name: 'a\u0000b' }, 'name', 'invalid_parameter'],
  ])('refuses %j with a 400 naming %s', async (params, parameter, error) => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const response = await callApi(manageContact, { apiKey: tenant.adminKey, params });
    const listed = await callApi(listContacts, { apiKey: tenant.adminKey });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error, details: { parameter } });
    expect(listed.body.pagination.total).toBe(0);
  });
});

describe('contacts/list', () => {
  async function seedContacts(tenant: TestTenant, count: number) {
    for (let i = 0; i < count; i++) {
      await callApi(manageContact, {
        apiKey: tenant.adminKey,
        params: { phoneNumber: `+1415555${String(1000 + i)}`, name: i % 2 ? `Odd Person ${i}` : `Even Person ${i}` },
      });
    }
  }

  it('pages in phone order with total and pages from the maintained count', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await seedContacts(tenant, 7);
    // Act
    const page1 = await callApi(listContacts, { apiKey: tenant.adminKey, method: 'GET', params: { limit: '3' } });
    const page3 = await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 3, page: 3 } });
    const page4 = await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 3, page: 4 } });
    // Assess
    expect(page1.body.pagination).toEqual({ page: 1, limit: 3, total: 7, pages: 3, nextCursor: expect.any(String) });
    expect(page1.body.data.map((c: { phone: string }) => c.phone)).toEqual(['14155551000', '14155551001', '14155551002']);
    expect(page3.body.data.map((c: { phone: string }) => c.phone)).toEqual(['14155551006']);
    expect(page3.body.pagination).toEqual({ page: 3, limit: 3, total: 7, pages: 3, nextCursor: null });
    expect(page4.body.data).toEqual([]);
    expect(Object.keys(page1.body.data[0]).sort()).toEqual(['customFields', 'email', 'id', 'labels', 'name', 'phone', 'status']);
    expect(page1.body.data[0].email).toBeNull();
  });

  it('searches names case-insensitively and phone digits ignoring + and spaces', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await seedContacts(tenant, 6);
    // Act
    const byName = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'ODD' } });
    const byPhone = await callApi(listContacts, { apiKey: tenant.adminKey, method: 'GET', params: { search: '+1 415 555 1004' } });
    const none = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'zzz' } });
    // Assess
    expect(byName.body.data.map((c: { name: string }) => c.name)).toEqual(['Odd Person 1', 'Odd Person 3', 'Odd Person 5']);
    expect(byName.body.pagination.total).toBe(3);
    expect(byPhone.body.data.map((c: { phone: string }) => c.phone)).toEqual(['14155551004']);
    expect(none.body.pagination).toEqual({ page: 1, limit: 50, total: 0, pages: 0, nextCursor: null });
  });

  it('continues after a page by its nextCursor, which holds only for its own filters and as signed', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await seedContacts(tenant, 5);
    const odd = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'odd', limit: 1 } });
    const all = await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 2 } });
    const [payload, signature] = all.body.pagination.nextCursor.split('.');
    const tampered = `${Buffer.from(Buffer.from(payload, 'base64url').toString().replace('"2"', '"0"')).toString('base64url')}.${signature}`;
    // Act
    const oddNext = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'odd', limit: 1, cursor: odd.body.pagination.nextCursor } });
    const allNext = await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 2, cursor: all.body.pagination.nextCursor } });
    const refused = [
      await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'even', limit: 1, cursor: odd.body.pagination.nextCursor } }),
      await callApi(listContacts, { apiKey: tenant.adminKey, params: { status: 'active', limit: 2, cursor: all.body.pagination.nextCursor } }),
      await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 2, cursor: tampered } }),
    ];
    // Assess
    expect(oddNext.body.data.map((c: { name: string }) => c.name)).toEqual(['Odd Person 3']);
    expect(oddNext.body.pagination).toMatchObject({ page: 2, total: 2, nextCursor: null });
    expect(allNext.body.data.map((c: { phone: string }) => c.phone)).toEqual(['14155551002', '14155551003']);
    for (const response of refused)
      expect([response.status, response.body.error, response.body.details?.parameter]).toEqual([400, 'invalid_parameter', 'cursor']);
  });

  it('clamps a limit above 200 and refuses limits and pages below 1 or not integers', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const clamped = await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 5000 } });
    const zero = await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 0 } });
    const fraction = await callApi(listContacts, { apiKey: tenant.adminKey, method: 'GET', params: { page: '1.5' } });
    const negative = await callApi(listContacts, { apiKey: tenant.adminKey, params: { page: -1 } });
    // Assess
    expect(clamped.body.pagination.limit).toBe(200);
    expect(zero.status).toBe(400);
    expect(zero.body.details.parameter).toBe('limit');
    expect(fraction.body.details.parameter).toBe('page');
    expect(negative.body.details.parameter).toBe('page');
  });

  it('shows label renames on the next list (definitions cache follows the version)', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'VIP', color: '#000000' } });
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', labelNames: ['VIP'] } });
    await callApi(listContacts, { apiKey: tenant.adminKey });
    // Act
    await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'vip', color: '#FFFFFF' } });
    const listed = await callApi(listContacts, { apiKey: tenant.adminKey });
    // Assess
    expect(listed.body.data[0].labels[0].color).toBe('#FFFFFF');
  });
});
