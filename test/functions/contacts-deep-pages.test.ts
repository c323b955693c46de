import { afterAll, describe, expect, it } from 'vitest';
import { countDbCalls } from '../../bench/counter';
import { handler as deleteContact } from '../../functions/contacts-delete';
import { handler as importContacts } from '../../functions/contacts-import';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { db } from '../../shared/data/client';
import { ContactHeadItem, RECENT_PHONES_MAX } from '../../shared/data/contact-head';
import { getItem } from '../../shared/data/client';
import { keys } from '../../shared/data/keys';
import { callApi, type Handler } from '../support/api';
import { createTenant, type TestTenant } from '../support/tenants';

/**
 * Deep pages come from the channel's phone order kept per warm container while the
 * head's count and phones version are unchanged (shared/domain/contact-index-select.ts):
 * every way the set of phones changes must show on the next deep page.
 */

const counter = countDbCalls(db);
afterAll(() => counter.remove());

/** A deep page and the table calls the handler made for it (the limiter's included). */
async function countedPage(tenant: TestTenant, page: number) {
  const counted: Handler = async (event, context) => {
    counter.start();
    try {
      return await listContacts(event, context);
    } finally {
      counter.stop();
    }
  };
  const response = await callApi(counted, { apiKey: tenant.adminKey, params: { page, limit: 3 } });
  return { phones: response.body.data.map((contact: { phone: string }) => contact.phone), total: response.body.pagination.total, calls: [...counter.calls] };
}

const create = (tenant: TestTenant, phone: string) => callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: phone, name: `New ${phone}` } });

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

  it('bring a kept order up to date from the head after single creates (the head and the page, no index read), and read the index after an erasure', async () => {
    // Prepare: 9 contacts, page 2 read once (the order is kept)
    const tenant = await createTenant(1);
    for (let i = 0; i < 9; i++) await create(tenant, `+1415555${2000 + i * 10}`);
    await phones(tenant, 2);
    // Act: two creates that sort before the page, a deep page; an erasure in the page, a deep page
    await create(tenant, '+14155551000');
    await create(tenant, '+14155551001');
    const afterCreates = await countedPage(tenant, 2);
    await callApi(deleteContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155552020' } });
    const afterErasure = await countedPage(tenant, 2);
    // Assess
    expect(afterCreates.phones).toEqual(['14155552010', '14155552020', '14155552030']);
    expect(afterCreates.total).toBe(11);
    expect(afterCreates.calls.map((call) => `${call.command} ${call.target ?? ''}`.trim())).toEqual([
      'UpdateItemCommand api_read', // the limiter
      'GetItemCommand CONTACT', // the head (sk CONTACT#)
      'BatchGetItemCommand',
    ]);
    expect(afterErasure.phones).toEqual(['14155552010', '14155552030', '14155552040']);
    expect(afterErasure.total).toBe(10);
    expect(afterErasure.calls.some((call) => call.target === 'CIDX#')).toBe(true);
  });

  it('read the index again when the order is older than the head keeps, and stay exact', async () => {
    // Prepare: the order kept, then more single creates than the head's log keeps
    const tenant = await createTenant(1);
    await create(tenant, '+14155559999');
    await phones(tenant, 2);
    for (let i = 0; i <= RECENT_PHONES_MAX; i++) await create(tenant, `+1415556${String(1000 + i)}`);
    const head = await getItem(keys.contactHead({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }), ContactHeadItem);
    // Act
    const page = await countedPage(tenant, 2);
    const again = await countedPage(tenant, 2);
    // Assess
    expect(head?.recentPhones.length).toBeLessThanOrEqual(RECENT_PHONES_MAX);
    expect(page.phones).toEqual(['14155561002', '14155561003', '14155561004']);
    expect(page.total).toBe(RECENT_PHONES_MAX + 2);
    expect(page.calls.some((call) => call.target === 'CIDX#')).toBe(true);
    expect(again.calls.some((call) => call.target === 'CIDX#')).toBe(false);
  });
});
