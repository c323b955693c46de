/**
 * WhatsApp's supported media types and size limits (Cloud API "Supported media types"),
 * by message type. One table for both directions: what the service fetches from inbound
 * messages, what chat/media/upload takes, and what the sandbox and the CLI assume.
 */

const MB = 1024 * 1024;

export type MediaMessageType = 'image' | 'video' | 'audio' | 'document' | 'sticker';

export const MEDIA_LIMITS: Readonly<Record<MediaMessageType, { maxBytes: number; mimeTypes: readonly string[] }>> = {
  image: { maxBytes: 5 * MB, mimeTypes: ['image/jpeg', 'image/png'] },
  video: { maxBytes: 16 * MB, mimeTypes: ['video/mp4', 'video/3gpp'] },
  audio: { maxBytes: 16 * MB, mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'] },
  document: {
    maxBytes: 100 * MB,
    mimeTypes: [
      'text/plain',
      'application/pdf',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
  },
  // Animated stickers may be 500 KB; static ones 100 KB. The larger bound is checked here.
  sticker: { maxBytes: 500 * 1024, mimeTypes: ['image/webp'] },
};

/** The MIME type without parameters (`audio/ogg; codecs=opus` → `audio/ogg`), lower-cased. */
export function baseMimeType(mimeType: string): string {
  return mimeType.split(';')[0].trim().toLowerCase();
}

/** Why bytes of this type and size cannot be a `type` message, or undefined when they can. */
export function mediaRefusal(type: MediaMessageType, mimeType: string, size: number): string | undefined {
  const limits = MEDIA_LIMITS[type];
  if (!limits.mimeTypes.includes(baseMimeType(mimeType))) return `${type} media must be one of ${limits.mimeTypes.join(', ')}; got ${mimeType}.`;
  if (size > limits.maxBytes) return `${type} media may be at most ${limits.maxBytes} bytes; got ${size}.`;
  return undefined;
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  mp4: 'video/mp4',
  '3gp': 'video/3gpp',
  aac: 'audio/aac',
  amr: 'audio/amr',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  txt: 'text/plain',
  pdf: 'application/pdf',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The MIME type a file name's extension stands for, among the supported ones. */
export function mimeTypeOfFileName(name: string): string | undefined {
  return BY_EXTENSION[name.split('.').pop()?.toLowerCase() ?? ''];
}
