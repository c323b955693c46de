import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { authorize } from '../../shared/auth/authorize';

export type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface CallOptions {
  apiKey?: string;
  method?: 'GET' | 'POST';
  /** Query-string parameters (GET) or JSON body (POST), unless `body` is given. */
  params?: Record<string, unknown>;
  query?: Record<string, string>;
  body?: string | null;
  headers?: Record<string, string>;
  /** The Lambda time budget the handler sees (default 10 s, the functions' timeout). */
  remainingTimeMs?: number;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * Calls a real handler as API Gateway would: the real authorizer first (a refused key
 * is the gateway's 401), then a REST proxy event to the handler.
 */
export async function callApi(handler: Handler, options: CallOptions = {}): Promise<ApiResponse> {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = { ...(options.apiKey ? { 'X-API-Key': options.apiKey } : {}), ...options.headers };
  let query = options.query;
  let body = options.body;
  if (options.params !== undefined) {
    if (method === 'GET') query = { ...query, ...Object.fromEntries(Object.entries(options.params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) };
    else {
      body = JSON.stringify(options.params);
      headers['Content-Type'] ??= 'application/json';
    }
  }
  const requestId = randomUUID();
  const event = {
    resource: '/api',
    path: '/api',
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: query && Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: query && Object.keys(query).length ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: null,
    stageVariables: null,
    body: body ?? null,
    isBase64Encoded: false,
    requestContext: { requestId, httpMethod: method, stage: 'test', authorizer: undefined },
  } as unknown as APIGatewayProxyEvent;
  try {
    const auth = await authorize({ type: 'REQUEST', methodArn: 'arn:aws:execute-api:local:1:api/test/POST/x', headers, queryStringParameters: query ?? null } as never);
    (event.requestContext as { authorizer?: unknown }).authorizer = { ...auth.context, principalId: auth.principalId };
  } catch {
    return { status: 401, headers: {}, body: { success: false, error: 'unauthorized' } };
  }
  const result = await handler(event, { awsRequestId: requestId, getRemainingTimeInMillis: () => options.remainingTimeMs ?? 10_000 } as Context);
  return { status: result.statusCode, headers: (result.headers ?? {}) as Record<string, string>, body: JSON.parse(result.body) };
}
