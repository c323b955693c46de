import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import css from 'swagger-ui-dist/swagger-ui.css' with { type: 'text' };
import script from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'text' };
import { logger } from '../shared/http/logger';
import { renderDocsPage } from '../shared/openapi/docs-page';

/**
 * GET /docs (public, no API key): Swagger UI over the served OpenAPI document, with
 * "try it" against this deployment. The renderer comes from the swagger-ui-dist npm
 * package, inlined into the bundle as text (esbuild's `type: 'text'` import), so the
 * page needs no CDN and no asset routes. Built once per container.
 */
const page = renderDocsPage({ css, script });

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext?.requestId ?? 'local';
  logger.info('request', { requestId, endpoint: 'docs', method: event.httpMethod, status: 200, latencyMs: 0 });
  return { statusCode: 200, headers: { ...page.headers, 'X-Request-Id': requestId }, body: page.html };
}
