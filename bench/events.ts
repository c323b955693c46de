import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { principalFromAuthorizer, toAuthorizerContext, type Principal } from '../shared/auth/principal';
import { asQueryString, restProxyEvent } from '../test/support/api';

/** REST proxy events as API Gateway hands them to an endpoint after the authorizer allowed the key. */

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface RequestSpec {
  method: 'GET' | 'POST';
  /** GET: the query string; POST: the JSON body. */
  params: Record<string, unknown>;
}

let sequence = 0;

export function proxyEvent(request: RequestSpec, principal: Principal, path = '/api'): APIGatewayProxyEvent {
  const headers: Record<string, string> = { 'X-API-Key': 'wsk_redacted', ...(request.method === 'POST' ? { 'Content-Type': 'application/json' } : {}) };
  return restProxyEvent({
    method: request.method,
    headers,
    query: request.method === 'GET' ? asQueryString(request.params) : null,
    body: request.method === 'POST' ? JSON.stringify(request.params) : null,
    requestId: `bench-${++sequence}`,
    stage: 'bench',
    authorizer: { ...toAuthorizerContext(principal), principalId: principal.userId },
    path,
  });
}

export const lambdaContext = (requestId = 'bench'): Context => ({ awsRequestId: requestId, getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;

/** The principal an endpoint reads from the authorizer context. */
export const principalOf = (event: APIGatewayProxyEvent): Principal => principalFromAuthorizer(event.requestContext.authorizer);

/** Query string and JSON body merged, without any checks (what a bare handler would do). */
export function paramsOf(event: APIGatewayProxyEvent): Record<string, unknown> {
  return { ...(event.queryStringParameters ?? {}), ...(event.body ? JSON.parse(event.body) : {}) };
}
