import { describe, expect, it } from 'vitest';
import { handler as listFields } from '../../functions/custom-fields-list';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { LIMITS } from '../../shared/schema/params';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

describe('custom-fields/manage and custom-fields/list', () => {
  it('creates a text field by default, and a dropdown from a comma-separated GET', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const text = await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'City' } });
    const dropdown = await callApi(manageField, {
      apiKey: tenant.adminKey,
      method: 'GET',
      params: { name: 'Tier', type: 'dropdown', options: 'gold, silver', isRequired: 'true' },
    });
    const listed = await callApi(listFields, { apiKey: tenant.adminKey });
    // Assess
    expect(text.body.data).toMatchObject({ name: 'City', type: 'text', isRequired: false, options: [], created: true });
    expect(dropdown.body.data).toMatchObject({ name: 'Tier', type: 'dropdown', isRequired: true, options: ['gold', 'silver'] });
    expect(listed.body.data.map((f: { name: string }) => f.name).sort()).toEqual(['City', 'Tier']);
  });

  it('updates the field matched by name case-insensitively', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const first = await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'Tier', type: 'dropdown', options: ['a'] } });
    // Act
    const second = await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'TIER', options: ['a', 'b'], isRequired: false } });
    // Assess
    expect(second.body.data).toMatchObject({ id: first.body.data.id, name: 'Tier', type: 'dropdown', options: ['a', 'b'], created: false });
  });

  it('refuses a dropdown without options and options on a text field', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const noOptions = await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'Tier', type: 'dropdown' } });
    const textOptions = await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'City', type: 'text', options: ['x'] } });
    const listed = await callApi(listFields, { apiKey: tenant.adminKey });
    // Assess
    expect(noOptions.status).toBe(400);
    expect(noOptions.body.details.parameter).toBe('options');
    expect(textOptions.status).toBe(400);
    expect(listed.body.data).toEqual([]);
  });

  it.each([
    [{ name: 'x', type: 'colour' }, 'type'],
    [{ name: 'x', isRequired: 'yes' }, 'isRequired'],
    [{ name: 'x', type: 'dropdown', options: 5 }, 'options'],
    [{ name: 'x', type: 'dropdown', options: Array.from({ length: LIMITS.optionEntries + 1 }, (_, i) => `option ${i}`) }, 'options'],
    [{ name: 'x', type: 'dropdown', options: Array.from({ length: LIMITS.optionEntries + 1 }, (_, i) => `option ${i}`).join(',') }, 'options'],
    [{ name: 'x', type: 'dropdown', options: ['gold', 'x'.repeat(LIMITS.optionLength + 1)] }, 'options'],
  ])('refuses %j naming %s and writes nothing', async (params, parameter) => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const response = await callApi(manageField, { apiKey: tenant.adminKey, params });
    const listed = await callApi(listFields, { apiKey: tenant.adminKey });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.details.parameter).toBe(parameter);
    expect(response.body.message).toContain(parameter);
    expect(listed.body.data).toEqual([]);
  });

  it(`accepts ${LIMITS.optionEntries} options of ${LIMITS.optionLength} characters`, async () => {
    // Prepare
    const tenant = await createTenant(1);
    const options = Array.from({ length: LIMITS.optionEntries }, (_, i) => `${i} `.padEnd(LIMITS.optionLength, 'x'));
    // Act
    const response = await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'Plan', type: 'dropdown', options } });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.options).toEqual(options);
  });
});
