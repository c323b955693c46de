import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { receiveDelivery, verificationChallenge, type WebhookReceipt } from '../shared/domain/chat-webhook';
import { headerValue } from '../shared/schema/headers';
import { logger } from '../shared/observability/logger';

/**
 * `/webhooks/whatsapp` (public, no API key): a plain Lambda handler, because the
 * signature covers the raw body, which must not be parsed before it is verified.
 * GET answers Meta's verification handshake; POST checks X-Hub-Signature-256 (401
 * when missing or wrong), records the events (a large delivery: hands them off to the
 * inbound drain, shared/domain/inbound-drain.ts) and answers 200. A failure to record
 * answers 500, so the chat network delivers again (processing is idempotent).
 */

const plain = (statusCode: number, body: string, requestId: string): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'X-Request-Id': requestId },
  body,
});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext?.requestId ?? 'local';
  if (event.httpMethod === 'GET') {
    const challenge = await verificationChallenge(event.queryStringParameters ?? {});
    return challenge === undefined ? plain(403, 'Forbidden', requestId) : plain(200, challenge, requestId);
  }
  if (event.httpMethod !== 'POST') return plain(405, 'Method Not Allowed', requestId);
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '', 'utf8');
  let outcome: WebhookReceipt;
  try {
    outcome = await receiveDelivery(raw, headerValue(event.headers, 'x-hub-signature-256'), requestId);
  } catch (error) {
    logger.error('webhook processing failed; the chat network will deliver again', { requestId, error: error as Error });
    return plain(500, 'Error', requestId);
  }
  if (!outcome.signed) {
    logger.warn('webhook refused: missing or wrong signature', { requestId });
    return plain(401, 'Unauthorized', requestId);
  }
  logger.info(outcome.handedOff ? 'webhook handed off' : 'webhook processed', { requestId, events: outcome.events, handedOff: outcome.handedOff });
  return plain(200, 'OK', requestId);
}
