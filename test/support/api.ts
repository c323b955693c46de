import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { authorize } from '../../shared/auth/authorize';
import { KEY_IN_URL_MESSAGE } from '../../shared/errors';

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
  /** Bytes of the whole answer as the function returns it to Lambda (the proxy result: body escaped into a string, and headers); Lambda refuses more than 6 MB. */
  payloadBytes: number;
}

/** GET parameters as API Gateway delivers them: every value a string (arrays and objects as JSON). */
export const asQueryString = (params: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));

export interface ProxyRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  query?: Record<string, string> | null;
  body?: string | null;
  requestId: string;
  stage: string;
  /** What the authorizer attached (principal context and principalId); callApi adds it after authorizing. */
  authorizer?: Record<string, unknown>;
  path?: string;
}

/** A REST proxy event as API Gateway hands it to an endpoint function. */
export function restProxyEvent(request: ProxyRequest): APIGatewayProxyEvent {
  const { method, headers, query, requestId, stage, authorizer, path = '/api' } = request;
  const hasQuery = Boolean(query && Object.keys(query).length);
  return {
    resource: path,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, [value]])),
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? Object.fromEntries(Object.entries(query!).map(([key, value]) => [key, [value]])) : null,
    pathParameters: null,
    stageVariables: null,
    body: request.body ?? null,
    isBase64Encoded: false,
    requestContext: { requestId, httpMethod: method, stage, authorizer },
  } as unknown as APIGatewayProxyEvent;
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
    if (method === 'GET') query = { ...query, ...asQueryString(options.params) };
    else {
      body = JSON.stringify(options.params);
      headers['Content-Type'] ??= 'application/json';
    }
  }
  const requestId = randomUUID();
  const event = restProxyEvent({ method, headers, query, body, requestId, stage: 'test' });
  try {
    const auth = await authorize({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:local:1:api/test/POST/x',
      headers,
      queryStringParameters: query ?? null,
    } as never);
    // A Deny is API Gateway's ACCESS_DENIED, whose gateway response (infra/api.ts) is the key-in-URL 401.
    if (auth.policyDocument.Statement.some((statement) => statement.Effect === 'Deny')) {
      return { status: 401, headers: {}, body: { success: false, error: 'unauthorized', message: KEY_IN_URL_MESSAGE }, payloadBytes: 0 };
    }
    (event.requestContext as { authorizer?: unknown }).authorizer = { ...auth.context, principalId: auth.principalId };
  } catch {
    return { status: 401, headers: {}, body: { success: false, error: 'unauthorized' }, payloadBytes: 0 };
  }
  const result = await handler(event, { awsRequestId: requestId, getRemainingTimeInMillis: () => options.remainingTimeMs ?? 10_000 } as Context);
  return {
    status: result.statusCode,
    headers: (result.headers ?? {}) as Record<string, string>,
    body: JSON.parse(result.body),
    payloadBytes: Buffer.byteLength(JSON.stringify(result)),
  };
}
