import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as listFields } from '../../functions/custom-fields-list';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { handler as listLabels } from '../../functions/labels-list';
import { handler as manageLabel } from '../../functions/labels-manage';
import { db, tableName } from '../../shared/data/client';
import { MAX_FIELDS_PER_CHANNEL, MAX_LABELS_PER_CHANNEL } from '../../shared/data/definitions';
import { keys } from '../../shared/data/keys';
import { LIMITS } from '../../shared/schema/params';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

/**
 * labels/list and custom-fields/list must stay one query page (the list-endpoint target:
 * the limiter + one Query, docs/PERFORMANCE.md) even when every definition of a channel
 * is as large as the API lets it be. DynamoDB ends a Query page at 1 MB of items, sized
 * by its rules (below), so the per-channel cap × the largest item must stay under 1 MB.
 *
 * The largest items are written through the real handlers, with every string at its
 * limit in characters that take 3 bytes in UTF-8 (a limit counts UTF-16 units: no unit
 * takes more than 3 bytes, nor does its lowercase in the sort key; a surrogate pair is
 * 4 bytes for 2 units), read back as stored and measured. Raising a cap or a limit, or
 * storing a new attribute on definitions, re-measures; past 1 MB this test fails.
 */

/** DynamoDB's most data one Query page reads: 1 MB. */
const QUERY_PAGE_BYTES = 1024 * 1024;

/** A character of 3 UTF-8 bytes (one UTF-16 unit), its own lowercase. */
const WIDE = 'あ';

/**
 * Size of an attribute value by DynamoDB's item-size rules ("DynamoDB item sizes and
 * formats", Developer Guide), for values as the document client returns them: strings
 * and binaries their UTF-8 / raw bytes; numbers 1 byte per 2 significant digits + 1
 * (rounded up; trailing zeros counted and 1 more byte for a sign, so never under);
 * null and booleans 1 byte; lists and maps 3 bytes + 1 byte per element (+ a map
 * entry's name); sets the sum of their members.
 */
function valueSize(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits = String(value).replace(/e.*$/i, '').replace(/\D/g, '').replace(/^0+/, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1 + (String(value).startsWith('-') ? 1 : 0);
  }
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((total: number, member) => total + valueSize(member), 0);
  if (Array.isArray(value)) return 3 + value.reduce((total: number, element) => total + 1 + valueSize(element), 0);
  if (typeof value === 'object')
    return 3 + Object.entries(value as object).reduce((total, [name, nested]) => total + 1 + Buffer.byteLength(name, 'utf8') + valueSize(nested), 0);
  throw new Error(`no DynamoDB size for ${typeof value}`);
}

/** Size of an item: its attribute names (UTF-8 bytes) and values. */
function itemSize(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((total, [name, value]) => total + Buffer.byteLength(name, 'utf8') + valueSize(value), 0);
}

async function storedItem(key: { pk: string; sk: string }): Promise<Record<string, unknown>> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  expect(Item, `no item at ${key.sk}`).toBeDefined();
  return Item!;
}

describe('the item-size rules the checks below use', () => {
  it.each([
    [{ s: 'héllo' }, 1 + 6],
    [{ s: WIDE.repeat(10) }, 1 + 30],
    [{ n: 123_456 }, 1 + 3 + 1],
    [{ n: -999_999 }, 1 + 3 + 1 + 1],
    [{ n: 7 }, 1 + 1 + 1],
    [{ b: true, z: null }, 1 + 1 + 1 + 1],
    [{ l: ['ab', 'c'] }, 1 + 3 + (1 + 2) + (1 + 1)],
    [{ l: [] }, 1 + 3],
    [{ m: { ab: 'c' } }, 1 + 3 + (1 + 2 + 1)],
  ])('%j is %d bytes', (item, bytes) => {
    expect(itemSize(item)).toBe(bytes);
  });
});

describe('labels/list and custom-fields/list stay one query page at the per-channel caps', () => {
  it(`${MAX_LABELS_PER_CHANNEL} labels at their longest (name ${LIMITS.name}, description ${LIMITS.labelDescription} characters of 3 bytes) fit one 1 MB page`, async () => {
    // Prepare: one character more than each limit is refused, so these are the longest labels/manage writes
    const tenant = await createTenant(1);
    const [channelId] = tenant.channelIds;
    const name = WIDE.repeat(LIMITS.name);
    const description = WIDE.repeat(LIMITS.labelDescription);
    const tooLongName = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: WIDE.repeat(LIMITS.name + 1) } });
    const tooLongDescription = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name, description: WIDE.repeat(LIMITS.labelDescription + 1) } });
    // Act: the largest label, every attribute at its longest (displayOrder: the most significant digits the range allows)
    const created = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name, description, color: '#ABCDEF', displayOrder: -999_999 } });
    const item = await storedItem(keys.label({ workspaceId: tenant.workspaceId, channelId }, name));
    const listed = await callApi(listLabels, { apiKey: tenant.adminKey, method: 'GET' });
    // Assess
    expect([tooLongName.status, tooLongName.body.details?.parameter]).toEqual([400, 'name']);
    expect([tooLongDescription.status, tooLongDescription.body.details?.parameter]).toEqual([400, 'description']);
    expect([created.status, created.body.data?.created], JSON.stringify(created.body)).toEqual([200, true]);
    expect(item).toMatchObject({ name, description, displayOrder: -999_999 });
    expect(listed.body.data).toHaveLength(1);
    const size = itemSize(item);
    expect(MAX_LABELS_PER_CHANNEL * size, `${MAX_LABELS_PER_CHANNEL} labels of ${size} B (${Object.keys(item).sort().join(', ')})`).toBeLessThanOrEqual(
      QUERY_PAGE_BYTES,
    );
  });

  it(`${MAX_FIELDS_PER_CHANNEL} custom fields at their longest (dropdown, ${LIMITS.optionEntries} options of ${LIMITS.optionLength} characters of 3 bytes) fit one 1 MB page`, async () => {
    // Prepare: one more option, or one character more, is refused, so this is the longest field custom-fields/manage writes
    const tenant = await createTenant(1);
    const [channelId] = tenant.channelIds;
    const name = WIDE.repeat(LIMITS.name);
    // Distinct options (duplicates are dropped case-insensitively), each of 3-byte characters.
    const option = (i: number) => String.fromCharCode(0x4e00 + i).repeat(LIMITS.optionLength);
    const options = Array.from({ length: LIMITS.optionEntries }, (_, i) => option(i));
    const tooMany = await callApi(manageField, {
      apiKey: tenant.adminKey,
      params: { name, type: 'dropdown', options: [...options, option(LIMITS.optionEntries)] },
    });
    const tooLong = await callApi(manageField, {
      apiKey: tenant.adminKey,
      params: { name, type: 'dropdown', options: [...options.slice(1), `${options[0]}${WIDE}`] },
    });
    const tooLongName = await callApi(manageField, { apiKey: tenant.adminKey, params: { name: WIDE.repeat(LIMITS.name + 1), type: 'dropdown', options } });
    // Act: the largest field ('dropdown' is the longest type name)
    const created = await callApi(manageField, { apiKey: tenant.adminKey, params: { name, type: 'dropdown', isRequired: true, options } });
    const item = await storedItem(keys.customField({ workspaceId: tenant.workspaceId, channelId }, name));
    const listed = await callApi(listFields, { apiKey: tenant.adminKey, method: 'GET' });
    // Assess
    expect([tooMany.status, tooMany.body.details?.parameter]).toEqual([400, 'options']);
    expect([tooLong.status, tooLong.body.details?.parameter]).toEqual([400, 'options']);
    expect([tooLongName.status, tooLongName.body.details?.parameter]).toEqual([400, 'name']);
    expect([created.status, created.body.data?.created], JSON.stringify(created.body)).toEqual([200, true]);
    expect(item).toMatchObject({ name, type: 'dropdown', options });
    expect(listed.body.data).toHaveLength(1);
    const size = itemSize(item);
    expect(MAX_FIELDS_PER_CHANNEL * size, `${MAX_FIELDS_PER_CHANNEL} custom fields of ${size} B (${Object.keys(item).sort().join(', ')})`).toBeLessThanOrEqual(
      QUERY_PAGE_BYTES,
    );
  });
});
