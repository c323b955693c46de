import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clock } from '../../shared/clock';
import { metaErrorBody, type MetaErrorSpec } from './sandbox-catalog';
import { SandboxInputError } from './sandbox-types';

/** The sandbox's HTTP plumbing and wire values: bodies, answers, inputs, ids and timestamps. */

/** Room for a media file sent through the control API as base64 (Meta's largest inbound media, documents, are 100 MB; demos need far less). */
const MAX_BODY_BYTES = 40_000_000;

export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBodyBytes(req)).toString('utf8');
}

/** The body as bytes, for multipart uploads. */
export async function readBodyBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new SandboxInputError('The body is too large.', 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A Graph API error answer, with a fresh trace id as Meta gives one. */
export function sendMeta(res: ServerResponse, spec: MetaErrorSpec, headers: Record<string, string> = {}): void {
  sendJson(res, spec.httpStatus, metaErrorBody(spec, randomBytes(12).toString('base64url')), headers);
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

export function digitsOf(value: unknown, name: string): string {
  const digits = typeof value === 'string' ? value.replace(/^\+/, '') : '';
  if (!/^\d{7,15}$/.test(digits)) throw new SandboxInputError(`${name} must be a phone number of digits with country code.`);
  return digits;
}

export function requiredString(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string' || value === '') throw new SandboxInputError(`${name} is required.`);
  return value;
}

export function optionalString(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function newWamid(): string {
  return `wamid.${randomBytes(24).toString('base64url')}`;
}

export function unixSeconds(): string {
  return String(Math.floor(clock.now() / 1000));
}
