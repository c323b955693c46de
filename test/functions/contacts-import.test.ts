import { describe, expect, it, vi } from 'vitest';
import { handler as messagesList } from '../../functions/chat-messages-list';
import { handler as deleteContact } from '../../functions/contacts-delete';
import { handler as importContacts } from '../../functions/contacts-import';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { handler as manageLabel } from '../../functions/labels-manage';
import { contactsRecount } from '../../scripts/admin/commands';
import { createImportedContact, putImportLedger } from '../../shared/data/contact-import';
import { MAX_IMPORT_ROWS } from '../../shared/domain/contact-import';
import { listStatusChanges } from '../../shared/data/contact-status';
import { getContact } from '../../shared/data/contacts';
import { listEventLog } from '../../shared/data/events';
import { clock } from '../../shared/clock';
import { callApi } from '../support/api';
import { injectFaults } from '../support/faults';
import { checkInvariants } from '../support/invariants';
import { workspaceItems } from '../support/table';
import { createTenant, type TestTenant } from '../support/tenants';

async function withDefinitions(tenant: TestTenant) {
  await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'VIP', color: '#AA0000' } });
  await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'city' } });
  await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'age', type: 'number' } });
}

const phoneOf = (i: number) => `+1415${String(2000000 + i).padStart(7, '0')}`;
const digitsOf = (i: number) => phoneOf(i).slice(1);

async function call(tenant: TestTenant, contacts: unknown, method: 'GET' | 'POST' = 'POST') {
  // A 1,000-row call takes ≈ 1 s against DynamoDB; this shared 2-core machine may be far slower, and a budget overrun is not what these tests are about.
  return callApi(importContacts, { apiKey: tenant.adminKey, method, params: { contacts }, remainingTimeMs: 120_000 });
}

async function total(tenant: TestTenant): Promise<number> {
  return (await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 1 } })).body.pagination.total;
}

async function expectExact(tenant: TestTenant, contacts: number) {
  const report = await checkInvariants({ workspaceId: tenant.workspaceId });
  expect(report.violations).toEqual([]);
  expect(report.contacts).toBe(contacts);
  expect(await total(tenant)).toBe(contacts);
}

/** `count` rows (a call's most by default): every tenth one bad, the ten ways in turn, the rest good (some with labels and fields). */
function mixedRows(count = MAX_IMPORT_ROWS) {
  const bad: Array<[unknown, string, string]> = [
    [{ phoneNumber: 'not a phone' }, 'invalid_parameter', 'phoneNumber'],
    [{ name: 'No Phone' }, 'missing_parameter', 'phoneNumber'],
    ['just a string', 'invalid_parameter', 'contacts'],
    [{ phoneNumber: '+14155550000', labelNames: ['Nope'] }, 'invalid_parameter', 'labelNames'],
    [{ phoneNumber: '+14155550001', customFieldsData: { age: 'old' } }, 'invalid_parameter', 'customFieldsData'],
    [{ phoneNumber: '+14155550002', customFieldsData: { shoe: 42 } }, 'invalid_parameter', 'customFieldsData'],
    [{ phoneNumber: '+14155550003', email: 'not-an-email' }, 'invalid_parameter', 'email'],
    [{ phoneNumber: '+14155550004', name: 'x'.repeat(101) }, 'invalid_parameter', 'name'],
    [{ phoneNumber: '+14155550005', name: 'bad\u0000control' }, 'invalid_parameter', 'name'],
    [null, 'invalid_parameter', 'contacts'],
  ];
  const rows: unknown[] = [];
  const expected: Array<{ index: number; error: string; parameter: string }> = [];
  for (let i = 0; i < count; i++) {
    if (i % 10 === 9) {
      const [row, error, parameter] = bad[((i / 10) % bad.length) | 0];
      rows.push(row);
      expected.push({ index: i, error, parameter });
    } else {
      rows.push({ phoneNumber: phoneOf(i), name: `Person ${i}`, ...(i % 3 === 0 ? { labelNames: ['vip'], customFieldsData: { city: 'Paris', age: i } } : {}) });
    }
  }
  return { rows, expected, good: count - expected.length };
}

describe('contacts/import', () => {
  it('applies 1,000 rows mixing good and bad: the good ones created, each bad one reported by index, counts and index exact', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    const { rows, expected, good } = mixedRows();
    // Act
    const response = await call(tenant, rows);
    // Assess
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
    expect(response.body.data).toMatchObject({ created: good, updated: 0, failed: expected.length });
    expect(response.body.data.errors.map((e: any) => ({ index: e.index, error: e.error, parameter: e.parameter }))).toEqual(expected);
    expect(response.body.data.errors.find((e: any) => e.index === 39)).toMatchObject({ phoneNumber: '14155550000', message: expect.stringContaining('Nope') });
    const stored = await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, digitsOf(3));
    expect(stored).toMatchObject({ name: 'Person 3', customFields: { city: 'Paris', age: 3 }, labelIds: [expect.stringMatching(/^lb_/)] });
    const searched = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'person 12' } });
    expect(searched.body.pagination.total).toBe(10); // 12 and 120–128 (129 is a bad row)
    await expectExact(tenant, good);
  });

  it('is idempotent: importing the same rows again creates nothing and keeps the counts exact', async () => {
    // Prepare: each of the ten bad kinds once, among 90 good rows
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    const { rows, expected, good } = mixedRows(100);
    const first = await call(tenant, rows);
    // Act
    const again = await call(tenant, rows);
    // Assess
    expect(first.body.data.created).toBe(good);
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: good, failed: expected.length });
    await expectExact(tenant, good);
  });

  it('counts a row that changes its contact as updated, and one that changes nothing (same fields, labels, status) as unchanged', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    const rows = [
      { phoneNumber: phoneOf(1), name: 'Ann', labelNames: ['VIP'], customFieldsData: { city: 'Paris' }, status: 'opted_out' },
      { phoneNumber: phoneOf(2), name: 'Bob' },
      { phoneNumber: phoneOf(3), name: 'Cy', email: 'cy@example.com' },
    ];
    const first = await call(tenant, rows);
    // Act: the same rows, in another spelling of the number, except a new name for Bob and Cy's opt-out
    const again = await call(tenant, [
      { ...rows[0], phoneNumber: digitsOf(1) },
      { ...rows[1], name: 'Robert' },
      { ...rows[2], status: 'opted_out' },
    ]);
    // Assess
    expect(first.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0, failed: 0 });
    expect(again.body.data).toMatchObject({ created: 0, updated: 2, unchanged: 1, failed: 0 });
  });

  it("collapses rows naming one number into one contact, each field's last value winning, the folded rows counted as merged", async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    // Act
    const response = await call(tenant, [
      { phoneNumber: '+14155550100', name: 'First', email: 'first@example.com', customFieldsData: { city: 'Rome', age: 30 } },
      { phoneNumber: '+1 415 555 0100', name: 'Second', customFieldsData: { age: 31 } },
      { phoneNumber: '14155550101' },
      { phoneNumber: '14155550100', labelNames: ['Nope'] },
      { phoneNumber: '14155550100', email: 'LAST@example.com' },
    ]);
    // Assess
    expect(response.body.data).toMatchObject({ created: 2, updated: 0, unchanged: 0, merged: 2, failed: 1, errors: [{ index: 3, parameter: 'labelNames' }] });
    const contact = await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, '14155550100');
    expect(contact).toMatchObject({ name: 'Second', email: 'last@example.com', customFields: { city: 'Rome', age: 31 } });
    await expectExact(tenant, 2);
  });

  it('answers 1,000 rows of one number with alternating status with one contact, one status change and one opt-out event', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const channel = { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] };
    const rows = Array.from({ length: 1000 }, (_, i) => ({ phoneNumber: '+14155550300', name: `Take ${i}`, status: i % 2 ? 'opted_out' : 'active' }));
    // Act
    const response = await call(tenant, rows);
    // Assess
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    expect(response.body.data).toMatchObject({ created: 1, updated: 0, unchanged: 0, merged: 999, failed: 0 });
    const contact = (await getContact(channel, '14155550300')) as Awaited<ReturnType<typeof getContact>> & { pendingEvents?: Array<{ type: string }> };
    expect(contact).toMatchObject({ name: 'Take 999', status: 'opted_out' });
    expect((await listStatusChanges(channel, '14155550300')).map((change) => change.status)).toEqual(['opted_out']);
    // The events raised: still on the contact (its outbox) or handed off to the events log.
    const logged = await listEventLog(channel, undefined, 100, Date.now());
    expect([...(contact.pendingEvents ?? []), ...logged].map((event) => event.type)).toEqual(['contact.opted_out']);
    await expectExact(tenant, 1);
  }, 300_000);

  it('enforces required custom fields on creates only, as contacts/manage does', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550200', name: 'Existing' } });
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'region', isRequired: true } });
    // Act
    const response = await call(tenant, [
      { phoneNumber: '+14155550200', name: 'Renamed' },
      { phoneNumber: '+14155550201' },
      { phoneNumber: '+14155550202', customFieldsData: { region: 'EU' } },
    ]);
    // Assess
    expect(response.body.data).toMatchObject({ created: 1, updated: 1, failed: 1 });
    expect(response.body.data.errors).toEqual([
      {
        index: 1,
        phoneNumber: '14155550201',
        error: 'missing_parameter',
        parameter: 'customFieldsData',
        message: 'Missing required custom fields for a new contact: region.',
      },
    ]);
    await expectExact(tenant, 2);
  });

  it("applies a row's status as contacts/manage does: the contact opted out, the change recorded, contacts/list filters it", async () => {
    // Prepare
    const tenant = await createTenant(1);
    const channel = { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] };
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550400', name: 'Existing' } });
    // Act
    const response = await call(tenant, [
      { phoneNumber: '+14155550400', status: 'opted_out' },
      { phoneNumber: '+14155550401', name: 'New and out', status: 'opted_out' },
      { phoneNumber: '+14155550402', status: 'sometimes' },
    ]);
    const optedOut = await callApi(listContacts, { apiKey: tenant.adminKey, params: { status: 'opted_out' } });
    // Assess
    expect(response.body.data).toMatchObject({ created: 1, updated: 1, failed: 1, errors: [{ index: 2, parameter: 'status' }] });
    expect((await getContact(channel, '14155550401'))?.status).toBe('opted_out');
    expect((await listStatusChanges(channel, '14155550400')).map((change) => [change.status, change.source])).toEqual([['opted_out', 'import']]);
    const existing = (await getContact(channel, '14155550400')) as Awaited<ReturnType<typeof getContact>> & {
      pendingEvents?: Array<{ type: string; data: unknown }>;
    };
    expect(existing?.pendingEvents?.map((event) => [event.type, event.data])).toEqual([
      ['contact.opted_out', { channelId: channel.channelId, contact: { id: existing!.id, phone: '14155550400' }, source: 'import' }],
    ]);
    expect(optedOut.body.data.map((contact: { phone: string }) => contact.phone).sort()).toEqual(['14155550400', '14155550401']);
    await expectExact(tenant, 2);
  });

  it('accepts the rows as a JSON string in a GET, and counts the whole call as one request of its rate class', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const rows = Array.from({ length: 20 }, (_, i) => ({ phoneNumber: phoneOf(i) }));
    // Act
    const response = await call(tenant, rows, 'GET');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.created).toBe(20);
    expect(Number(response.headers['RateLimit-Limit']) - Number(response.headers['RateLimit-Remaining'])).toBe(1);
    await expectExact(tenant, 20);
  });

  it('refuses a call it cannot read as a whole with a 400 naming contacts, and writes nothing', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const tooMany = await call(
      tenant,
      Array.from({ length: 1001 }, (_, i) => ({ phoneNumber: phoneOf(i) })),
    );
    const none = await call(tenant, []);
    const notArray = await call(tenant, { phoneNumber: '+14155550100' });
    const missing = await callApi(importContacts, { apiKey: tenant.adminKey, params: {} });
    // Assess
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details.parameter).toBe('contacts');
    expect(tooMany.body.message).toContain('1000');
    expect(none.body.details.parameter).toBe('contacts');
    expect(notArray.body.details.parameter).toBe('contacts');
    expect(missing.body).toMatchObject({ error: 'missing_parameter', details: { parameter: 'contacts' } });
    expect(await total(tenant)).toBe(0);
  });

  it('refuses a row key contacts/manage does not define, naming the row and the key and suggesting the closest name, and writes nothing', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    const rows = [
      { phoneNumber: '+14155550100', name: 'Bo' },
      { phoneNumber: '+14155550101', channelId: 'ignored' },
      { phoneNumber: '+14155550102', labels: ['VIP'] },
    ];
    // Act
    const typo = await call(tenant, rows);
    const viaGet = await call(tenant, JSON.stringify([{ phoneNumber: '+14155550103', nmae: 'Ann' }]), 'GET');
    const farOff = await call(tenant, [{ phoneNumber: '+14155550104', zzzzzz: 1 }]);
    // Assess
    expect(typo.status).toBe(400);
    expect(typo.body).toEqual({
      success: false,
      error: 'unknown_parameter',
      message: 'Received unknown parameter: contacts[2].labels. Did you mean labelNames?',
      details: { parameter: 'contacts[2].labels' },
    });
    expect(viaGet.body).toMatchObject({ error: 'unknown_parameter', message: 'Received unknown parameter: contacts[0].nmae. Did you mean name?' });
    expect(farOff.body).toMatchObject({ error: 'unknown_parameter', message: 'Received unknown parameter: contacts[0].zzzzzz.' });
    await expectExact(tenant, 0);
  });

  it('takes bodies up to 1 MiB (other endpoints stop at 64 KiB) and refuses larger ones', async () => {
    // Prepare: rows near the longest URL and name (≈ 2.2 KB each), so that few of them fill the body
    const tenant = await createTenant(1);
    const row = (i: number) => ({ phoneNumber: phoneOf(i), name: `N${i} ${'é'.repeat(90)}`, profilePictureUrl: `https://example.com/${'p'.repeat(1900)}.png` });
    const rows = Array.from({ length: 430 }, (_, i) => row(i));
    const body = JSON.stringify({ contacts: rows });
    const tooLarge = JSON.stringify({ contacts: Array.from({ length: 490 }, (_, i) => row(i)) });
    // Act
    const accepted = await callApi(importContacts, { apiKey: tenant.adminKey, body, remainingTimeMs: 120_000 });
    const refused = await callApi(importContacts, { apiKey: tenant.adminKey, body: tooLarge });
    const manageRefused = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      body: JSON.stringify({ phoneNumber: '+14155550100', name: 'x', padding: 'p'.repeat(70_000) }),
    });
    // Assess
    expect(Buffer.byteLength(body)).toBeGreaterThan(900 * 1024);
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    expect(accepted.status, JSON.stringify(accepted.body).slice(0, 300)).toBe(200);
    expect(Buffer.byteLength(tooLarge)).toBeGreaterThan(1024 * 1024);
    expect(accepted.body.data.created).toBe(rows.length);
    expect(refused.body).toMatchObject({ error: 'payload_too_large', details: { parameter: 'body' } });
    expect(manageRefused.body.error).toBe('payload_too_large');
    await expectExact(tenant, rows.length);
  });

  it('treats hostile rows as data: prototype keys, oversized and odd values are per-row errors or plain values, never a 5xx', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await withDefinitions(tenant);
    const body = `{"contacts":[
      {"phoneNumber":"+14155550301","customFieldsData":{"__proto__":"x"}},
      {"phoneNumber":"+14155550302","customFieldsData":{"constructor":"x"}},
      {"phoneNumber":"+14155550303","labelNames":"__proto__,toString"},
      {"phoneNumber":["+14155550304"]},
      {"phoneNumber":"+14155550305","name":{"$gt":""}},
      {"phoneNumber":"+14155550306","channelId":"ch_someone_else","name":"Mine"},
      {"phoneNumber":"+14155550307","name":"<script>alert(1)</script> '; DROP TABLE --"},
      [1,2,3], 42, true, {}
    ]}`;
    const prototypeKeys = `{"contacts":[{"phoneNumber":"+14155550300","__proto__":{"name":"polluted"},"constructor":{"prototype":{"x":1}}}]}`;
    // Act
    const response = await callApi(importContacts, { apiKey: tenant.adminKey, body });
    const polluting = await callApi(importContacts, { apiKey: tenant.adminKey, body: prototypeKeys });
    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    // As contacts/manage: a custom field named __proto__ cannot be stored (refused), constructor is an unknown field here.
    expect(response.body.data).toMatchObject({ created: 2, failed: 9 });
    expect(response.body.data.errors.map((e: any) => [e.index, e.parameter])).toEqual([
      [0, 'customFieldsData.__proto__'],
      [1, 'customFieldsData'],
      [2, 'labelNames'],
      [3, 'phoneNumber'],
      [4, 'name'],
      [7, 'contacts'],
      [8, 'contacts'],
      [9, 'contacts'],
      [10, 'phoneNumber'],
    ]);
    expect(await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, '14155550307')).toMatchObject({
      name: "<script>alert(1)</script> '; DROP TABLE --",
    });
    // A prototype key is a row key contacts/manage does not define: the call is refused whole, nothing polluted
    expect(polluting.body).toMatchObject({ error: 'unknown_parameter', details: { parameter: 'contacts[0].__proto__' } });
    expect(({} as Record<string, unknown>).name).toBeUndefined();
    expect(await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, '14155550300')).toBeUndefined();
    expect(await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, '14155550306')).toMatchObject({ name: 'Mine' });
    await expectExact(tenant, 2);
  });

  it('keeps one contact per number and exact counts under two concurrent imports and single upserts of the same numbers', async () => {
    // Prepare: rows enough for several claims (40 phones) and index chunks (32) a call, more than its writes in flight
    const tenant = await createTenant(1);
    const rows = Array.from({ length: 120 }, (_, i) => ({ phoneNumber: phoneOf(i), name: `Same ${i}` }));
    // Act
    const results = await Promise.all([
      call(tenant, rows),
      call(tenant, [...rows].reverse()),
      ...Array.from({ length: rows.length / 10 }, (_, k) =>
        callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: phoneOf(k * 10), name: `Single ${k}` } }),
      ),
    ]);
    // Assess
    for (const result of results) expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBe(200);
    const [a, b] = results;
    const createdByManage = results.slice(2).filter((result) => result.body.data.created).length;
    expect(a.body.data.created + b.body.data.created + createdByManage).toBe(rows.length);
    expect(a.body.data.failed + b.body.data.failed).toBe(0);
    await expectExact(tenant, rows.length);
  });

  it("names a call's new contacts by ids of one group (one pointer item, index chunks): found by contactId and by search after a rename, an erasure takes its phone out", async () => {
    // Prepare
    const tenant = await createTenant(1);
    const rows = Array.from({ length: 40 }, (_, i) => ({ phoneNumber: phoneOf(i), name: `Grouped ${i}` }));
    const imported = await call(tenant, rows);
    const listed = (await callApi(listContacts, { apiKey: tenant.adminKey, params: { limit: 100 } })).body.data as Array<{ id: string; phone: string }>;
    const pointerItems = (await workspaceItems({}, tenant.workspaceId)).filter((item) => item.sk.startsWith('CTID#'));
    const [erased, kept] = [listed[3], listed[4]];
    // Act
    const byId = await Promise.all(listed.map((contact) => callApi(messagesList, { apiKey: tenant.adminKey, params: { contactId: contact.id } })));
    const deleted = await callApi(deleteContact, { apiKey: tenant.adminKey, params: { contactId: erased.id } });
    const afterErasure = await callApi(messagesList, { apiKey: tenant.adminKey, params: { contactId: erased.id } });
    const otherAfter = await callApi(messagesList, { apiKey: tenant.adminKey, params: { contactId: kept.id } });
    await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: `+${kept.phone}`, name: 'Renamed Later' } });
    const byNewName = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'renamed later' } });
    const byOldName = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'grouped 4' } });
    const recounted = await contactsRecount(tenant.channelIds[0]);
    // Assess
    expect(imported.body.data).toMatchObject({ created: 40, failed: 0 });
    expect(new Set(listed.map((contact) => contact.id.slice(0, -2))).size).toBe(1);
    expect(pointerItems).toHaveLength(1);
    expect(byId.map((answer) => answer.status)).toEqual(listed.map(() => 200));
    expect(deleted.body.data).toEqual({ id: erased.id, deleted: true });
    expect(afterErasure.status).toBe(404);
    expect(otherAfter.status).toBe(200);
    expect(byNewName.body.data.map((contact: { id: string }) => contact.id)).toEqual([kept.id]);
    expect(byOldName.body.pagination.total).toBe(0);
    expect(recounted.contactCount).toBe(39);
    const texts = (await workspaceItems({}, tenant.workspaceId)).map((item) => JSON.stringify(item));
    expect(texts.filter((text) => text.includes(erased.phone))).toEqual([]);
    await expectExact(tenant, 39);
  });

  it('finishes an import a crash left half done when it is run again, or by the recount', async () => {
    // Prepare: a ledger and some of its contacts written, nothing indexed or counted (the call died there)
    const [rerun, recount] = [await createTenant(1), await createTenant(1)];
    const rows = Array.from({ length: 50 }, (_, i) => ({ phoneNumber: phoneOf(i), name: `Crash ${i}` }));
    for (const tenant of [rerun, recount]) {
      const [channelId] = tenant.channelIds;
      await putImportLedger(
        { workspaceId: tenant.workspaceId, channelId },
        'imp_crashed',
        rows.map((_, i) => digitsOf(i)),
      );
      for (let i = 0; i < 20; i++)
        await createImportedContact({ workspaceId: tenant.workspaceId, channelId }, digitsOf(i), { name: `Crash ${i}` }, 'imp_crashed');
    }
    const broken = await checkInvariants({ workspaceId: rerun.workspaceId });
    // Act
    const again = await call(rerun, rows);
    const repaired = await contactsRecount(recount.channelIds[0]);
    const afterRecount = await call(recount, rows);
    // Assess
    expect(broken.violations.length).toBeGreaterThan(0);
    expect(again.body.data).toMatchObject({ created: 30, updated: 0, unchanged: 20, failed: 0 });
    await expectExact(rerun, 50);
    expect(repaired.contactCount).toBe(20);
    expect(afterRecount.body.data).toMatchObject({ created: 30, updated: 0, unchanged: 20 });
    await expectExact(recount, 50);
  });
  it('answers 200 within its deadline however slow the table is, the rows it had no time for pending; the same call again completes them, nothing twice', async () => {
    const tenant = await createTenant();
    const channel = { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] };
    const rows = Array.from({ length: 100 }, (_, i) => ({ phoneNumber: phoneOf(500 + i), name: `Out ${i}`, status: 'opted_out' }));
    // The fault: every table call takes 10 ms of the real clock the deadline is measured on (a clock moved by the calls, not by waiting).
    let slowedMs = 0;
    const realNow = clock.realNow.bind(clock);
    const slowClock = vi.spyOn(clock, 'realNow').mockImplementation(() => realNow() + slowedMs);
    const slowTable = injectFaults(() => {
      slowedMs += 10;
      return undefined;
    });
    const remainingTimeMs = 3_200;
    let first: Awaited<ReturnType<typeof callApi>>;
    try {
      first = await callApi(importContacts, { apiKey: tenant.adminKey, params: { contacts: rows }, remainingTimeMs });
    } finally {
      slowTable.remove();
      slowClock.mockRestore();
    }
    expect(first.status).toBe(200);
    // Its own time aside (this machine's speed is not what is tested): the table's time spent fits the invocation's.
    expect(slowedMs).toBeLessThanOrEqual(remainingTimeMs);
    const pending: number[] = first.body.data.pending;
    expect(pending.length).toBeGreaterThan(0);
    expect(first.body.message).toContain(`${pending.length} pending`);
    expect(new Set(pending).size).toBe(pending.length);

    const second = await call(tenant, rows);
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ pending: [], failed: 0 });
    await expectExact(tenant, 100);
    for (let i = 0; i < rows.length; i++) {
      expect((await getContact(channel, digitsOf(500 + i)))?.status, `row ${i}`).toBe('opted_out');
      expect((await listStatusChanges(channel, digitsOf(500 + i))).map((change) => change.status)).toEqual(['opted_out']);
    }
  });
});
