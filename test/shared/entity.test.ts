import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { handler as listLabels } from '../../functions/labels-list';
import { batchGetAll, queryAll } from '../../shared/data/batch';
import { getItem, putItem, update } from '../../shared/data/client';
import { LabelItem } from '../../shared/data/definitions';
import { entity, tagged } from '../../shared/data/entity';
import { keys } from '../../shared/data/keys';
import type { Key } from '../../shared/identity';
import { CorruptItemError } from '../../shared/errors';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';
import { stdoutLinesDuring } from '../support/log-capture';

/**
 * Stored entities declared once (shared/data/entity.ts): every typed read parses what it
 * read with the entity's schema, so an item of the wrong shape is a typed error with its
 * cause, never a silently wrong value in an answer.
 */

const Gadget = entity('gadget', { name: v.string(), size: v.number(), note: v.optional(v.nullable(v.string()), null) });
/** A partition of its own per test, so tests share the dynalite table without meeting. */
const freshKey = (sk = 'GADGET#1'): Key => ({ pk: `TEST#${randomUUID()}`, sk });

/** What `run` rejects with. */
async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('stored entities', () => {
  it('writes the tag with the attributes, and reads them back parsed: defaults filled, the rest of the item kept', async () => {
    // Prepare
    const key = freshKey();
    await putItem({ ...tagged(Gadget, key, { name: 'dial', size: 3, note: null }), outboxAt: 5 });
    await putItem({ ...key, sk: 'GADGET#2', entity: 'gadget', name: 'knob', size: 1 });
    // Act
    const read = await getItem(key, Gadget, { consistent: true });
    const listed = await queryAll(key.pk, 'GADGET#', Gadget, { consistent: true });
    // Assess
    expect(read).toEqual({ ...key, entity: 'gadget', name: 'dial', size: 3, note: null, outboxAt: 5 });
    expect(listed.map((item) => [item.name, item.note])).toEqual([
      ['dial', null],
      ['knob', null],
    ]);
  });

  it('refuses an item of another shape with a CorruptItemError whose cause names the entity and attribute, never the value', async () => {
    // Prepare
    const key = freshKey();
    await putItem({ ...key, entity: 'gadget', name: 'dial', size: '14155550123' });
    // Act
    const error = await rejection(() => getItem(key, Gadget, { consistent: true }));
    // Assess
    expect(error).toBeInstanceOf(CorruptItemError);
    expect(error).toMatchObject({ kind: 'internal', code: 'internal_error' });
    const cause = (error as Error).cause as Error;
    expect(cause.message).toContain('gadget');
    expect(cause.message).toContain('size: expected number, got string');
    expect(`${(error as Error).message} ${cause.message}`).not.toContain('14155550123');
  });

  it('parses every read: a query, a batch read and an update that returns the item each refuse an item of another tag', async () => {
    // Prepare
    const key = freshKey();
    await putItem({ ...key, entity: 'widget', name: 'dial', size: 3 });
    // Act
    const errors = await Promise.all([
      rejection(() => queryAll(key.pk, 'GADGET#', Gadget, { consistent: true })),
      rejection(() => batchGetAll([key], Gadget, true)),
      rejection(() => update(key).set('size', 4).sendReturning(Gadget)),
    ]);
    // Assess
    for (const error of errors) expect(error).toBeInstanceOf(CorruptItemError);
  });

  it('answers a 500 for a corrupt stored label, instead of showing it in a wrong shape, and logs the cause', async () => {
    // Prepare: a label whose displayOrder was stored as text
    const tenant = await createTenant(1);
    const channel = { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] };
    const iso = new Date(0).toISOString();
    const label = { id: 'lb_corrupt', channelId: channel.channelId, name: 'VIP', color: '#FF8800', createdAt: iso, updatedAt: iso };
    await putItem({ ...keys.label(channel, 'VIP'), entity: LabelItem.tag, ...label, displayOrder: '3' });
    // Act
    let response: Awaited<ReturnType<typeof callApi>> | undefined;
    const logs = await stdoutLinesDuring(async () => {
      response = await callApi(listLabels, { apiKey: tenant.adminKey, method: 'GET' });
    });
    // Assess
    expect(response?.status).toBe(500);
    expect(response?.body).toMatchObject({ success: false, error: 'internal_error' });
    expect(logs.join('\n')).toContain('A stored label does not have its declared shape: displayOrder: expected number, got string');
  });
});
