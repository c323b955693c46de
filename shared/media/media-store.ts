import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { clock } from '../clock';
import { config } from '../config';

/**
 * Where media bytes live: an S3 bucket in AWS (MEDIA_BUCKET; encrypted, private, its
 * lifecycle the message content's retention: infra/), files under MEDIA_DIR on the local
 * stack. Either way a stored object is opened without an API key only through a link
 * that expires: a presigned GET in AWS, an HMAC-signed link (MEDIA_SIGNING_KEY) served by
 * the local gateway at {@link LOCAL_MEDIA_PATH} locally. Keys name their tenant
 * (`{workspace}/{channel}/{mediaId}`), so one tenant's key never reaches another's bytes.
 */

/** How long a link opens its media: more than the 5 minutes promised. */
export const MEDIA_LINK_SECONDS = 15 * 60;

/** The local gateway's path for signed media links. */
export const LOCAL_MEDIA_PATH = '/media';

export interface MediaStore {
  put(key: string, bytes: Buffer, mimeType: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** A link that opens the bytes without an API key until `expiresAt` (ms). */
  link(key: string, mimeType: string): Promise<{ url: string; expiresAt: number }>;
}

export function mediaStore(): MediaStore {
  const dir = config.mediaDir();
  return dir ? localStore(dir) : s3Store();
}

function localStore(dir: string): MediaStore {
  const file = (key: string) => join(dir, ...key.split('/'));
  return {
    async put(key, bytes, mimeType) {
      await mkdir(dirname(file(key)), { recursive: true });
      await writeFile(`${file(key)}.type`, mimeType);
      await writeFile(file(key), bytes);
    },
    async remove(key) {
      await rm(file(key), { force: true });
      await rm(`${file(key)}.type`, { force: true });
    },
    async link(key) {
      const expiresAt = clock.now() + MEDIA_LINK_SECONDS * 1000;
      const url = new URL(LOCAL_MEDIA_PATH, requiredSetting(config.mediaUrlBase(), 'MEDIA_URL_BASE'));
      url.searchParams.set('key', key);
      url.searchParams.set('expires', String(Math.floor(expiresAt / 1000)));
      url.searchParams.set('signature', localSignature(key, url.searchParams.get('expires')!));
      return { url: url.toString(), expiresAt: Math.floor(expiresAt / 1000) * 1000 };
    },
  };
}

function localSignature(key: string, expires: string): string {
  return createHmac('sha256', requiredSetting(config.mediaSigningKey(), 'MEDIA_SIGNING_KEY')).update(`${key}\n${expires}`).digest('base64url');
}

/**
 * The local gateway's side of a signed link: the bytes and their type, or why not
 * (`expired`, `forbidden` for a wrong signature, `missing` when erased).
 */
export async function openLocalLink(query: URLSearchParams): Promise<{ bytes: Buffer; mimeType: string } | 'expired' | 'forbidden' | 'missing'> {
  const key = query.get('key') ?? '';
  const expires = query.get('expires') ?? '';
  const given = Buffer.from(query.get('signature') ?? '');
  const expected = Buffer.from(localSignature(key, expires));
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || key.split('/').some((part) => part === '..' || part === '')) return 'forbidden';
  if (!(Number(expires) * 1000 > clock.now())) return 'expired';
  const dir = requiredSetting(config.mediaDir(), 'MEDIA_DIR');
  const path = join(dir, ...key.split('/'));
  try {
    return { bytes: await readFile(path), mimeType: await readFile(`${path}.type`, 'utf8') };
  } catch {
    return 'missing';
  }
}

let s3: S3Client | undefined;

function s3Store(): MediaStore {
  const bucket = () => requiredSetting(config.mediaBucket(), 'MEDIA_BUCKET (or MEDIA_DIR locally)');
  const client = async () => {
    const { S3Client } = await import('@aws-sdk/client-s3');
    return (s3 ??= new S3Client({}));
  };
  return {
    async put(key, bytes, mimeType) {
      const { PutObjectCommand } = await import('@aws-sdk/client-s3');
      await (await client()).send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes, ContentType: mimeType }));
    },
    async remove(key) {
      const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
      await (await client()).send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
    },
    async link(key, mimeType) {
      const [{ GetObjectCommand }, { getSignedUrl }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
      // Signed at the service's time, so the answered expiresAt is exactly when S3 stops honouring the link.
      const signingDate = new Date(clock.now());
      const expiresAt = signingDate.getTime() + MEDIA_LINK_SECONDS * 1000;
      const command = new GetObjectCommand({ Bucket: bucket(), Key: key, ResponseContentType: mimeType });
      return { url: await getSignedUrl(await client(), command, { expiresIn: MEDIA_LINK_SECONDS, signingDate }), expiresAt };
    },
  };
}

function requiredSetting(value: string | undefined, variable: string): string {
  if (!value) throw new Error(`Configuration: ${variable} is not set, so media cannot be stored or opened.`);
  return value;
}
