import { describe, expect, it } from 'vitest';
import { contactIndexName, contactSearchKey, definitionKindOf, keys, outboxShardOf, parseExecutionKey } from '../../shared/data/keys';

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
});
