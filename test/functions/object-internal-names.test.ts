import { describe, expect, it } from 'vitest';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as manageField } from '../../functions/custom-fields-manage';
import { handler as manageLabel } from '../../functions/labels-manage';
import { getContact } from '../../shared/data/contacts';
import { parseSteps } from '../../shared/domain/automation-steps';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

/**
 * Custom fields and labels named after JavaScript object internals: stored and
 * enforced like any other name, or (`__proto__`, which the document client cannot
 * read back) refused where it is defined — never a 200 for a value that was dropped.
 */

const STORABLE = ['constructor', 'prototype', 'valueOf', 'toString', 'hasOwnProperty'];

/** An object with an own property of this name, whatever it is (`{ __proto__: … }` would set the prototype). */
function own(name: string, value: unknown): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

describe('custom fields named after object internals', () => {
  it.each(STORABLE)('stores and returns a value of a field named %s, by POST and by GET', async (name) => {
    // Prepare
    const tenant = await createTenant(1);
    const defined = await callApi(manageField, { apiKey: tenant.adminKey, params: { name } });
    // Act
    const posted = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', customFieldsData: own(name, 'by post') } });
    const afterPost = await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, '14155550100');
    const got = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      method: 'GET',
      params: { phoneNumber: '+14155550100', customFieldsData: `${name}:by get` },
    });
    const afterGet = await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, '14155550100');
    // Assess
    expect(defined.status).toBe(200);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(Object.hasOwn(posted.body.data.customFields, name) && posted.body.data.customFields[name]).toBe('by post');
    expect(Object.hasOwn(afterPost!.customFields, name) && afterPost!.customFields[name]).toBe('by post');
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(Object.hasOwn(afterGet!.customFields, name) && afterGet!.customFields[name]).toBe('by get');
  });

  it.each(['valueOf', 'toString', 'hasOwnProperty', 'constructor'])('enforces a required field named %s on create', async (name) => {
    // Prepare
    const tenant = await createTenant(1);
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name, isRequired: true } });
    // Act
    const without = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550101', name: 'No field' } });
    const stored = await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, '14155550101');
    const withIt = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550101', customFieldsData: own(name, 'given') } });
    // Assess
    expect(without.status, JSON.stringify(without.body)).toBe(400);
    expect(without.body).toMatchObject({ error: 'missing_parameter', details: { parameter: 'customFieldsData', missing: [name] } });
    expect(stored).toBeUndefined();
    expect(withIt.status, JSON.stringify(withIt.body)).toBe(200);
    expect(withIt.body.data.created).toBe(true);
  });

  it('refuses __proto__ as a field name (400 naming name) and as a customFieldsData key (400 naming customFieldsData), GET and POST', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await callApi(manageField, { apiKey: tenant.adminKey, params: { name: 'city' } });
    // Act
    const field = await callApi(manageField, { apiKey: tenant.adminKey, params: { name: '__proto__' } });
    const posted = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      params: { phoneNumber: '+14155550102', customFieldsData: { city: 'Porto', ...own('__proto__', 'x') } },
    });
    const jsonInGet = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      method: 'GET',
      params: { phoneNumber: '+14155550102', customFieldsData: '{"city":"Porto","__proto__":"x"}' },
    });
    const pairs = await callApi(manageContact, {
      apiKey: tenant.adminKey,
      method: 'GET',
      params: { phoneNumber: '+14155550102', customFieldsData: 'city:Porto,__proto__:x' },
    });
    // Assess
    expect(field.status, JSON.stringify(field.body)).toBe(400);
    expect(field.body.details.parameter).toBe('name');
    for (const response of [posted, jsonInGet, pairs]) {
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.details.parameter.split('.')[0]).toBe('customFieldsData');
    }
    expect(await getContact({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, '14155550102')).toBeUndefined();
  });

  it('keeps such names in a set_custom_fields step and refuses __proto__ there', () => {
    // Act
    const steps = parseSteps([{ type: 'set_custom_fields', fields: { ...own('constructor', 'a'), ...own('valueOf', 'b') } }]);
    // Assess
    expect(steps[0]).toMatchObject({ type: 'set_custom_fields' });
    const fields = (steps[0] as { fields: Record<string, unknown> }).fields;
    expect(Object.hasOwn(fields, 'constructor') && fields.constructor).toBe('a');
    expect(Object.hasOwn(fields, 'valueOf') && fields.valueOf).toBe('b');
    expect(() => parseSteps([{ type: 'set_custom_fields', fields: { city: 'x', ...own('__proto__', 'y') } }])).toThrow(/fields/);
  });
});

describe('labels named after object internals', () => {
  it.each([...STORABLE, '__proto__'])('creates a label named %s and attaches it to a contact', async (name) => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const label = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name } });
    const contact = await callApi(manageContact, { apiKey: tenant.adminKey, method: 'GET', params: { phoneNumber: '+14155550103', labelNames: name } });
    // Assess
    expect(label.status, JSON.stringify(label.body)).toBe(200);
    expect(contact.status, JSON.stringify(contact.body)).toBe(200);
    expect(contact.body.data.labels.map((l: { name: string }) => l.name)).toEqual([name]);
  });
});
