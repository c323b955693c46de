import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../shared/config';
import { logger } from '../shared/observability/logger';
import { keptOnceLoaded, staticFile } from '../shared/http/static-files';
import { renderPortalPage, type PortalPage } from '../shared/http/portal-page';
import { SUPPORT_FUNCTIONS } from '../shared/routes';

/**
 * GET /portal (public, no API key): the developer portal's page. The browser signs in
 * to the user pool itself and calls the portal API with the ID token; this function
 * only hands out the page and the pool's coordinates (not secrets: an app client
 * without a secret is public by design). Built on the first request and kept.
 */
const files = (['index.html', 'portal.css', 'portal.js'] as const).map((name) => staticFile(SUPPORT_FUNCTIONS.portalPage, name));
const page = keptOnceLoaded(async (): Promise<PortalPage> => {
  const [html, css, script] = await Promise.all(files.map((file) => file()));
  const cognitoEndpoint = config.portalCognitoEndpoint();
  const userPoolId = config.portalUserPoolId();
  const clientId = config.portalClientId();
  if (!cognitoEndpoint || !userPoolId || !clientId) throw new Error('The portal page needs PORTAL_COGNITO_ENDPOINT, PORTAL_USER_POOL_ID and PORTAL_CLIENT_ID');
  return renderPortalPage({ html, css, script }, { cognitoEndpoint, userPoolId, clientId });
});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext?.requestId ?? 'local';
  const { html, headers } = await page();
  logger.info('request', { requestId, endpoint: 'portal', method: event.httpMethod, status: 200, latencyMs: 0 });
  return { statusCode: 200, headers: { ...headers, 'X-Request-Id': requestId }, body: html };
}
