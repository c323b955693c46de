import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler, response } from '../../functions/chat-media-get';
import { clock } from '../../shared/clock';
import { mediaObjectKey, recordMediaAttempt, recordPendingMedia } from '../../shared/data/media';
import { MEDIA_LINK_SECONDS, mediaStore, openLocalLink } from '../../shared/media/media-store';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

beforeAll(async () => {
  process.env.MEDIA_DIR = await mkdtemp(join(tmpdir(), 'media-'));
  process.env.MEDIA_URL_BASE = 'http://127.0.0.1:9';
  process.env.MEDIA_SIGNING_KEY = 'test-media-signing-key';
});
afterEach(() => clock.freeze(undefined));

const bytes = Buffer.from('not really a png');

/** A tenant whose channel holds one media in `status`, stored when `stored`. */
async function tenantWithMedia(status: 'pending' | 'stored' | 'refused') {
  const tenant = await createTenant(1);
  const channel = { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] };
  const mediaId = String(Date.now()) + String(Math.random()).slice(2, 6);
  await recordPendingMedia(channel, { mediaId, messageId: 'msg_in_x', phone: '14155550100', type: 'image', mimeType: 'image/png' }, clock.nowIso());
  if (status === 'stored') await mediaStore().put(mediaObjectKey(channel, mediaId), bytes, 'image/png');
  if (status !== 'pending')
    await recordMediaAttempt(
      channel,
      mediaId,
      { status, fileSize: bytes.length, sha256: 'ab'.repeat(32), error: status === 'refused' ? 'too big' : undefined },
      clock.nowIso(),
    );
  return { tenant, channel, mediaId };
}

describe('chat/media/get', () => {
  it('answers a signed link that opens the bytes until it expires, and not after', async () => {
    // Prepare
    const { tenant, mediaId } = await tenantWithMedia('stored');
    // Act
    const answer = await callApi(handler, { apiKey: tenant.adminKey, params: { mediaId } });
    const link = new URL(answer.body.data.url);
    const opened = await openLocalLink(link.searchParams);
    clock.freeze(Date.now() + MEDIA_LINK_SECONDS * 1000 + 1000);
    const expired = await openLocalLink(link.searchParams);
    // Assess
    expect(answer.status).toBe(200);
    expect(v.is(response.data, answer.body.data)).toBe(true);
    expect(answer.body.data).toMatchObject({ mimeType: 'image/png', fileSize: bytes.length });
    expect(opened).toEqual({ bytes, mimeType: 'image/png' });
    expect(expired).toBe('expired');
  });

  it("refuses a link for another media's key with the same signature", async () => {
    // Prepare
    const { tenant, mediaId } = await tenantWithMedia('stored');
    const answer = await callApi(handler, { apiKey: tenant.adminKey, params: { mediaId } });
    const link = new URL(answer.body.data.url);
    // Act
    link.searchParams.set('key', link.searchParams.get('key')!.replace(mediaId, '1'));
    // Assess
    expect(await openLocalLink(link.searchParams)).toBe('forbidden');
  });

  it('answers 409 with mediaStatus while pending or when refused, and 404 for an unknown id', async () => {
    // Prepare
    const pending = await tenantWithMedia('pending');
    const refused = await tenantWithMedia('refused');
    // Act
    const whilePending = await callApi(handler, { apiKey: pending.tenant.adminKey, params: { mediaId: pending.mediaId } });
    const whenRefused = await callApi(handler, { apiKey: refused.tenant.adminKey, params: { mediaId: refused.mediaId } });
    const unknown = await callApi(handler, { apiKey: pending.tenant.adminKey, params: { mediaId: refused.mediaId } });
    const missing = await callApi(handler, { apiKey: pending.tenant.adminKey, params: {} });
    // Assess
    expect([whilePending.status, whilePending.body.details]).toEqual([409, { parameter: 'mediaId', mediaStatus: 'pending' }]);
    expect([whenRefused.status, whenRefused.body.details.mediaStatus]).toEqual([409, 'refused']);
    expect(whenRefused.body.message).toContain('too big');
    expect([unknown.status, unknown.body.details.parameter]).toEqual([404, 'mediaId']);
    expect([missing.status, missing.body.details.parameter]).toEqual([400, 'mediaId']);
  });
});
