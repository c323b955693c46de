import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, newWebhookSecret } from '../../shared/events/signing';

describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'message.status', timestamp: '2026-11-26T06:00:00.000Z', data: { status: 'delivered' } });
  const now = () => Math.floor(Date.now() / 1000);

  it('writes secrets of the whsec_ form with at least 24 random bytes, never the same twice', () => {
    // Act
    const secrets = [newWebhookSecret(), newWebhookSecret()];

    // Assess
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    }
    expect(secrets[0]).not.toBe(secrets[1]);
  });

  it('signs so that the standardwebhooks library verifies the delivery', () => {
    // Prepare
    const secret = newWebhookSecret();

    // Act
    const headers = deliveryHeaders([secret], 'evt_1', now(), body);

    // Assess
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['content-type']).toBe('application/json');
  });

  it('signs with every secret during a rotation, so a receiver holding either one verifies', () => {
    // Prepare
    const [previous, current] = [newWebhookSecret(), newWebhookSecret()];

    // Act
    const headers = deliveryHeaders([current, previous], 'evt_2', now(), body);

    // Assess
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('does not verify under another secret, a changed body or another id', () => {
    // Prepare
    const secret = newWebhookSecret();
    const headers = deliveryHeaders([secret], 'evt_3', now(), body);

    // Act / Assess
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('delivered', 'read'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_4' })).toThrow();
  });
});
