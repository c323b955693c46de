import { describe, expect, it } from 'vitest';
import { contractViolations, eventViolations, type ObservedResponse } from '../support/contract';
import { startReceiver } from '../support/receiver';

/** The contract checker itself: it must accept what the API answers and catch what the document does not say. */

const BASE = 'http://127.0.0.1:3000/api/workspace/v1';
const okHeaders = () =>
  new Headers({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-request-id': 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
    'ratelimit-policy': '"api_read";q=120;w=60',
    ratelimit: '"api_read";r=119;t=60',
    'ratelimit-limit': '120',
    'ratelimit-remaining': '119',
    'ratelimit-reset': '60',
  });
const channel = { id: 'ch_1', name: 'Support', phoneNumberId: '1000', isActive: true };
const channelsList = (overrides: Partial<ObservedResponse> = {}): ObservedResponse => ({
  method: 'POST',
  url: `${BASE}/channels/list`,
  status: 200,
  headers: okHeaders(),
  body: { success: true, data: [channel], message: 'Found 1 channel(s)' },
  ...overrides,
});

describe('the contract check of test/support/contract.ts', () => {
  it('accepts a response that matches the document', () => {
    // Act / Assess
    expect(contractViolations(channelsList())).toEqual([]);
    expect(contractViolations(channelsList({ method: 'GET' }))).toEqual([]);
  });

  it('refuses undocumented fields, missing fields and wrong types in the body', () => {
    // Act
    const extra = contractViolations(channelsList({ body: { success: true, data: [{ ...channel, secret: 'x' }] } }));
    const missing = contractViolations(channelsList({ body: { success: true } }));
    const wrongType = contractViolations(channelsList({ body: { success: true, data: [{ ...channel, isActive: 'yes' }] } }));

    // Assess
    expect(extra.join()).toContain('must NOT have additional properties');
    expect(missing.join()).toContain("must have required property 'data'");
    expect(wrongType.join()).toContain('/data/0/isActive must be boolean');
  });

  it('refuses undocumented statuses, missing required headers and a 429 without Retry-After', () => {
    // Prepare
    const error = { success: false, error: 'rate_limited', message: 'Slow down.' };
    const headers = okHeaders();
    headers.delete('x-request-id');

    // Act
    const teapot = contractViolations(channelsList({ status: 418, body: { success: false, error: 'teapot' } }));
    const noRequestId = contractViolations(channelsList({ headers }));
    const noRetryAfter = contractViolations(channelsList({ status: 429, body: error }));
    const withRetryAfter = contractViolations(channelsList({ status: 429, body: error, headers: new Headers([...okHeaders(), ['retry-after', '42']]) }));

    // Assess
    expect(teapot.join()).toContain('status 418 is not documented');
    expect(noRequestId.join()).toContain('required header X-Request-Id is missing');
    expect(noRetryAfter.join()).toContain('required header Retry-After is missing');
    expect(withRetryAfter).toEqual([]);
  });

  it('expects the gateway’s 404 envelope for paths the document does not have', () => {
    // Act
    const notFound = contractViolations(
      channelsList({ url: `${BASE}/contacts/purge`, status: 404, body: { success: false, error: 'not_found', message: 'No endpoint.' } }),
    );
    const found = contractViolations(channelsList({ url: `${BASE}/contacts/purge` }));

    // Assess
    expect(notFound).toEqual([]);
    expect(found.join()).toContain('undocumented path or method answered 200');
  });
});

describe('the event check of test/support/contract.ts (every delivery test/support/receiver.ts gets)', () => {
  const optedOut = {
    id: 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8',
    type: 'contact.opted_out',
    timestamp: '2025-01-31T09:30:00.000Z',
    data: { channelId: 'ch_1', contact: { id: 'ct_1', phone: '351912345678' }, source: 'keyword', keyword: 'STOP' },
  };

  it('accepts an event that matches its type’s schema in the webhooks section', () => {
    // Act / Assess
    expect(eventViolations(optedOut)).toEqual([]);
    expect(eventViolations({ ...optedOut, data: { ...optedOut.data, source: 'api', keyword: undefined } })).toEqual([]);
  });

  it('refuses an unknown type, a missing or unknown field of data, and a wrong value', () => {
    // Act
    const unknownType = eventViolations({ ...optedOut, type: 'contact.deleted' });
    const { source: _source, ...withoutSource } = optedOut.data;
    const missing = eventViolations({ ...optedOut, data: withoutSource });
    const extra = eventViolations({ ...optedOut, data: { ...optedOut.data, reason: 'x' } });
    const wrong = eventViolations({ ...optedOut, data: { ...optedOut.data, source: 'sms' } });

    // Assess
    expect(unknownType.join()).toContain('not an event type of the webhooks section');
    expect(missing.join()).toContain("/data must have required property 'source'");
    expect(extra.join()).toContain('must NOT have additional properties');
    expect(wrong.join()).toContain('/data/source must be equal to one of the allowed values');
  });

  it('fails the test that owns a receiver which got a drifted delivery, when it closes the receiver', async () => {
    // Prepare
    const receiver = await startReceiver('/drift');
    // Act
    const good = await fetch(receiver.url, { method: 'POST', body: JSON.stringify(optedOut) });
    const drifted = await fetch(receiver.url, { method: 'POST', body: JSON.stringify({ ...optedOut, data: { channelId: 'ch_1' } }) });
    // Assess
    expect([good.status, drifted.status]).toEqual([200, 200]);
    expect(receiver.received.map((delivery) => delivery.violations.length > 0)).toEqual([false, true]);
    await expect(receiver.close()).rejects.toThrow(/disagree with the published event schemas[\s\S]*'contact'/);
  });
});
