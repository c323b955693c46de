import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { toAuthorizerContext, type Principal } from '../shared/auth/principal';

/** REST proxy events as API Gateway hands them to an endpoint after the authorizer allowed the key. */

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface RequestSpec {
  method: 'GET' | 'POST';
  /** GET: the query string; POST: the JSON body. */
  params: Record<string, unknown>;
}

let sequence = 0;

export function proxyEvent(request: RequestSpec, principal: Principal, path = '/api'): APIGatewayProxyEvent {
  const requestId = `bench-${++sequence}`;
  const headers: Record<string, string> = { 'X-API-Key': 'wsk_redacted', ...(request.method === 'POST' ? { 'Content-Type': 'application/json' } : {}) };
  const query =
    request.method === 'GET' ? Object.fromEntries(Object.entries(request.params).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])) : null;
  return {
    resource: path,
    path,
    httpMethod: request.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, [value]])),
    queryStringParameters: query && Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: query && Object.keys(query).length ? Object.fromEntries(Object.entries(query).map(([key, value]) => [key, [value]])) : null,
    pathParameters: null,
    stageVariables: null,
    body: request.method === 'POST' ? JSON.stringify(request.params) : null,
    isBase64Encoded: false,
    requestContext: { requestId, httpMethod: request.method, stage: 'bench', authorizer: { ...toAuthorizerContext(principal), principalId: principal.userId } },
  } as unknown as APIGatewayProxyEvent;
}

export const lambdaContext = (requestId = 'bench'): Context => ({ awsRequestId: requestId, getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;

/** The principal an endpoint reads from the authorizer context. */
export function principalOf(event: APIGatewayProxyEvent): Principal {
  const context = event.requestContext.authorizer as Record<string, string>;
  return { workspaceId: context.workspaceId, userId: context.userId, keyId: context.keyId, role: context.role as Principal['role'], channelIds: context.channelIds ? context.channelIds.split(',') : [] };
}

/** Query string and JSON body merged, without any checks (what a bare handler would do). */
export function paramsOf(event: APIGatewayProxyEvent): Record<string, unknown> {
  return { ...(event.queryStringParameters ?? {}), ...(event.body ? JSON.parse(event.body) : {}) };
}
