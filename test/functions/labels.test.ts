import { describe, expect, it } from 'vitest';
import { handler as listLabels } from '../../functions/labels-list';
import { handler as manageLabel } from '../../functions/labels-manage';
import { LIMITS } from '../../shared/schema/params';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

describe('labels/manage and labels/list', () => {
  it('creates a label with every field and lists it', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const created = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'VIP', description: 'Top', color: '#ff8800', displayOrder: 3 } });
    const listed = await callApi(listLabels, { apiKey: tenant.adminKey, method: 'GET' });
    // Assess
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      name: 'VIP',
      description: 'Top',
      color: '#FF8800',
      displayOrder: 3,
      channelId: tenant.channelIds[0],
      created: true,
    });
    expect(created.body.data.id).toMatch(/^lb_/);
    expect(listed.body.data).toEqual([
      { id: created.body.data.id, channelId: tenant.channelIds[0], name: 'VIP', description: 'Top', color: '#FF8800', displayOrder: 3 },
    ]);
  });

  it('matches the name case-insensitively on update, keeps the first case and changes only given fields', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const first = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'VIP', color: '#111111', displayOrder: 1 } });
    // Act
    const second = await callApi(manageLabel, { apiKey: tenant.adminKey, method: 'GET', params: { name: 'vip', displayOrder: '7' } });
    const listed = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(second.body.data).toMatchObject({ id: first.body.data.id, name: 'VIP', color: '#111111', displayOrder: 7, created: false });
    expect(listed.body.data).toHaveLength(1);
  });

  it('orders the list by displayOrder, then name', async () => {
    // Prepare
    const tenant = await createTenant(1);
    for (const [name, displayOrder] of [
      ['b', 2],
      ['a', 2],
      ['z', 1],
    ] as const) {
      await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name, displayOrder } });
    }
    // Act
    const listed = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(listed.body.data.map((l: { name: string }) => l.name)).toEqual(['z', 'a', 'b']);
  });

  it.each([
    [{ name: 'x', color: 'red' }, 'color'],
    [{ name: 'x', color: '#12345' }, 'color'],
    [{ name: 'x', displayOrder: 1.5 }, 'displayOrder'],
    [{ name: 'x', displayOrder: 'abc' }, 'displayOrder'],
    [{ color: '#123456' }, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'x', description: 'x'.repeat(LIMITS.labelDescription + 1) }, 'description'],
  ])('refuses %j with a 400 naming %s and writes nothing', async (params, parameter) => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const response = await callApi(manageLabel, { apiKey: tenant.adminKey, params });
    const listed = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, details: { parameter } });
    expect(response.body.message).toContain(parameter);
    expect(listed.body.data).toEqual([]);
  });
});

describe('the per-channel limit on labels', () => {
  it('refuses a new label past the limit, still updates existing ones, and counts a lost create race back', async () => {
    // Prepare: a channel one label short of the limit (set directly: creating 999 labels is slow)
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, tableName } = await import('../../shared/data/client');
    const { keys } = await import('../../shared/data/keys');
    const { MAX_LABELS_PER_CHANNEL } = await import('../../shared/data/definitions');
    const tenant = await createTenant(1);
    await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'first' } });
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.contactHead({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }),
        UpdateExpression: 'SET labelCount = :n',
        ExpressionAttributeValues: { ':n': MAX_LABELS_PER_CHANNEL - 1 },
      }),
    );
    // Act
    const last = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'last' } });
    const refused = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'one too many' } });
    const update = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'FIRST', color: '#000000' } });
    const listed = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(last.status).toBe(200);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'limit_reached', details: { parameter: 'name' } });
    expect(refused.body.message).toContain(String(MAX_LABELS_PER_CHANNEL));
    expect(update.body.data).toMatchObject({ name: 'first', color: '#000000', created: false });
    expect(listed.body.data.map((l: { name: string }) => l.name)).toEqual(['first', 'last']);
  });

  it('counts each label once when 10 calls create the same one concurrently', async () => {
    // Prepare
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, tableName } = await import('../../shared/data/client');
    const { keys } = await import('../../shared/data/keys');
    const tenant = await createTenant(1);
    // Act
    const responses = await Promise.all(Array.from({ length: 10 }, () => callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'Same' } })));
    const head = await db.send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.contactHead({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }),
        ConsistentRead: true,
      }),
    );
    // Assess
    expect(responses.filter((r) => r.body.data?.created === true)).toHaveLength(1);
    expect(head.Item?.labelCount).toBe(1);
  });
});
