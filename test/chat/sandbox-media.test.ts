import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CONTROL_HEADER, type SandboxHandle } from '../../scripts/local/sandbox';
import { ChatNetworkError, createGraphClient } from '../../shared/chat/graph-client';
import { NUMBER_A, NUMBER_B, startTestSandbox } from './helpers';

let sandbox: SandboxHandle;
const bytes = Buffer.from('\xff\xd8\xff\xe0 a small jpeg-ish payload', 'latin1');

async function hold(phoneNumberId: string, mimeType = 'image/jpeg', data = bytes): Promise<string> {
  const response = await fetch(`${sandbox.url}/_sandbox/media`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [SANDBOX_CONTROL_HEADER]: sandbox.controlToken },
    body: JSON.stringify({ phoneNumberId, mimeType, data: data.toString('base64') }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

const graph = (path: string, token: string | undefined, method = 'GET') =>
  fetch(`${sandbox.graphBaseUrl}/${path}`, { method, headers: token ? { Authorization: `Bearer ${token}` } : {} });

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('sandbox media, as Meta serves it', () => {
  it('answers GET /{media-id} with a URL that opens the bytes with the same token only', async () => {
    const id = await hold(NUMBER_A.phoneNumberId);
    const retrieved = await graph(id, NUMBER_A.accessToken);
    expect(retrieved.status).toBe(200);
    const media = (await retrieved.json()) as Record<string, unknown>;
    expect(media).toMatchObject({
      messaging_product: 'whatsapp',
      id,
      mime_type: 'image/jpeg',
      file_size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const url = String(media.url);
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { Authorization: `Bearer ${NUMBER_B.accessToken}` } })).status).toBe(401);
    const download = await fetch(url, { headers: { Authorization: `Bearer ${NUMBER_A.accessToken}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("refuses another number's token with Meta's access error, and an unknown id", async () => {
    const id = await hold(NUMBER_A.phoneNumberId);
    const refused = await graph(id, NUMBER_B.accessToken);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(190);
    const unknown = await graph('123456789012345', NUMBER_A.accessToken);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(100);
  });

  it('deletes media: the id and its URL are gone', async () => {
    const id = await hold(NUMBER_A.phoneNumberId);
    const url = String(((await (await graph(id, NUMBER_A.accessToken)).json()) as { url: string }).url);
    const deleted = await graph(id, NUMBER_A.accessToken, 'DELETE');
    expect(await deleted.json()).toEqual({ success: true });
    expect((await graph(id, NUMBER_A.accessToken)).status).toBe(400);
    expect((await fetch(url, { headers: { Authorization: `Bearer ${NUMBER_A.accessToken}` } })).status).toBe(404);
  });

  it("takes the business's multipart upload (POST /{phone-number-id}/media) through the service's client; the id opens the same bytes", async () => {
    const client = createGraphClient({ baseUrl: sandbox.graphBaseUrl, timeoutMs: 5_000, maxAttempts: 1 });
    const id = await client.uploadMedia(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, { bytes, mimeType: 'image/jpeg', filename: 'parcel.jpg' });
    expect(id).toMatch(/^\d{15,16}$/);
    const media = (await (await graph(id, NUMBER_A.accessToken)).json()) as Record<string, unknown>;
    expect(media).toMatchObject({ mime_type: 'image/jpeg', file_size: bytes.length });
    const download = await fetch(String(media.url), { headers: { Authorization: `Bearer ${NUMBER_A.accessToken}` } });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("refuses an upload as Meta does: another number's token 190, no messaging_product 100, an unsupported type 131053", async () => {
    const client = createGraphClient({ baseUrl: sandbox.graphBaseUrl, timeoutMs: 5_000, maxAttempts: 1 });
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => error as ChatNetworkError,
      );
    const foreign = await refusal(client.uploadMedia(NUMBER_A.phoneNumberId, NUMBER_B.accessToken, { bytes, mimeType: 'image/jpeg', filename: 'a.jpg' }));
    const gif = await refusal(client.uploadMedia(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, { bytes, mimeType: 'image/gif', filename: 'a.gif' }));
    const form = new FormData();
    form.set('file', new Blob([bytes], { type: 'image/jpeg' }), 'a.jpg');
    const bare = await fetch(`${sandbox.graphBaseUrl}/${NUMBER_A.phoneNumberId}/media`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${NUMBER_A.accessToken}` },
      body: form,
    });
    expect(foreign).toMatchObject({ outcome: 'rejected', httpStatus: 401, metaCode: 190 });
    expect(gif).toMatchObject({ outcome: 'rejected', httpStatus: 400, metaCode: 131053 });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { error: { code: number } }).error.code).toBe(100);
  });
});
