import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../shared/observability/logger';
import { staticFile } from '../shared/http/static-files';
import { SUPPORT_FUNCTIONS } from '../shared/routes';

/**
 * GET /api/workspace/v1/openapi.json (public, read-only, no API key): the committed
 * docs/openapi.json, shipped beside the bundle and read on the first request, so what
 * is served is byte for byte the file the tests validate, and init never parses it.
 */
const openApiDocument = staticFile(SUPPORT_FUNCTIONS.openapi, 'openapi.json');

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext?.requestId ?? 'local';
  const body = await openApiDocument();
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
