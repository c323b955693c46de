import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/channels-list';
import { callApi } from '../support/api';
import { createTeamKey, createTenant } from '../support/tenants';

describe('channels/list', () => {
  it('lists the channels an admin key created, with the count in the message', async () => {
    // Prepare
    const tenant = await createTenant(2);
    // Act
    const response = await callApi(handler, { apiKey: tenant.adminKey, method: 'GET' });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.message).toBe('Found 2 channel(s)');
    expect(response.body.data.map((c: { id: string }) => c.id).sort()).toEqual([...tenant.channelIds].sort());
    expect(Object.keys(response.body.data[0]).sort()).toEqual(['id', 'isActive', 'name', 'phoneNumberId']);
    expect(response.body.data[0].isActive).toBe(true);
  });

  it('shows a team key only the channels assigned to its user', async () => {
    // Prepare
    const tenant = await createTenant(3);
    const team = await createTeamKey(tenant, [tenant.channelIds[1]]);
    // Act
    const response = await callApi(handler, { apiKey: team.apiKey, method: 'POST' });
    // Assess
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual([tenant.channelIds[1]]);
    expect(response.body.message).toBe('Found 1 channel(s)');
  });

  it('answers an empty list for a team key without channels', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const team = await createTeamKey(tenant, []);
    // Act
    const response = await callApi(handler, { apiKey: team.apiKey });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.message).toBe('Found 0 channel(s)');
  });

  it('never shows another workspace its channels', async () => {
    // Prepare
    const a = await createTenant(1);
    const b = await createTenant(1);
    // Act
    const response = await callApi(handler, { apiKey: b.adminKey });
    // Assess
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual(b.channelIds);
    expect(JSON.stringify(response.body)).not.toContain(a.channelIds[0]);
  });
});
