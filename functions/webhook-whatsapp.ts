import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { timingSafeEqual } from 'node:crypto';
import { verifySignature } from '../shared/chat/signature';
import { webhookSecrets } from '../shared/chat/webhook-secrets';
import { parseWebhookPayload } from '../shared/chat/webhook-payload';
import { processWebhookEvents } from '../shared/domain/webhooks';
import { headerValue } from '../shared/http/headers';
import { logger } from '../shared/http/logger';

/**
 * `/webhooks/whatsapp` (public, no API key): a plain Lambda handler, because the
 * signature covers the raw body, which must not be parsed before it is verified.
 * GET answers Meta's verification handshake; POST checks X-Hub-Signature-256 (401
 * when missing or wrong), records the events and answers 200. A failure to record
 * answers 500, so the chat network delivers again (processing is idempotent).
 */

const plain = (statusCode: number, body: string, requestId: string): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'X-Request-Id': requestId },
  body,
});

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext?.requestId ?? 'local';
  const secrets = await webhookSecrets();
  if (event.httpMethod === 'GET') {
    const query = event.queryStringParameters ?? {};
    const challenge = query['hub.challenge'] ?? '';
    const valid = query['hub.mode'] === 'subscribe' && secrets.verifyToken !== '' && sameText(query['hub.verify_token'] ?? '', secrets.verifyToken);
    return valid ? plain(200, challenge, requestId) : plain(403, 'Forbidden', requestId);
  }
  if (event.httpMethod !== 'POST') return plain(405, 'Method Not Allowed', requestId);
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '', 'utf8');
  if (secrets.appSecret === '' || !verifySignature(raw, headerValue(event.headers, 'x-hub-signature-256'), secrets.appSecret)) {
    logger.warn('webhook refused: missing or wrong signature', { requestId });
    return plain(401, 'Unauthorized', requestId);
  }
  const events = parseWebhookPayload(raw, { warn: (message, fields) => logger.warn(message, { requestId, ...fields }) });
  try {
    await processWebhookEvents(events);
  } catch (error) {
    logger.error('webhook processing failed; the chat network will deliver again', { requestId, error: error as Error });
    return plain(500, 'Error', requestId);
  }
  logger.info('webhook processed', { requestId, events: events.length });
  return plain(200, 'OK', requestId);
}
