import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { PORTAL_USER_ATTRIBUTES } from '../../shared/routes';
import { restProxyEvent } from './api';

/**
 * The developer portal's functions called as API Gateway calls them behind the Cognito
 * authorizer: the verified ID token's claims in `requestContext.authorizer.claims`.
 */
export type PortalHandler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<{ statusCode: number; body: string; headers?: Record<string, string | number | boolean> }>;

export interface PortalUser {
  email: string;
  workspaceId: string;
  apiUserId: string;
  role: 'admin' | 'team';
  permissions: string[];
}

/** The claims API Gateway's Cognito authorizer hands on: strings only, groups joined by commas. */
export function claimsOf(user: PortalUser): Record<string, string> {
  return {
    email: user.email,
    token_use: 'id',
    [PORTAL_USER_ATTRIBUTES.workspaceId]: user.workspaceId,
    [PORTAL_USER_ATTRIBUTES.role]: user.role,
    [PORTAL_USER_ATTRIBUTES.apiUserId]: user.apiUserId,
    ...(user.permissions.length > 0 && { 'cognito:groups': user.permissions.join(',') }),
  };
}

/** Calls a portal function as `user`: parameters as the query string (GET) or a JSON body (POST). */
export async function callPortal(handler: PortalHandler, user: PortalUser, params: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET') {
  const requestId = randomUUID();
  const event = restProxyEvent({
    method,
    headers: method === 'POST' ? { 'Content-Type': 'application/json' } : {},
    query: method === 'GET' ? params : null,
    body: method === 'POST' ? JSON.stringify(params) : null,
    requestId,
    stage: 'test',
    authorizer: { claims: claimsOf(user) },
  });
  const result = await handler(event, { awsRequestId: requestId, getRemainingTimeInMillis: () => 10_000 } as Context);
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
}
