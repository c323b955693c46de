import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_BASE_PATH } from '../../shared/routes';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayRoute {
  /** Full path, e.g. /api/workspace/v1/contacts/list or /webhooks/whatsapp. */
  path: string;
  methods: string[];
  handler: ProxyHandler;
  /** Whether the authorizer runs first (every API route; not the webhook or the docs). */
  authorized: boolean;
}

export interface GatewayOptions {
  port: number;
  routes: GatewayRoute[];
  authorizer: AuthorizerHandler;
  /** Called once per request with a readable line (method, path, status, ms). */
  onRequest?: (line: string) => void;
}

/** API Gateway refuses bodies above 10 MB; the handlers' own limit is far lower. */
const MAX_GATEWAY_BODY = 10 * 1024 * 1024;

/**
 * A small stand-in for API Gateway's REST API: it turns HTTP requests into REST proxy
 * events (multi-value headers and query strings included), runs the REQUEST
 * authorizer first as API Gateway does, invokes the same Lambda bundles, and writes
 * the results back. Its own refusals use the envelope, as the stack's gateway
 * responses do.
 */
export async function startGateway(options: GatewayOptions): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const byPath = new Map(options.routes.map((route) => [route.path, route]));
  const server = createServer((req, res) => {
    const started = performance.now();
    handle(req, res, byPath, options)
      .catch((error: unknown) => {
        console.error('local gateway error', error);
        send(res, gatewayError(500, 'internal_error', 'Internal server error', randomUUID()));
      })
      .finally(() => options.onRequest?.(`${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode} ${Math.round(performance.now() - started)}ms`));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: Map<string, GatewayRoute>, options: GatewayOptions) {
  const requestId = randomUUID();
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const route = routes.get(url.pathname.replace(/\/+$/, '') || '/');
  const method = req.method ?? 'GET';
  if (!route || !route.methods.includes(method)) {
    req.resume();
    return send(res, gatewayError(404, 'not_found', `No endpoint ${method} ${url.pathname}. Endpoints live under ${API_BASE_PATH}/.`, requestId));
  }
  const body = await readBody(req);
  if (body === undefined) return send(res, gatewayError(413, 'payload_too_large', 'Request body too large', requestId));
  const event = toProxyEvent(req, url, route, body, requestId);
  if (route.authorized) {
    try {
      const result = await options.authorizer(toAuthorizerEvent(event));
      event.requestContext.authorizer = { ...result.context, principalId: result.principalId };
    } catch (error) {
      if ((error as Error).message === 'Unauthorized') {
        return send(res, gatewayError(401, 'unauthorized', 'A valid API key is required: send it as X-API-Key or Authorization: Bearer (never in the URL or body).', requestId));
      }
      throw error;
    }
  }
  const result = await route.handler(event, lambdaContext(requestId));
  send(res, result);
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_GATEWAY_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_GATEWAY_BODY ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function toProxyEvent(req: IncomingMessage, url: URL, route: GatewayRoute, body: Buffer, requestId: string): APIGatewayProxyEvent {
  // Null-prototype maps: a header or parameter named `__proto__` or `toString` is a key like any other.
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const [name, value] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const query: Record<string, string> = Object.create(null);
  const multiQuery: Record<string, string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    (multiQuery[name] ??= []).push(value);
  }
  const hasQuery = Object.keys(query).length > 0;
  const method = req.method ?? 'GET';
  return {
    resource: route.path,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: null,
    stageVariables: null,
    body: body.length > 0 ? body.toString('utf8') : null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: undefined,
      protocol: 'HTTP/1.1',
      httpMethod: method,
      identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? null } as APIGatewayProxyEvent['requestContext']['identity'],
      path: url.pathname,
      stage: 'local',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: route.path,
    },
  };
}

function toAuthorizerEvent(event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:local:000000000000:local/local/${event.httpMethod}${event.path}`,
    resource: event.resource,
    path: event.path,
    httpMethod: event.httpMethod,
    headers: event.headers as Record<string, string>,
    multiValueHeaders: event.multiValueHeaders as Record<string, string[]>,
    queryStringParameters: event.queryStringParameters as Record<string, string> | null,
    multiValueQueryStringParameters: event.multiValueQueryStringParameters as Record<string, string[]> | null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { ...event.requestContext, authorizer: undefined },
  };
}

function lambdaContext(requestId: string): Context {
  const deadline = Date.now() + 10_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The envelope the stack's gateway responses produce for refusals made before a Lambda runs. */
export function gatewayError(statusCode: number, error: string, message: string, requestId: string): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'X-Request-Id': requestId },
    body: JSON.stringify({ success: false, error, message }),
  };
}

function send(res: ServerResponse, result: APIGatewayProxyResult) {
  res.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) res.setHeader(name, values.map(String));
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
