import { describe, expect, it } from 'vitest';
import { buildMediaPayload, buildTemplatePayload, buildTextPayload } from '../../shared/chat/graph-client';
import { countTemplateVariables } from '../../shared/chat/templates';

/** The Cloud API send body to 4915112345678: the fields every message type shares, and the type's own. */
const cloudMessage = (type: string, content: Record<string, unknown>) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to: '4915112345678',
  type,
  ...content,
});

describe('payload builders', () => {
  it('builds a text message in the Cloud API format, leaving preview_url out unless chosen', () => {
    // Prepare / Act
    const plain = buildTextPayload('4915112345678', 'Hello');
    const withPreview = buildTextPayload('4915112345678', 'See https://example.com', true);

    // Assess
    expect(plain).toEqual(cloudMessage('text', { text: { body: 'Hello' } }));
    expect(withPreview.text).toEqual({ body: 'See https://example.com', preview_url: true });
  });

  it('builds media messages with caption and filename only where the Cloud API takes them', () => {
    // Prepare
    const media = { link: 'https://example.com/f.pdf', caption: 'Invoice', filename: 'invoice.pdf' };

    // Act
    const document = buildMediaPayload('4915112345678', 'document', media);
    const image = buildMediaPayload('4915112345678', 'image', media);
    const audio = buildMediaPayload('4915112345678', 'audio', media);

    // Assess
    expect(document).toEqual(cloudMessage('document', { document: { link: 'https://example.com/f.pdf', caption: 'Invoice', filename: 'invoice.pdf' } }));
    expect(image.image).toEqual({ link: 'https://example.com/f.pdf', caption: 'Invoice' });
    expect(audio.audio).toEqual({ link: 'https://example.com/f.pdf' });
  });

  it('builds a template with header and positional body parameters', () => {
    // Prepare / Act
    const text = buildTemplatePayload('4915112345678', {
      name: 'order_update',
      languageCode: 'en',
      header: { type: 'text', text: 'Ann' },
      bodyVariables: ['Ann', '123'],
    });
    const image = buildTemplatePayload('4915112345678', {
      name: 'promo_image',
      languageCode: 'en',
      header: { type: 'image', link: 'https://example.com/p.jpg' },
      bodyVariables: ['Sale'],
    });

    // Assess
    expect(text).toEqual(
      cloudMessage('template', {
        template: {
          name: 'order_update',
          language: { code: 'en' },
          components: [
            { type: 'header', parameters: [{ type: 'text', text: 'Ann' }] },
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ann' },
                { type: 'text', text: '123' },
              ],
            },
          ],
        },
      }),
    );
    expect(image.template.components?.[0]).toEqual({
      type: 'header',
      parameters: [{ type: 'image', image: { link: 'https://example.com/p.jpg' } }],
    });
  });

  it('omits components for a template without variables', () => {
    // Prepare / Act
    const payload = buildTemplatePayload('4915112345678', { name: 'hello_world', languageCode: 'en_US', bodyVariables: [] });

    // Assess
    expect(payload.template).toEqual({ name: 'hello_world', language: { code: 'en_US' } });
    expect('components' in payload.template).toBe(false);
  });
});

describe('countTemplateVariables', () => {
  it('counts distinct body placeholders and reports the header shape', () => {
    // Prepare
    const textHeader = [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, order {{2}} for {{1}} ships {{3}}.' },
      { type: 'FOOTER', text: 'Thanks {{9}}' },
    ];
    const imageHeader = [
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: '{{1}}' },
    ];

    // Act / Assess
    expect(countTemplateVariables(textHeader)).toEqual({ bodyVariables: 3, header: { format: 'TEXT', variables: 1 } });
    expect(countTemplateVariables(imageHeader)).toEqual({ bodyVariables: 1, header: { format: 'IMAGE' } });
    expect(countTemplateVariables([{ type: 'BODY', text: 'Hello World' }])).toEqual({ bodyVariables: 0, header: null });
  });

  it('tolerates missing components and lower-case types', () => {
    // Act / Assess
    expect(countTemplateVariables(undefined)).toEqual({ bodyVariables: 0, header: null });
    expect(
      countTemplateVariables([
        { type: 'header', format: 'document' },
        { type: 'body', text: '{{ 1 }} {{2}}' },
      ]),
    ).toEqual({
      bodyVariables: 2,
      header: { format: 'DOCUMENT' },
    });
  });
});
