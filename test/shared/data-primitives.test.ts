import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryAll, queryFirst, queryRangePageStrings, takeStringItems } from '../../shared/data/batch';
import { db, deleteItem, getItem, putIfAbsent, putItem, putNew, update, when } from '../../shared/data/client';
import type { Key } from '../../shared/identity';
import * as v from 'valibot';
import { AnyItem } from '../support/table';

/** A key of its own partition per test, so tests share the dynalite table without meeting. */
const freshKey = (sk = 'ITEM'): Key => ({ pk: `TEST#${randomUUID()}`, sk });

describe('data-layer primitives against dynalite', () => {
  describe('getItem', () => {
    it('reads an item, only the projected attributes when asked, and undefined when there is none', async () => {
      // Prepare
      const key = freshKey();
      await putItem({ ...key, name: 'Ada', status: 'active', count: 3 });
      // Act
      const whole = await getItem(key, AnyItem, { consistent: true });
      const projected = await getItem(key, AnyItem, { consistent: true, attributes: ['name', 'status'] });
      const missing = await getItem(freshKey(), AnyItem, { consistent: true });
      // Assess
      expect(whole).toEqual({ ...key, name: 'Ada', status: 'active', count: 3 });
      expect(projected).toEqual({ name: 'Ada', status: 'active' });
      expect(missing).toBeUndefined();
    });
  });

  describe('putIfAbsent and putNew', () => {
    it('creates once and then reports the existing item without overwriting it', async () => {
      // Prepare
      const key = freshKey();
      // Act
      const first = await putIfAbsent({ ...key, owner: 'first' });
      const second = await putIfAbsent({ ...key, owner: 'second' });
      // Assess
      expect([first, second]).toEqual(['created', 'existing']);
      expect(await getItem(key, AnyItem, { consistent: true })).toMatchObject({ owner: 'first' });
    });

    it('lets only one of many concurrent creates of one key win', async () => {
      // Prepare
      const key = freshKey();
      // Act
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => putIfAbsent({ ...key, owner: `writer-${i}` })));
      // Assess
      expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
    });

    it('putNew throws the condition failure when the item exists', async () => {
      // Prepare
      const key = freshKey();
      await putNew({ ...key, owner: 'first' });
      // Act
      const second = putNew({ ...key, owner: 'second' });
      // Assess
      await expect(second).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
      expect(await getItem(key, AnyItem, { consistent: true })).toMatchObject({ owner: 'first' });
    });
  });

  describe('putItem and deleteItem with a condition', () => {
    it('write only when the condition holds and say whether it did', async () => {
      // Prepare
      const key = freshKey();
      await putItem({ ...key, expiresAt: 100 });
      // Act
      const refused = await putItem({ ...key, expiresAt: 500 }, when.or(when.itemAbsent(), when.lte('expiresAt', 50)));
      const replaced = await putItem({ ...key, expiresAt: 500 }, when.or(when.itemAbsent(), when.lte('expiresAt', 100)));
      const keptByDelete = await deleteItem(key, when.eq('expiresAt', 100));
      const deleted = await deleteItem(key, when.eq('expiresAt', 500));
      // Assess
      expect([refused, replaced, keptByDelete, deleted]).toEqual([false, true, false, true]);
      expect(await getItem(key, AnyItem, { consistent: true })).toBeUndefined();
    });
  });

  describe('update', () => {
    it('sets, removes, adds and appends with generated names, including reserved words and map keys', async () => {
      // Prepare
      const key = freshKey();
      await putItem({ ...key, name: 'old', email: 'a@example.com', customFields: { city: 'Oslo', 'shoe size': 42 }, count: 1 });
      // Act
      const after = await update(key)
        .set('name', 'new')
        .set('status', 'active')
        .set('ignored', undefined)
        .setOrRemove('email', null)
        .setOrRemove('untouched', undefined)
        .set(['customFields', 'shoe size'], 43)
        .remove(['customFields', 'city'])
        .add('count', 2)
        .add('tags', new Set(['a', 'b']))
        .append('outcomes', [{ step: 0 }])
        .setIfNotExists('createdAt', 'first')
        .sendReturning(AnyItem);
      const again = await update(key)
        .append('outcomes', [{ step: 1 }])
        .setIfNotExists('createdAt', 'second')
        .deleteFromSet('tags', new Set(['a']))
        .sendReturning(AnyItem);
      // Assess
      expect(after).toMatchObject({
        name: 'new',
        status: 'active',
        customFields: { 'shoe size': 43 },
        count: 3,
        tags: new Set(['a', 'b']),
        createdAt: 'first',
      });
      expect(after).not.toHaveProperty('email');
      expect(after).not.toHaveProperty('ignored');
      expect(again).toMatchObject({ outcomes: [{ step: 0 }, { step: 1 }], createdAt: 'first', tags: new Set(['b']) });
    });

    it('writes no expression by hand: every attribute and value goes through placeholders', () => {
      // Prepare
      const key = freshKey();
      // Act
      const input = update(key)
        .set('status', 'running')
        .set('12345', 'x')
        .add('count', 1)
        .when(when.and(when.itemExists(), when.oneOf('status', ['triggered', 'running'])))
        .input();
      // Assess
      expect(input.UpdateExpression).toBe('SET #status = :v0, #n0 = :v1 ADD #count :v2');
      expect(input.ConditionExpression).toBe('(attribute_exists(pk)) AND (#status IN (:v3, :v4))');
      expect(input.ExpressionAttributeNames).toEqual({ '#status': 'status', '#n0': '12345', '#count': 'count' });
      expect(input.ExpressionAttributeValues).toEqual({ ':v0': 'running', ':v1': 'x', ':v2': 1, ':v3': 'triggered', ':v4': 'running' });
    });

    it('send reports a failed condition as false and changes nothing; sendOrThrow throws it', async () => {
      // Prepare
      const key = freshKey();
      await putItem({ ...key, stepIndex: 2 });
      // Act
      const stale = await update(key).set('stepIndex', 3).when(when.eq('stepIndex', 1)).send();
      const staleReturning = await update(key).set('stepIndex', 3).when(when.eq('stepIndex', 1)).sendReturning(AnyItem);
      const moved = await update(key).set('stepIndex', 3).when(when.eq('stepIndex', 2)).send();
      const missing = update(freshKey()).set('stepIndex', 1).when(when.itemExists()).sendOrThrow();
      // Assess
      expect([stale, staleReturning, moved]).toEqual([false, undefined, true]);
      await expect(missing).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
      expect(await getItem(key, AnyItem, { consistent: true })).toMatchObject({ stepIndex: 3 });
    });

    it('holds a condition on a prefix and on a size', async () => {
      // Prepare
      const key = freshKey();
      await putItem({ ...key, shard: 'EVOUTBOX#3', events: ['a', 'b'] });
      // Act
      const wrongPrefix = await update(key).set('seen', 1).when(when.beginsWith('shard', 'OUTBOX#')).send();
      const wrongSize = await update(key).set('seen', 2).when(when.sizeIs('events', 1)).send();
      const both = await update(key)
        .set('seen', 3)
        .when(when.and(when.beginsWith('shard', 'EVOUTBOX#'), when.sizeIs('events', 2)))
        .send();
      // Assess
      expect([wrongPrefix, wrongSize, both]).toEqual([false, false, true]);
      expect(await getItem(key, AnyItem, { consistent: true })).toMatchObject({ seen: 3 });
    });

    it('returns only the updated attributes when asked for UPDATED_NEW', async () => {
      // Prepare
      const key = freshKey();
      await putItem({ ...key, other: 'kept' });
      // Act
      const updated = await update(key).add('n', 1).sendReturning(AnyItem, 'UPDATED_NEW');
      // Assess
      expect(updated).toEqual({ n: 1 });
    });

    it('refuses an update with no clause', () => {
      // Prepare
      const empty = update(freshKey()).set('name', undefined);
      // Act
      const build = () => empty.input();
      // Assess
      expect(build).toThrow(/at least one clause/);
    });
  });

  describe('queries', () => {
    it('queryAll follows pages with a filter and a projection; queryFirst stops at its limit', async () => {
      // Prepare
      const { pk } = freshKey();
      const big = 'x'.repeat(200_000);
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => putItem({ pk, sk: `ROW#${String(i).padStart(2, '0')}`, n: i, pending: i % 3 === 0, padding: big })),
      );
      await putItem({ pk, sk: 'OTHER#1', n: 99, pending: true });
      // Act
      const pending = await queryAll(pk, 'ROW#', v.object({ n: v.number() }), { consistent: true, filter: when.eq('pending', true), attributes: ['n'] });
      const first = await queryFirst(pk, 'ROW#', v.object({ sk: v.string() }), { consistent: true, limit: 2, attributes: ['sk'] });
      // Assess
      expect(pending).toEqual([{ n: 0 }, { n: 3 }, { n: 6 }, { n: 9 }]);
      expect(first).toEqual([{ sk: 'ROW#00' }, { sk: 'ROW#01' }]);
    });

    it('queryRangePageStrings reads string items as names and values in turn, escapes and all, and pages on from its key', async () => {
      // Prepare: two 400 KB items and one of awkward strings in a range, one item past its end
      const { pk } = freshKey();
      const awkward = { 'say "hi"': 'back\\slash', é名: 'line\nbreak \u2028 😀', '14155550001': '{"S":"not structure"}' };
      await putItem({ pk, sk: 'R#1', a: 'x'.repeat(400_000) });
      await putItem({ pk, sk: 'R#2', b: 'y'.repeat(400_000) });
      await putItem({ pk, sk: 'R#3', c: 'z'.repeat(400_000) });
      await putItem({ pk, sk: 'R#4', ...awkward });
      await putItem({ pk, sk: 'S#1', c: 'outside' });
      const outputs: Array<Record<string, unknown>> = [];
      db.middlewareStack.add(
        (nextHandler) => async (args) => {
          const result = await nextHandler(args);
          outputs.push(result.output as Record<string, unknown>);
          return result;
        },
        { step: 'initialize', name: 'test-string-items-outputs' },
      );
      // Act: pages of at most 1 MB, followed by their keys
      const pages: Array<Awaited<ReturnType<typeof queryRangePageStrings>>> = [];
      let next: Awaited<ReturnType<typeof queryRangePageStrings>>['next'];
      try {
        do {
          const page = await queryRangePageStrings(pk, { from: 'R#', to: 'R#~' }, next);
          pages.push(page);
          next = page.next;
        } while (next);
      } finally {
        db.middlewareStack.remove('test-string-items-outputs');
      }
      // Assess: read from the body (the SDK's deserializer saw no items)
      expect(pages.length).toBeGreaterThan(1);
      expect(outputs.map((output) => [(output.Items as unknown[]).length, (output.StringItems as unknown[]).length])).toEqual(
        pages.map((page) => [0, page.items.length]),
      );
      const items = pages.flatMap((page) => page.items).map((item) => Object.fromEntries(item.flatMap((text, i) => (i % 2 ? [] : [[text, item[i + 1]]]))));
      expect(items).toEqual([
        { pk, sk: 'R#1', a: 'x'.repeat(400_000) },
        { pk, sk: 'R#2', b: 'y'.repeat(400_000) },
        { pk, sk: 'R#3', c: 'z'.repeat(400_000) },
        { pk, sk: 'R#4', ...awkward },
      ]);
    });

    it('queryRangePageStrings is retried as any call: a throttled attempt whose response was read leaves nothing behind', async () => {
      // Prepare: the first attempt's response is read, then an item is added and the attempt fails as throttled (injected below the retries)
      const { pk } = freshKey();
      await putItem({ pk, sk: 'R#1', a: 'first' });
      let attempts = 0;
      db.middlewareStack.add(
        (nextHandler, context) => async (args) => {
          const result = await nextHandler(args);
          if (context.commandName !== 'QueryCommand' || ++attempts > 1) return result;
          await putItem({ pk, sk: 'R#2', b: 'second' });
          throw Object.assign(new Error('injected'), { name: 'ProvisionedThroughputExceededException', $metadata: { httpStatusCode: 400 } });
        },
        { step: 'finalizeRequest', priority: 'low', name: 'test-throttle-once' },
      );
      // Act
      let page: Awaited<ReturnType<typeof queryRangePageStrings>>;
      try {
        page = await queryRangePageStrings(pk, { from: 'R#', to: 'R#~' });
      } finally {
        db.middlewareStack.remove('test-throttle-once');
      }
      // Assess
      expect(attempts).toBe(2);
      expect(page.items.map((item) => Object.fromEntries(item.flatMap((text, i) => (i % 2 ? [] : [[text, item[i + 1]]]))))).toEqual([
        { pk, sk: 'R#1', a: 'first' },
        { pk, sk: 'R#2', b: 'second' },
      ]);
    });

    it('queryRangePageStrings reads an attribute of another type as an empty string', async () => {
      // Prepare
      const { pk } = freshKey();
      await putItem({ pk, sk: 'R#1', name: 'Ada', count: 3 });
      // Act
      const { items, next } = await queryRangePageStrings(pk, { from: 'R#', to: 'R#~' });
      // Assess
      expect(items.map((item) => Object.fromEntries(item.flatMap((text, i) => (i % 2 ? [] : [[text, item[i + 1]]]))))).toEqual([
        { pk, sk: 'R#1', name: 'Ada', count: '' },
      ]);
      expect(next).toBeUndefined();
    });
  });

  describe('takeStringItems', () => {
    it('takes the items out of a body, leaving the rest for the SDK, and refuses any other shape', () => {
      // Prepare
      const body = (items: unknown[]) =>
        JSON.stringify({ Count: items.length, Items: items, LastEvaluatedKey: { pk: { S: 'P' }, sk: { S: 'S' } }, ScannedCount: items.length });
      const strings = [
        { pk: { S: 'P' }, sk: { S: 'A' }, 'a"b': { S: '\\' } },
        { pk: { S: 'P' }, sk: { S: 'B' } },
      ];
      // Act
      const taken = takeStringItems(body(strings));
      const empty = takeStringItems(body([]));
      const numbers = takeStringItems(body([{ pk: { S: 'P' }, n: { N: '1' } }]));
      const spaced = takeStringItems(JSON.stringify({ Items: strings }, null, 1));
      // Assess
      expect(taken?.items).toEqual([
        ['pk', 'P', 'sk', 'A', 'a"b', '\\'],
        ['pk', 'P', 'sk', 'B'],
      ]);
      expect(JSON.parse(taken!.rest)).toEqual({ ...JSON.parse(body([])), Count: 2, ScannedCount: 2 });
      expect(empty).toEqual({ items: [], rest: body([]) });
      expect(numbers).toBeUndefined();
      expect(spaced).toBeUndefined();
    });
  });
});
