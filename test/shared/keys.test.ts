import { describe, expect, it } from 'vitest';
import {
  CONTACT_ID_GROUP_SIZE,
  contactIdGroupOf,
  contactIdPointer,
  contactIndexItemOf,
  definitionKindOf,
  groupedContactId,
  keys,
  outboxShardOf,
  parseExecutionKey,
} from '../../shared/data/keys';
import { contactIndexName, contactSearchKey } from '../../shared/data/contact-index';
import { newId } from '../../shared/ids';

describe('keys.ts builds and parses every key', () => {
  it('parses an execution key back into the ids it was built from', () => {
    // Prepare
    const key = keys.execution({ workspaceId: 'ws_1', channelId: 'ch_2' }, 'ex_3');
    // Act
    const parsed = parseExecutionKey(key);
    // Assess
    expect(parsed).toEqual({ workspaceId: 'ws_1', channelId: 'ch_2', executionId: 'ex_3' });
  });

  it('refuses to parse a key that is not an execution of a channel', () => {
    // Prepare
    const contact = keys.contact({ workspaceId: 'ws_1', channelId: 'ch_2' }, '4917612345678');
    // Act
    const parse = () => parseExecutionKey(contact);
    // Assess
    expect(parse).toThrow(/Not an execution key/);
  });

  it('tells labels from custom fields under the definitions prefix, matched by lowercased name', () => {
    // Prepare
    const label = keys.label({ workspaceId: 'ws', channelId: 'ch' }, '  VIP ');
    const field = keys.customField({ workspaceId: 'ws', channelId: 'ch' }, 'City');
    // Act
    const kinds = [definitionKindOf(label), definitionKindOf(field), definitionKindOf(keys.contactHead({ workspaceId: 'ws', channelId: 'ch' }))];
    // Assess
    expect(kinds).toEqual(['label', 'customField', undefined]);
    expect(label).toEqual(keys.label({ workspaceId: 'ws', channelId: 'ch' }, 'vip'));
    expect(label.sk.startsWith(keys.definitionsPrefix({ workspaceId: 'ws', channelId: 'ch' }).skPrefix)).toBe(true);
  });

  it('files an execution under one of the outbox shards and lowercases index names to their searched prefix', () => {
    // Prepare
    const longName = `Ada ${'X'.repeat(100)}`;
    // Act
    const shard = outboxShardOf('ex_3');
    const indexed = contactIndexName(longName);
    // Assess
    expect(shard).toMatch(/^OUTBOX#[0-7]$/);
    expect(indexed).toHaveLength(64);
    expect(indexed.startsWith(contactSearchKey('ADA X'))).toBe(true);
    expect(contactIndexName(undefined)).toBe('');
  });

  it('gives the ids of one group distinct places, one pointer item and index chunks of 32, and leaves random ids their own', () => {
    // Prepare
    const channel = { workspaceId: 'ws', channelId: 'ch' };
    const group = contactIdGroupOf(newId('ct'));
    const random = Array.from({ length: 200 }, () => newId('ct'));
    // Act
    const ids = Array.from({ length: CONTACT_ID_GROUP_SIZE }, (_, place) => groupedContactId(group, place));
    const pointers = ids.map((id) => contactIdPointer(channel, id));
    const chunks = ids.map((id) => contactIndexItemOf(channel, { id, phone: '14155550000' }).sk);
    // Assess
    expect(new Set(ids).size).toBe(CONTACT_ID_GROUP_SIZE);
    expect(ids.every((id) => /^ct_[0-9a-z]{16}$/.test(id) && id.length === newId('ct').length)).toBe(true);
    expect(new Set(pointers.map((pointer) => pointer.key.sk))).toEqual(new Set([`CTID#${group}`]));
    expect(new Set(pointers.map((pointer) => pointer.attribute)).size).toBe(CONTACT_ID_GROUP_SIZE);
    expect(new Set(chunks).size).toBe(CONTACT_ID_GROUP_SIZE / 32);
    expect(() => groupedContactId(group, CONTACT_ID_GROUP_SIZE)).toThrow(RangeError);
    for (const id of random) {
      expect(contactIdPointer(channel, id)).toEqual({ key: keys.contactById(channel, id), attribute: 'phone', grouped: false });
      expect(contactIndexItemOf(channel, { id, phone: '14155550000' }).sk).toMatch(/^CIDX#[0-9a-f]{3}$/);
    }
  });

  it('splits the compact index into side-by-side ranges that cover every index key once', () => {
    // Prepare
    const channel = { workspaceId: 'ws', channelId: 'ch' };
    const group = contactIdGroupOf(newId('ct'));
    const itemKeys = [
      ...Array.from({ length: 4096 }, (_, bucket) => keys.contactIndexBucket(channel, bucket).sk),
      ...Array.from({ length: 256 }, (_, bucket) => `CIDX#${bucket.toString(16).padStart(2, '0')}`), // the 256-bucket layout
      ...Array.from({ length: 500 }, () => contactIndexItemOf(channel, { id: groupedContactId(contactIdGroupOf(newId('ct')), 7), phone: '1' }).sk),
      contactIndexItemOf(channel, { id: groupedContactId(group, 0), phone: '1' }).sk,
    ];
    // Act
    const all = keys.contactIndexRanges(channel).ranges;
    const after = keys.contactIndexRanges(channel, 'CIDX#9ab').ranges;
    const inRanges = (ranges: Array<{ from: string; to: string }>, sk: string) => ranges.filter((range) => range.from <= sk && sk <= range.to).length;
    // Assess
    expect(all).toHaveLength(8);
    expect(itemKeys.map((sk) => inRanges(all, sk))).toEqual(itemKeys.map(() => 1));
    expect(itemKeys.filter((sk) => sk >= 'CIDX#9ab').map((sk) => inRanges(after, sk))).toEqual(itemKeys.filter((sk) => sk >= 'CIDX#9ab').map(() => 1));
    expect(after[0].from).toBe('CIDX#9ab');
    expect(inRanges(all, keys.contactHead(channel).sk) + inRanges(all, 'CIMP#x') + inRanges(all, 'CTID#ct_x')).toBe(0);
  });
});
