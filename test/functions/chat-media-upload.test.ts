import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { handler as uploadMedia, response } from '../../functions/chat-media-upload';
import { accessTokenFor } from '../../shared/chat/access-tokens';
import { callApi } from '../support/api';
import { type ChatNetwork, type ChatTenant, useChatTenant } from '../support/chat';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

const upload = (params: Record<string, unknown>) => callApi(uploadMedia, { apiKey: tenant.adminKey, method: 'POST', params });
const uploadRequests = () => network.sandbox.requests.filter((request) => request.path.endsWith('/media')).length;
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('a receipt, photographed')]);

/** The bytes the chat network holds under a media id, read as a send would use them: with the channel's token. */
async function heldBytes(mediaId: string): Promise<{ mimeType: string; bytes: Buffer }> {
  const token = await accessTokenFor(tenant.channels[0]);
  const info = (await (await fetch(`${network.sandbox.graphBaseUrl}/${mediaId}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    url: string;
    mime_type: string;
  };
  const download = await fetch(info.url, { headers: { Authorization: `Bearer ${token}` } });
  return { mimeType: info.mime_type, bytes: Buffer.from(await download.arrayBuffer()) };
}

describe('chat/media/upload', () => {
  it("uploads the decoded bytes to the channel's number on the chat network and answers its media id", async () => {
    // Act
    const answer = await upload({ mimeType: 'image/png', data: PNG.toString('base64'), filename: 'receipt.png' });
    // Assess
    expect(answer.status).toBe(200);
    expect(v.is(response.data, answer.body.data)).toBe(true);
    expect(answer.body.data).toMatchObject({ type: 'image', fileSize: PNG.length });
    expect(await heldBytes(answer.body.data.mediaId)).toEqual({ mimeType: 'image/png', bytes: PNG });
  });

  it("takes a document under WhatsApp's document types, with MIME parameters and base64 line breaks", async () => {
    // Act
    const base64 = Buffer.from('Order 1042: 2 × parcel\n').toString('base64');
    const answer = await upload({ mimeType: 'text/plain; charset=utf-8', data: `${base64.slice(0, 8)}\n${base64.slice(8)}` });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.data.type).toBe('document');
    expect((await heldBytes(answer.body.data.mediaId)).bytes.toString()).toBe('Order 1042: 2 × parcel\n');
  });

  it('refuses a type WhatsApp does not take with 400 naming mimeType, before the chat network', async () => {
    // Prepare
    const before = uploadRequests();
    // Act
    const answer = await upload({ mimeType: 'image/gif', data: PNG.toString('base64') });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'unsupported_media_type', details: { parameter: 'mimeType' } });
    expect(answer.body.message).toContain('image/jpeg');
    expect(uploadRequests()).toBe(before);
  });

  it("refuses bytes above the type's limit (a sticker: 500 KB) with 400 naming data, before the chat network", async () => {
    // Prepare
    const before = uploadRequests();
    // Act
    const sticker = await upload({ mimeType: 'image/webp', data: Buffer.alloc(500 * 1024 + 1).toString('base64') });
    // Assess
    expect(sticker.status).toBe(400);
    expect(sticker.body).toMatchObject({ error: 'payload_too_large', details: { parameter: 'data' } });
    expect(uploadRequests()).toBe(before);
  });

  it('takes 4.7 MB decoded and refuses 4.8 MB: the body limit (the invocation payload, 6 MB) is the real ceiling', async () => {
    // Act
    const fits = await upload({ mimeType: 'video/mp4', data: Buffer.alloc(4_700_000, 7).toString('base64') });
    const over = await upload({ mimeType: 'video/mp4', data: Buffer.alloc(4_800_000, 7).toString('base64') });
    // Assess
    expect(fits.status).toBe(200);
    expect(fits.body.data.fileSize).toBe(4_700_000);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'payload_too_large', details: { parameter: 'body' } });
  });

  it('refuses data that is not base64, or empty, with 400 naming data: a control character inside it among them', async () => {
    // Act
    // Line breaks, spaces and tabs wrap base64; any other control or space character inside it is not base64.
    const valid = PNG.toString('base64');
    const inside = ['\u000b', '\u000c', '\u0000', '\u00a0', '\u2028'].map((char) => `${valid.slice(0, 4)}${char}${valid.slice(4)}`);
    const answers = await Promise.all(['not base64!', '', 'QUJD*A==', ...inside].map((data) => upload({ mimeType: 'image/png', data })));
    // Assess
    for (const refused of answers) {
      expect(refused.status).toBe(400);
      expect(refused.body.details.parameter).toBe('data');
    }
  });
});
