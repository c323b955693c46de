import { describe, expect, it } from 'vitest';
import { inboundContent } from '../../shared/chat/inbound-content';

describe('inbound content by type', () => {
  it('keeps the chatmid a reply quotes (context.id) as replyTo, on any type', () => {
    // Act
    const text = inboundContent({ type: 'text', context: { from: '15550000001', id: 'wamid.quoted' } }, 'Yes please');
    const buttonReply = inboundContent({
      type: 'interactive',
      context: { id: 'wamid.buttons' },
      interactive: { type: 'button_reply', button_reply: { id: 'refund', title: 'Refund' } },
    });
    const plain = inboundContent({ type: 'text', context: { id: 42 } }, 'Hi');
    // Assess
    expect(text).toEqual({ type: 'text', content: { body: 'Yes please', replyTo: 'wamid.quoted' } });
    expect(buttonReply).toEqual({ type: 'interactive', content: { replyType: 'button_reply', id: 'refund', title: 'Refund', replyTo: 'wamid.buttons' } });
    expect(plain).toEqual({ type: 'text', content: { body: 'Hi' } });
  });

  it('never throws on missing or mistyped fields, and keeps what it understands', () => {
    // Act
    const results = [
      inboundContent({ type: 'image' }),
      inboundContent({ type: 'image', image: 'not an object' }),
      inboundContent({ type: 'location', location: { latitude: '38.5', longitude: null } }),
      inboundContent({ type: 'interactive', interactive: { type: 'nfm_reply' } }),
      inboundContent({ type: 'contacts', contacts: [null, 3, { name: { first_name: 'Ann', last_name: 'Lee' }, phones: [{ wa_id: '14155550000' }] }] }),
      inboundContent({}),
    ];
    // Assess
    expect(results).toEqual([
      { type: 'image', content: {} },
      { type: 'image', content: {} },
      { type: 'location', content: { latitude: 38.5 } },
      { type: 'unsupported', content: { rawType: 'interactive' } },
      {
        type: 'contacts',
        content: {
          contacts: [
            { phones: [], emails: [] },
            { phones: [], emails: [] },
            { name: 'Ann Lee', phones: [{ phone: '14155550000', waId: '14155550000' }], emails: [] },
          ],
        },
      },
      { type: 'unsupported', content: { rawType: 'unknown' } },
    ]);
  });

  it('bounds strings and lists, and keeps a content too large for an item as unsupported with tooLarge', () => {
    // Prepare
    const long = 'x'.repeat(100_000);
    const many = Array.from({ length: 100 }, (_, i) => ({
      name: { formatted_name: `${i}${long}` },
      phones: Array.from({ length: 100 }, () => ({ phone: long })),
    }));
    // Act
    const caption = inboundContent({ type: 'image', image: { id: 'm', caption: long } });
    const huge = inboundContent({ type: 'contacts', contacts: many });
    const text = inboundContent({ type: 'text', text: { body: long } }, 'cut by the caller');
    // Assess
    expect((caption.content.caption as string).length).toBe(4_096);
    expect(huge).toEqual({ type: 'unsupported', content: { rawType: 'contacts', tooLarge: true } });
    expect(text.content).toEqual({ body: 'cut by the caller' });
  });
});
