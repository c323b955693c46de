import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { demoAdmin, startStack, type RunningStack } from '../support/local-stack';

/**
 * Inbound media end to end, as the README walks it: a customer's photo arrives through
 * the sandbox's signed webhook with real bytes (`admin inbound --file`), the service
 * fetches and stores them off the webhook's path, and chat/media/get answers a link that
 * opens them without an API key; another workspace's key finds nothing, a tampered or
 * erased link opens nothing.
 */
describe('inbound media (npm start, sandbox chat network, operator CLI)', () => {
  let stack: RunningStack;
  let adminKey: string;
  let channelId: string;
  const from = '+1 415 555 0177';

  beforeAll(async () => {
    stack = await startStack();
    ({ adminKey, channelId } = demoAdmin(stack));
  });
  afterAll(async () => stack?.stop());

  const call = (path: string, params: Record<string, unknown>, apiKey = adminKey) => stack.call(path, { apiKey, params: { channelId, ...params } });

  it('fetches, stores, signs, opens and erases an inbound photo', async () => {
    // Prepare
    const photo = await readFile('docs/samples/photo.jpg');
    // Act 1: the customer sends a photo; the service fetches it in the background
    const inbound = await stack.admin(
      'inbound',
      '--channel',
      channelId,
      '--from',
      from,
      '--type',
      'image',
      '--file',
      'docs/samples/photo.jpg',
      '--caption',
      'broken',
    );
    const stored = await eventually(async () => {
      const history = await call('chat/messages/list', { phoneNumber: from });
      const content = history.body.data[0]?.content;
      return content?.mediaStatus === 'stored' ? content : undefined;
    });
    const media = await call('chat/media/get', { mediaId: stored.mediaId });
    // Assess 1
    expect(inbound.code).toBe(0);
    const sha256 = createHash('sha256').update(photo).digest('hex');
    expect(stored).toEqual({ mediaId: expect.any(String), mimeType: 'image/jpeg', caption: 'broken', sha256, fileSize: photo.length, mediaStatus: 'stored' });
    expect(media.status).toBe(200);
    expect(media.body.data).toEqual({ url: expect.any(String), mimeType: 'image/jpeg', fileSize: photo.length, sha256, expiresAt: expect.any(String) });
    expect(Date.parse(media.body.data.expiresAt) - Date.now()).toBeGreaterThan(5 * 60_000);
    const opened = await fetch(media.body.data.url);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await opened.arrayBuffer()).equals(photo)).toBe(true);

    // Act 2: what must not open it
    const tampered = new URL(media.body.data.url);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 3600));
    const otherKey = stack.demo.workspaces[1].keys.find((key) => key.role === 'admin')!.apiKey;
    const otherWorkspace = await stack.call('chat/media/get', { apiKey: otherKey, params: { mediaId: stored.mediaId } });
    const unknown = await call('chat/media/get', { mediaId: '999999999999999' });
    // Assess 2
    expect((await fetch(tampered)).status).toBe(403);
    expect(otherWorkspace.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(unknown.body.details.parameter).toBe('mediaId');

    // Act 3: erasure takes the bytes too
    const erased = await call('contacts/delete', { phoneNumber: from });
    const afterErasure = await call('chat/media/get', { mediaId: stored.mediaId });
    // Assess 3
    expect(erased.status).toBe(200);
    expect(afterErasure.status).toBe(404);
    expect((await fetch(media.body.data.url)).status).toBe(404);
  });

  it('shows a media the chat network does not serve as failed, and chat/media/get says so', async () => {
    // Act
    await stack.admin('inbound', '--channel', channelId, '--from', '+1 415 555 0176', '--type', 'image', '--media-id', '123456789012345');
    const content = await eventually(async () => {
      const history = await call('chat/messages/list', { phoneNumber: '+1 415 555 0176' });
      const first = history.body.data[0]?.content;
      return first?.mediaStatus === 'failed' ? first : undefined;
    });
    const media = await call('chat/media/get', { mediaId: '123456789012345' });
    // Assess
    expect(content.mediaStatus).toBe('failed');
    expect(media.status).toBe(409);
    expect(media.body.details).toMatchObject({ parameter: 'mediaId', mediaStatus: 'failed' });
  });
});
