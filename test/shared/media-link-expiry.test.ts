import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clock } from '../../shared/clock';
import { MEDIA_LINK_SECONDS, mediaStore, openLocalLink } from '../../shared/media/media-store';

/**
 * The links chat/media/get answers expire after MEDIA_LINK_SECONDS (docs/MESSAGING.md,
 * "Inbound media"), told by the service's clock seam, never by waiting: locally the signed
 * link opens up to its last second and not from `expiresAt` on; in AWS the presigned GET
 * (the real @aws-sdk/s3-request-presigner, which needs no network) carries that expiry, signed
 * at the service's time, so `expiresAt` is exactly when S3 stops honouring it.
 */

const SAVED = ['MEDIA_DIR', 'MEDIA_BUCKET', 'MEDIA_URL_BASE', 'MEDIA_SIGNING_KEY', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const;
let saved: Record<string, string | undefined>;
const START = Date.parse('2026-03-01T10:00:00Z');

beforeEach(() => {
  saved = Object.fromEntries(SAVED.map((name) => [name, process.env[name]]));
  clock.freeze(START);
});
afterEach(() => {
  clock.freeze(undefined);
  for (const name of SAVED) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('media links expire', () => {
  it('locally: the signed link opens until its last second and is refused from expiresAt on', async () => {
    // Prepare
    process.env.MEDIA_DIR = await mkdtemp(join(tmpdir(), 'media-expiry-'));
    process.env.MEDIA_URL_BASE = 'http://127.0.0.1:9';
    process.env.MEDIA_SIGNING_KEY = 'test-media-signing-key';
    const bytes = Buffer.from('a photo of a broken parcel');
    await mediaStore().put('ws_a/ch_a/1037543291543636', bytes, 'image/jpeg');
    // Act
    const { url, expiresAt } = await mediaStore().link('ws_a/ch_a/1037543291543636', 'image/jpeg');
    const query = new URL(url).searchParams;
    clock.freeze(expiresAt - 1000);
    const lastSecond = await openLocalLink(query);
    clock.freeze(expiresAt);
    const atExpiry = await openLocalLink(query);
    // Assess
    expect(expiresAt).toBe(START + MEDIA_LINK_SECONDS * 1000);
    expect(lastSecond).toEqual({ bytes, mimeType: 'image/jpeg' });
    expect(atExpiry).toBe('expired');
  });

  it('in AWS: the presigned GET carries X-Amz-Expires = MEDIA_LINK_SECONDS, signed at the clock’s time, and expiresAt is their sum', async () => {
    // Prepare
    delete process.env.MEDIA_DIR;
    process.env.MEDIA_BUCKET = 'wsapi-media-test';
    process.env.AWS_REGION = 'eu-central-1';
    process.env.AWS_ACCESS_KEY_ID = 'AKIAEXAMPLEEXAMPLE00';
    process.env.AWS_SECRET_ACCESS_KEY = 'example-secret-for-signing-only';
    // Act
    const { url, expiresAt } = await mediaStore().link('ws_a/ch_a/1037543291543636', 'image/jpeg');
    const link = new URL(url);
    // Assess
    expect(link.hostname).toMatch(/^wsapi-media-test\.s3\.eu-central-1\.amazonaws\.com$/);
    expect(link.pathname).toBe('/ws_a/ch_a/1037543291543636');
    expect(link.searchParams.get('X-Amz-Expires')).toBe(String(MEDIA_LINK_SECONDS));
    expect(link.searchParams.get('X-Amz-Date')).toBe('20260301T100000Z');
    expect(link.searchParams.get('response-content-type')).toBe('image/jpeg');
    expect(link.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(expiresAt).toBe(START + MEDIA_LINK_SECONDS * 1000);
  });
});
