import { describe, expect, it } from 'vitest';
import { handler as manageCustomField } from '../../functions/custom-fields-manage';
import { handler as importContacts } from '../../functions/contacts-import';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as manageLabel } from '../../functions/labels-manage';
import { LIMITS } from '../../shared/schema/params';
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

/** Lambda refuses a function's answer over 6 MB (the proxy result, body escaped into it). */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
const MAXIMAL_CONTACTS = 40;

/**
 * A value of `length` characters that grows the most on its way out: a `"` is 1 byte
 * stored, 2 in the JSON body and 4 once the body is a string in Lambda's proxy result.
 */
const swelling = (seed: string, length: number) => seed.padEnd(length, '"');

/** Every page of one listing, page 1 then `pagination.nextCursor` until it is null. */
async function everyPage(apiKey: string, filter: Record<string, string>) {
  const pages = [];
  let params: Record<string, unknown> = { ...filter, page: 1, limit: 200 };
  for (;;) {
    const response = await callApi(listContacts, { apiKey, params });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    expect(response.payloadBytes).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    pages.push(response);
    expect(response.body.pagination).toHaveProperty('nextCursor');
    const next = response.body.pagination.nextCursor;
    if (next === null) return pages;
    expect(pages.length).toBeLessThan(MAXIMAL_CONTACTS);
    params = { ...filter, limit: 200, cursor: next };
  }
}

describe('contacts/list with contacts holding every field at its maximum', () => {
  it('answers every page under Lambda’s 6 MB and reaches every contact exactly once by nextCursor, with and without a search', async () => {
    // Prepare: 50 labels and 50 text fields with the longest names; each contact carries all of them at their longest.
    const tenant = await createTenant(1);
    const labelNames = Array.from({ length: LIMITS.listEntries }, (_, i) => `${i}`.padEnd(LIMITS.name, 'l'));
    for (const name of labelNames) expect((await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name } })).status).toBe(200);
    const fieldNames = Array.from({ length: LIMITS.customFields }, (_, i) => `f${i}`);
    for (const name of fieldNames) expect((await callApi(manageCustomField, { apiKey: tenant.adminKey, params: { name, type: 'text' } })).status).toBe(200);
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(email).toHaveLength(LIMITS.email);
    const phones = Array.from({ length: MAXIMAL_CONTACTS }, (_, i) => `1415555${String(1000 + i)}`);
    for (const [n, phone] of phones.entries()) {
      // Two calls: one request body (64 KB) does not carry 50 values of 1,000 escaped quotes.
      for (const half of [fieldNames.slice(0, 25), fieldNames.slice(25)]) {
        const params = {
          phoneNumber: phone,
          name: swelling(`contact ${n} `, LIMITS.name),
          email,
          profilePictureUrl: `https://example.com/${'p'.repeat(LIMITS.url - 20)}`,
          labelNames,
          customFieldsData: Object.fromEntries(half.map((name) => [name, swelling(`${n}:${name}:`, LIMITS.customFieldValue)])),
        };
        const written = await callApi(manageContact, { apiKey: tenant.adminKey, params });
        expect(written.status, JSON.stringify(written.body).slice(0, 300)).toBe(200);
      }
    }
    // Act
    const listings = [
      await everyPage(tenant.adminKey, {}),
      await everyPage(tenant.adminKey, { search: '1415555' }),
      await everyPage(tenant.adminKey, { status: 'active' }),
    ];
    // Assess
    for (const pages of listings) {
      // More than one page although one page of 200 would hold them all: the byte bound cut them.
      expect(pages.length).toBeGreaterThan(1);
      const seen = pages.flatMap((page) => page.body.data.map((contact: { phone: string }) => contact.phone));
      expect(seen).toEqual(phones);
      expect(pages[0].body.pagination).toMatchObject({ total: MAXIMAL_CONTACTS, limit: 200 });
    }
    const last = listings[0].at(-1)!.body.data.at(-1);
    expect(last.customFields.f49).toBe(swelling(`${MAXIMAL_CONTACTS - 1}:f49:`, LIMITS.customFieldValue));
    expect(last.labels).toHaveLength(LIMITS.listEntries);
  }, 300_000);
});
