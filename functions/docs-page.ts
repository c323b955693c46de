import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../shared/observability/logger';
import { keptOnceLoaded, staticFile } from '../shared/http/static-files';
import { renderDocsPage, type DocsPage } from '../shared/openapi/docs-page';
import { SUPPORT_FUNCTIONS } from '../shared/routes';

/**
 * GET /docs (public, no API key): Swagger UI over the served OpenAPI document, with
 * "try it" against this deployment. The renderer comes from the swagger-ui-dist npm
 * package, shipped beside the bundle and inlined into the page, so the page needs no
 * CDN and no asset routes. The page is built on the first request (not at init: every
 * cold start would pay for Swagger UI's size) and kept.
 */
const script = staticFile(SUPPORT_FUNCTIONS.docsPage, 'swagger-ui-bundle.js');
const css = staticFile(SUPPORT_FUNCTIONS.docsPage, 'swagger-ui.css');
const page = keptOnceLoaded(async (): Promise<DocsPage> => {
  const [scriptText, cssText] = await Promise.all([script(), css()]);
  return renderDocsPage({ css: cssText, script: scriptText });
});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext?.requestId ?? 'local';
  const { html, headers } = await page();
  logger.info('request', { requestId, endpoint: 'docs', method: event.httpMethod, status: 200, latencyMs: 0 });
  return { statusCode: 200, headers: { ...headers, 'X-Request-Id': requestId }, body: html };
}
