/**
 * Media on this machine (shared/media/media-store.ts): files under DATA_DIR/media, opened
 * without an API key only by a link signed with a key derived from DATA_DIR's local key,
 * which the gateway serves at LOCAL_MEDIA_PATH. npm start, the template-driven mode, the
 * bench and `npm run sam-env` all take the settings from here, so a link one of them
 * signs opens in npm start's gateway.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { localKeyFile, readOrCreateLocalKey } from '../../shared/events/secret-box';
import { LOCAL_MEDIA_PATH, openLocalLink } from '../../shared/media/media-store';
import type { GatewayRoute } from './gateway';

/** MEDIA_DIR and MEDIA_SIGNING_KEY of a DATA_DIR; MEDIA_URL_BASE is the gateway's URL, known once it listens. */
export function localMediaSettings(dataDir: string): { MEDIA_DIR: string; MEDIA_SIGNING_KEY: string } {
  return {
    MEDIA_DIR: join(dataDir, 'media'),
    MEDIA_SIGNING_KEY: createHmac('sha256', readOrCreateLocalKey(localKeyFile(dataDir)))
      .update('media links')
      .digest('base64url'),
  };
}

/** The local stand-in for S3's presigned GETs: a link chat/media/get signed opens the bytes without an API key until it expires. */
export function mediaRoute(): GatewayRoute {
  const refuse = (statusCode: number, message: string) => ({ statusCode, headers: { 'Content-Type': 'text/plain' }, body: message });
  return {
    path: LOCAL_MEDIA_PATH,
    methods: ['GET'],
    authorized: false,
    handler: async (event) => {
      const opened = await openLocalLink(new URLSearchParams((event.queryStringParameters ?? {}) as Record<string, string>));
      if (opened === 'forbidden') return refuse(403, 'The link is not valid.');
      if (opened === 'expired') return refuse(403, 'The link has expired: ask chat/media/get for a new one.');
      if (opened === 'missing') return refuse(404, 'The media is gone.');
      return {
        statusCode: 200,
        headers: { 'Content-Type': opened.mimeType, 'Cache-Control': 'private, max-age=60' },
        body: opened.bytes.toString('base64'),
        isBase64Encoded: true,
      };
    },
  };
}
