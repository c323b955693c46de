import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as listWebhooks } from '../../functions/webhooks-list';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { getSubscriptions } from '../../shared/data/webhook-subscriptions';
import { secretContext } from '../../shared/domain/integrator-webhooks';
import { secretBox } from '../../shared/events/secret-box';
import { signDelivery } from '../../shared/events/signing';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

beforeAll(() => {
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
});

describe('webhooks/manage and webhooks/list', () => {
  it('creates a subscription with a Standard Webhooks secret shown once, and lists it without the secret', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const created = await callApi(manageWebhook, {
      apiKey: tenant.adminKey,
      params: { url: 'https://example.com/hooks', events: 'message.status,message.received', description: 'CRM' },
    });
    const listed = await callApi(listWebhooks, { apiKey: tenant.adminKey, method: 'GET' });
    // Assess
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      channelId: tenant.channelIds[0],
      url: 'https://example.com/hooks',
      events: ['message.status', 'message.received'],
      isActive: true,
      description: 'CRM',
      created: true,
    });
    expect(created.body.data.id).toMatch(/^wh_/);
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(listed.body.data).toEqual([
      {
        id: created.body.data.id,
        channelId: tenant.channelIds[0],
        url: 'https://example.com/hooks',
        events: ['message.status', 'message.received'],
        isActive: true,
        description: 'CRM',
        disabledReason: null,
        lastDeliveryAt: null,
        lastAttemptAt: null,
        lastStatusCode: null,
        failingSince: null,
        createdBy: tenant.adminUserId,
        rotatedBy: tenant.adminUserId,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  it('stores the secret sealed: the item holds no plaintext, and the box opens it only for its own subscription', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/sealed' } });
    const { id, secret } = created.body.data;
    // Act
    const { subs } = await getSubscriptions({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });
    const sealed = subs[id].secrets[0].sealed;
    const opened = await secretBox().open(sealed, secretContext(tenant.workspaceId, tenant.channelIds[0], id));
    // Assess
    expect(JSON.stringify(subs)).not.toContain(secret.slice(6));
    expect(opened).toBe(secret);
    await expect(secretBox().open(sealed, secretContext(tenant.workspaceId, tenant.channelIds[0], 'wh_other'))).rejects.toThrow();
  });

  it('matches the url, updates only what is given, and rotates the secret keeping the previous one signing', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const first = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/h', events: ['message.status'] } });
    // Act
    const updated = await callApi(manageWebhook, { apiKey: tenant.adminKey, method: 'GET', params: { url: 'https://example.com/h', isActive: 'false' } });
    const rotated = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/h', rotateSecret: true } });
    const { subs } = await getSubscriptions({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });
    const secrets = await Promise.all(
      subs[first.body.data.id].secrets.map((s) => secretBox().open(s.sealed, secretContext(tenant.workspaceId, tenant.channelIds[0], first.body.data.id))),
    );
    const body = JSON.stringify({ id: 'evt_1', type: 'message.status', timestamp: new Date().toISOString(), data: {} });
    const at = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(at), 'webhook-signature': signDelivery(secrets, 'evt_1', at, body) };
    // Assess
    expect(updated.body.data).toMatchObject({ id: first.body.data.id, events: ['message.status'], isActive: false, created: false });
    expect(updated.body.data.secret).toBeUndefined();
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(first.body.data.secret);
    expect(secrets).toEqual([rotated.body.data.secret, first.body.data.secret]);
    expect(subs[first.body.data.id].secrets[1].retiresAt).toBeDefined();
    expect(() => new Webhook(first.body.data.secret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.body.data.secret).verify(body, headers)).not.toThrow();
  });

  it('refuses an eleventh subscription and keeps the ten', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await Promise.all(Array.from({ length: 10 }, (_, i) => callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: `https://example.com/h${i}` } })));
    // Act
    const eleventh = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/h10' } });
    const listed = await callApi(listWebhooks, { apiKey: tenant.adminKey });
    // Assess
    expect(eleventh.status).toBe(400);
    expect(eleventh.body).toMatchObject({ error: 'limit_reached', details: { parameter: 'url' } });
    expect(listed.body.data).toHaveLength(10);
  });

  it.each([
    ['http://10.0.0.5/hook'],
    ['https://10.1.2.3/hook'],
    ['https://169.254.169.254/latest/meta-data'],
    ['http://192.168.1.10:8080/'],
    ['https://[fd00::1]/'],
    ['http://example.com/plain-http'],
    ['ftp://example.com/'],
    ['https://user:pw@example.com/'],
    ['not a url'],
  ])('refuses %s with a 400 naming url and stores nothing', async (url) => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const response = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url } });
    const listed = await callApi(listWebhooks, { apiKey: tenant.adminKey });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, details: { parameter: 'url' } });
    expect(listed.body.data).toEqual([]);
  });

  it('refuses unknown event types naming events', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const response = await callApi(manageWebhook, {
      apiKey: tenant.adminKey,
      params: { url: 'https://example.com/x', events: ['message.status', 'message.exploded'] },
    });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ details: { parameter: 'events' } });
    expect(response.body.message).toContain('message.exploded');
  });

  it('accepts a loopback receiver on the local stack only', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const local = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'http://127.0.0.1:9999/hook' } });
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    const aws = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'http://localhost:9998/hook' } }).finally(() => {
      process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
    });
    // Assess
    expect(local.status).toBe(200);
    expect(aws.status).toBe(400);
    expect(aws.body.details).toEqual({ parameter: 'url' });
  });
});
