import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import text from '../docs/openapi.json' with { type: 'text' };
import { logger } from '../shared/http/logger';

/**
 * GET /api/workspace/v1/openapi.json (public, read-only, no API key): the committed
 * docs/openapi.json, bundled into the function as text (esbuild's `type: 'text'`
 * import), so what is served is byte for byte the file the tests validate, and init
 * neither evaluates it as an object nor serializes it again.
 */
const body = text as unknown as string;

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext?.requestId ?? 'local';
  logger.info('request', { requestId, endpoint: 'openapi.json', method: event.httpMethod, status: 200, latencyMs: 0 });
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      'X-Content-Type-Options': 'nosniff',
      'X-Request-Id': requestId,
      // A public document: other origins (editors, code generators) may read it.
      'Access-Control-Allow-Origin': '*',
    },
    body,
  };
}
