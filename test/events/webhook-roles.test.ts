import { describe, expect, it } from 'vitest';
import { handler as listWebhooks } from '../../functions/webhooks-list';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { getSubscriptions } from '../../shared/data/webhook-subscriptions';
import { callApi } from '../support/api';
import { createTeamKey, createTenant } from '../support/tenants';

/**
 * Function-level authorization (OWASP API5, INTERFACE §13): a team key may use its
 * channels for everything but managing and deleting webhook subscriptions, so it can
 * neither take over an admin's subscription (a rotated secret is a forging key) nor
 * switch it off. Every subscription records who created it and who last rotated it.
 */
describe('webhook roles', () => {
  it("refuses a team key's rotation of an admin's webhook secret with 403 forbidden, and changes nothing", async () => {
    // Prepare
    const tenant = await createTenant(1);
    const team = await createTeamKey(tenant, tenant.channelIds);
    const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/roles' } });
    const before = await getSubscriptions({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });
    // Act
    const rotated = await callApi(manageWebhook, { apiKey: team.apiKey, params: { url: 'https://example.com/roles', rotateSecret: true } });
    const deactivated = await callApi(manageWebhook, { apiKey: team.apiKey, params: { url: 'https://example.com/roles', isActive: false } });
    const listed = await callApi(listWebhooks, { apiKey: team.apiKey, method: 'GET' });
    // Assess
    for (const refused of [rotated, deactivated]) {
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('forbidden');
      expect(refused.body.message).toMatch(/admin key/);
      expect(JSON.stringify(refused.body)).not.toContain('whsec_');
    }
    expect(await getSubscriptions({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] })).toEqual(before);
    // Reading stays open to the team key.
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([created.body.data.id]);
  });

  it('records who created a subscription and who last rotated its secret', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const otherAdmin = await createTeamKey(tenant, tenant.channelIds, 'admin');
    const channel = { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] };
    const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/audit' } });
    const afterCreate = (await getSubscriptions(channel)).subs[created.body.data.id];
    // Act
    await callApi(manageWebhook, { apiKey: otherAdmin.apiKey, params: { url: 'https://example.com/audit', rotateSecret: true } });
    await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/audit', description: 'no rotation' } });
    const listed = await callApi(listWebhooks, { apiKey: tenant.adminKey, method: 'GET' });
    // Assess
    expect(afterCreate).toMatchObject({ createdBy: tenant.adminUserId, rotatedBy: tenant.adminUserId });
    expect(listed.body.data[0]).toMatchObject({ createdBy: tenant.adminUserId, rotatedBy: otherAdmin.userId });
  });
});
