import { describe, expect, it } from 'vitest';
import { parseWebhookPayload } from '../../shared/chat/webhook-payload';

/** A Meta-shaped delivery with one change value. */
function delivery(value: Record<string, unknown>): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '200000000000001',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550000001', phone_number_id: '100000000000001' },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

describe('parseWebhookPayload', () => {
  it('flattens statuses, with the error of a failed one', () => {
    // Prepare
    const body = delivery({
      statuses: [
        {
          id: 'wamid.A',
          status: 'delivered',
          timestamp: '1700000000',
          recipient_id: '4915112345678',
          conversation: { id: 'c1', origin: { type: 'service' } },
          pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
        },
        {
          id: 'wamid.B',
          status: 'failed',
          timestamp: '1700000001',
          recipient_id: '4915112345678',
          errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'More than 24 hours.' } }],
        },
      ],
    });

    // Act
    const events = parseWebhookPayload(body);

    // Assess
    expect(events).toEqual([
      {
        kind: 'status',
        phoneNumberId: '100000000000001',
        chatmid: 'wamid.A',
        status: 'delivered',
        timestamp: 1_700_000_000_000,
        recipientId: '4915112345678',
      },
      {
        kind: 'status',
        phoneNumberId: '100000000000001',
        chatmid: 'wamid.B',
        status: 'failed',
        timestamp: 1_700_000_001_000,
        recipientId: '4915112345678',
        error: { code: 131047, title: 'Re-engagement message', message: 'More than 24 hours.' },
      },
    ]);
  });

  it('flattens inbound messages with the sender profile, from raw text as well', () => {
    // Prepare
    const body = delivery({
      contacts: [{ profile: { name: 'Ann' }, wa_id: '551187654321' }],
      messages: [{ from: '551187654321', id: 'wamid.IN', timestamp: '1700000002', type: 'text', text: { body: 'Hi!' } }],
    });

    // Act
    const events = parseWebhookPayload(JSON.stringify(body));

    // Assess
    expect(events).toEqual([
      {
        kind: 'inbound',
        phoneNumberId: '100000000000001',
        chatmid: 'wamid.IN',
        from: '551187654321',
        waId: '551187654321',
        profileName: 'Ann',
        type: 'text',
        text: 'Hi!',
        content: { body: 'Hi!' },
        timestamp: 1_700_000_002_000,
      },
    ]);
  });

  it('keeps non-text inbound messages without text', () => {
    // Prepare
    const body = delivery({
      messages: [{ from: '4915112345678', id: 'wamid.IMG', timestamp: '1700000003', type: 'image', image: { id: 'm1' } }],
    });

    // Act
    const [event] = parseWebhookPayload(body);

    // Assess
    expect(event).toMatchObject({ kind: 'inbound', type: 'image', waId: '4915112345678' });
    expect(event).not.toHaveProperty('text');
    expect(event).not.toHaveProperty('profileName');
  });

  it('returns nothing for junk and never throws', () => {
    // Prepare
    const junk: unknown[] = [
      undefined,
      null,
      42,
      'not json',
      Buffer.from('{'),
      [],
      { object: 'page', entry: [] },
      { object: 'whatsapp_business_account', entry: 'x' },
      { object: 'whatsapp_business_account', entry: [null, { changes: [null, { value: null }, { value: { metadata: [] } }] }] },
    ];

    // Act / Assess
    for (const body of junk) expect(parseWebhookPayload(body)).toEqual([]);
  });

  it('skips odd entries but keeps the good ones beside them', () => {
    // Prepare
    const body = delivery({
      statuses: [
        { status: 'sent', timestamp: '1700000000' },
        { id: 'wamid.X', status: 'deleted', timestamp: '1700000000' },
        { id: 'wamid.Y', status: 'read', timestamp: 'yesterday' },
        'junk',
        { id: 'wamid.OK', status: 'read', timestamp: 1700000004, recipient_id: '4915112345678' },
      ],
      messages: [{ id: 'wamid.NOFROM', type: 'text', timestamp: '1700000000' }],
    });

    // Act
    const events = parseWebhookPayload(body);

    // Assess
    expect(events.map((event) => event.chatmid)).toEqual(['wamid.OK']);
  });

  it('clamps an out-of-range timestamp to the receiving time and drops a malformed one or an overlong id, with a warning each', () => {
    // Prepare
    const now = 1_750_000_000_000;
    const warnings: Array<[string, Record<string, unknown>]> = [];
    const body = delivery({
      statuses: [
        { id: 'wamid.FAR', status: 'read', timestamp: '9000000000000', recipient_id: '4915112345678' },
        { id: 'wamid.HUGE', status: 'read', timestamp: 1e300, recipient_id: '4915112345678' },
        { id: 'wamid.NEG', status: 'sent', timestamp: -5, recipient_id: '4915112345678' },
        { id: 'wamid.SOON', status: 'sent', timestamp: String(now / 1000 + 60), recipient_id: '4915112345678' },
        { id: 'wamid.BAD', status: 'sent', timestamp: '17e8', recipient_id: '4915112345678' },
        { id: `wamid.${'x'.repeat(300)}`, status: 'sent', timestamp: '1700000000', recipient_id: '4915112345678' },
        { id: 'wamid.CODE', status: 'failed', timestamp: '1700000000', recipient_id: '4915112345678', errors: [{ code: 1e300, title: 'Odd' }] },
      ],
    });
    // Act
    const events = parseWebhookPayload(body, { now, warn: (message, fields) => warnings.push([message, fields]) });
    // Assess
    expect(events.map((event) => [event.chatmid, event.timestamp])).toEqual([
      ['wamid.FAR', now],
      ['wamid.HUGE', now],
      ['wamid.NEG', now],
      ['wamid.SOON', now + 60_000],
      ['wamid.CODE', 1_700_000_000_000],
    ]);
    expect((events[4] as { error?: unknown }).error).toEqual({ title: 'Odd', message: 'Odd' });
    expect(warnings.map(([message]) => message)).toEqual([
      expect.stringContaining('clamped'),
      expect.stringContaining('clamped'),
      expect.stringContaining('clamped'),
      expect.stringContaining('malformed'),
      expect.stringContaining('id too long'),
    ]);
  });

  it('cuts an inbound text longer than 65,536 characters and leaves out an overlong profile name, with a warning each', () => {
    // Prepare
    const warnings: string[] = [];
    const body = delivery({
      contacts: [{ profile: { name: 'n'.repeat(300) }, wa_id: '4915112345678' }],
      messages: [{ from: '4915112345678', id: 'wamid.LONG', timestamp: '1700000000', type: 'text', text: { body: 't'.repeat(70_000) } }],
    });
    // Act
    const [event] = parseWebhookPayload(body, { now: 1_750_000_000_000, warn: (message) => warnings.push(message) });
    // Assess
    expect(event).toMatchObject({ kind: 'inbound', chatmid: 'wamid.LONG' });
    expect((event as { text?: string }).text).toHaveLength(65_536);
    expect(event).not.toHaveProperty('profileName');
    expect(warnings).toEqual([expect.stringContaining('profile name'), expect.stringContaining('truncated')]);
  });
});
