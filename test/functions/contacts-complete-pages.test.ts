import { describe, expect, it } from 'vitest';
import { handler as manageCustomField } from '../../functions/custom-fields-manage';
import { handler as importContacts } from '../../functions/contacts-import';
import { handler as listContacts } from '../../functions/contacts-list';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

/**
 * Page 1 of contacts/list is one Query of the channel's contacts; DynamoDB ends a Query
 * page at 1 MB whatever its Limit, so with large contacts the first page must follow
 * LastEvaluatedKey until it is full, or the contacts between the short page's end and
 * page 2's offset appear on no page at all (issue 24 #5).
 */

const FIELDS = 20;
const CONTACTS = 240;
/**
 * 900 ASCII characters: each contact holds ≈ 18 KB of text in 21 fields, so about 57 fill
 * a 1 MB query page. ASCII because dynalite measures its 1 MB in UTF-16 units where
 * DynamoDB counts UTF-8 bytes: for ASCII the two agree.
 */
const bigText = (seed: number) => `${seed}`.padEnd(900, 'x');

describe('contacts/list with maximal contacts', () => {
  it('reaches every contact exactly once across pages, page 1 beyond DynamoDB’s 1 MB query page included', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const fieldNames = Array.from({ length: FIELDS }, (_, i) => `notes${i}`);
    for (const name of fieldNames) {
      const field = await callApi(manageCustomField, { apiKey: tenant.adminKey, params: { name, type: 'text' } });
      expect(field.status, JSON.stringify(field.body)).toBe(200);
    }
    const phones = Array.from({ length: CONTACTS }, (_, i) => `1415555${String(1000 + i)}`);
    for (let start = 0; start < CONTACTS; start += 40) {
      const rows = phones.slice(start, start + 40).map((phone, i) => ({
        phoneNumber: `+${phone}`,
        name: bigText(start + i).slice(0, 100),
        customFieldsData: Object.fromEntries(fieldNames.map((name, f) => [name, bigText(f)])),
      }));
      const imported = await callApi(importContacts, { apiKey: tenant.adminKey, params: { contacts: rows } });
      expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(200);
    }
    // Act
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const response = await callApi(listContacts, { apiKey: tenant.adminKey, params: { page, limit: 100 } });
      expect(response.status).toBe(200);
      pages.push(response.body);
    }
    // Assess
    const seen = pages.flatMap((body) => body.data.map((contact: { phone: string }) => contact.phone));
    expect(pages.map((body) => body.data.length)).toEqual([100, 100, 40]);
    expect(pages[0].pagination).toMatchObject({ total: CONTACTS, pages: 3 });
    expect([...seen].sort()).toEqual(phones);
    expect(pages[0].data[0].customFields.notes19).toBe(bigText(19));
  });
});
