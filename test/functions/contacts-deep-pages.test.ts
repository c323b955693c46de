import { describe, expect, it } from 'vitest';
import { handler as importContacts } from '../../functions/contacts-import';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { callApi } from '../support/api';
import { createTenant, type TestTenant } from '../support/tenants';

/**
 * Deep pages come from the channel's phone order kept per warm container while the
 * head's count and phones version are unchanged (shared/domain/contact-index-select.ts):
 * every way the set of phones changes must show on the next deep page.
 */

const phones = async (tenant: TestTenant, page: number) =>
  (await callApi(listContacts, { apiKey: tenant.adminKey, params: { page, limit: 3 } })).body.data.map((contact: { phone: string }) => contact.phone);

describe('contacts/list deep pages from the kept phone order', () => {
  it('show a contact created by contacts/manage or contacts/import on the next deep page, and keep renamed contacts in place', async () => {
    // Prepare: 9 contacts, page 2 read once (the order is kept)
    const tenant = await createTenant(1);
    for (let i = 0; i < 9; i++)
      await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: `+1415555${2000 + i * 10}`, name: `Deep ${i}` } });
    const before = await phones(tenant, 2);
    // Act
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155551000', name: 'Sorts first' } });
    const afterCreate = await phones(tenant, 2);
    await callApi(importContacts, { apiKey: tenant.adminKey, params: { contacts: [{ phoneNumber: '+14155550900' }, { phoneNumber: '+14155550901' }] } });
    const afterImport = await phones(tenant, 2);
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155552000', name: 'Renamed' } });
    const afterRename = await callApi(listContacts, { apiKey: tenant.adminKey, params: { page: 4, limit: 3 } });
    // Assess
    expect(before).toEqual(['14155552030', '14155552040', '14155552050']);
    expect(afterCreate).toEqual(['14155552020', '14155552030', '14155552040']);
    expect(afterImport).toEqual(['14155552000', '14155552010', '14155552020']);
    expect(afterRename.body.data.map((contact: { phone: string }) => contact.phone)).toEqual(['14155552060', '14155552070', '14155552080']);
    expect(afterRename.body.pagination.total).toBe(12);
  });
});
