import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GATEWAY_BODY_LIMIT_BYTES, LAMBDA_INVOKE_PAYLOAD_LIMIT_BYTES } from '../../infra/platform-limits';
import { KEY_IN_URL_MESSAGE } from '../../shared/errors';
import { UNKNOWN_PATH } from '../../shared/routes';
import type { IdTokenVerifier } from './id-token';
import type { AuthorizerDescription, GatewayResponseDescription, GatewayResponseType, MethodThrottle } from './description';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayRoute {
  /** Full path, e.g. /api/workspace/v1/contacts/list or /webhooks/whatsapp. */
  path: string;
  methods: string[];
  handler: ProxyHandler;
  /** Whether the authorizer runs first (every API route; not the webhook or the docs). */
  authorized: boolean;
  /**
   * Authorized by the user pool's ID token instead (the portal API): checked as API
   * Gateway's Cognito authorizer checks it (options.userPool), its claims attached as
   * `requestContext.authorizer.claims`.
   */
  userPool?: true;
  /** Per-method throttles (token bucket per API key), as a usage plan applies them; none in route-table mode. */
  throttles?: Record<string, MethodThrottle>;
  /** The answer to a method not in `methods` (the API's 405); absent = 404 as an unknown path. */
  otherMethods?: GatewayResponseDescription;
}

export interface GatewayOptions {
  port: number;
  routes: GatewayRoute[];
  authorizer: AuthorizerHandler;
  /** Called once per request with a readable line (method, path, status, ms). */
  onRequest?: (line: string) => void;
  /** The authorizer's identity sources and result cache (the template's); none and no cache by default. */
  authorizerSettings?: Pick<AuthorizerDescription, 'identitySources' | 'cacheTtlSeconds'>;
  /**
   * Gateway responses by type (the template's). When given, the gateway answers its own
   * refusals with them, and a function error as API Gateway does (502, DEFAULT_5XX).
   */
  responses?: Partial<Record<GatewayResponseType, GatewayResponseDescription>>;
  /** The usage plan's own throttle: one token bucket per API key over every method (the template's); none in route-table mode. */
  planThrottle?: MethodThrottle;
  /** The ID-token check of routes marked `userPool` (scripts/local/id-token.ts). */
  userPool?: IdTokenVerifier;
}

/**
 * A small stand-in for API Gateway's REST API: it turns HTTP requests into REST proxy
 * events (multi-value headers and query strings included), runs the REQUEST
 * authorizer first as API Gateway does, invokes the same Lambda bundles, and writes
 * the results back. Its own refusals use the envelope, as the stack's gateway
 * responses do.
 */
export async function startGateway(options: GatewayOptions): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  // A path may have one route per method (the portal's GET and POST /portal/api/keys are two functions).
  const byPath = new Map<string, GatewayRoute[]>();
  for (const route of options.routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  const state: GatewayState = { authorizerCache: new Map(), buckets: new Map() };
  const server = createServer((req, res) => {
    const started = performance.now();
    handle(req, res, byPath, options, state)
      .catch((error: unknown) => {
        console.error('local gateway error', error);
        send(res, gatewayError(500, 'internal_error', 'Internal server error', randomUUID()));
      })
      .finally(() => options.onRequest?.(`${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode} ${Math.round(performance.now() - started)}ms`));
  });
  // Node's parser refuses a request line with a raw non-ASCII character (a pasted `…`) before any handler runs; answer it in the envelope.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const { statusCode, headers, body } =
      error.code === 'HPE_INVALID_URL'
        ? gatewayError(400, 'invalid_request', NOT_PERCENT_ENCODED, randomUUID())
        : gatewayError(400, 'invalid_request', 'The request is not valid HTTP.', randomUUID());
    const head = Object.entries({ ...headers, 'Content-Length': Buffer.byteLength(body), Connection: 'close' }).map(
      ([name, value]) => `${name}: ${String(value)}`,
    );
    socket.end(`HTTP/1.1 ${statusCode} Bad Request\r\n${head.join('\r\n')}\r\n\r\n${body}`);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
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

interface GatewayState {
  /** Authorizer results by identity-source values, while their TTL lasts. */
  authorizerCache: Map<string, { result: APIGatewayAuthorizerResult; expiresAt: number }>;
  /** Token buckets by API key, path and method. */
  buckets: Map<string, { tokens: number; updatedAt: number }>;
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: Map<string, GatewayRoute[]>, options: GatewayOptions, state: GatewayState) {
  const requestId = randomUUID();
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  const route = routeOf(routes.get(url.pathname.replace(/\/+$/, '') || '/'), method);
  if (route?.otherMethods && !route.methods.includes(method)) {
    req.resume();
    return send(res, described(route.otherMethods, 405, requestId));
  }
  if (!route || !route.methods.includes(method)) {
    req.resume();
    return send(
      res,
      gatewayResponse(options, 'MISSING_AUTHENTICATION_TOKEN', 403, requestId) ??
        gatewayError(UNKNOWN_PATH.statusCode, UNKNOWN_PATH.error, UNKNOWN_PATH.message, requestId),
    );
  }
  const malformed = malformedQueryParameter(url.search);
  if (malformed !== undefined) {
    req.resume();
    return send(
      res,
      gatewayError(400, 'invalid_parameter', `Parameter ${malformed} is not valid percent-encoding: ${NOT_PERCENT_ENCODED}`, requestId, malformed),
    );
  }
  const body = await readBody(req);
  const tooLarge = () =>
    gatewayResponse(options, 'REQUEST_TOO_LARGE', 413, requestId) ?? gatewayError(413, 'payload_too_large', 'Request body too large', requestId);
  if (body === undefined) return send(res, tooLarge());
  const event = toProxyEvent(req, url, route, body, requestId);
  const refused = await authorizeRoute(event, route, method, options, state, requestId);
  if (refused) return send(res, refused);
  // The invocation carries the whole event: above Lambda's payload limit API Gateway answers 413 instead of invoking.
  if (Buffer.byteLength(JSON.stringify(event)) > LAMBDA_INVOKE_PAYLOAD_LIMIT_BYTES) return send(res, tooLarge());
  if (!options.responses) return send(res, await route.handler(event, lambdaContext(requestId)));
  try {
    send(res, await route.handler(event, lambdaContext(requestId)));
  } catch (error) {
    // API Gateway answers a failed Lambda proxy integration with 502 (DEFAULT_5XX).
    console.error(`function error on ${method} ${route.path}`, error);
    send(res, gatewayResponse(options, 'DEFAULT_5XX', 502, requestId)!);
  }
}

/**
 * The route's authorizer, as API Gateway runs it before the function: the user pool's ID
 * token, or the API-key authorizer and the usage plan's buckets. Its answer when it refuses;
 * else undefined, with the authorizer's context on the event.
 */
async function authorizeRoute(
  event: ReturnType<typeof toProxyEvent>,
  route: GatewayRoute,
  method: string,
  options: GatewayOptions,
  state: GatewayState,
  requestId: string,
): Promise<Parameters<typeof send>[1] | undefined> {
  const unauthorized = () =>
    gatewayResponse(options, 'UNAUTHORIZED', 401, requestId) ??
    gatewayError(401, 'unauthorized', 'A valid API key is required: send it as X-API-Key or Authorization: Bearer (never in the URL or body).', requestId);
  if (route.userPool) {
    const claims = await userPoolClaims(event, options);
    if (!claims) return unauthorized();
    event.requestContext.authorizer = { claims };
  } else if (route.authorized) {
    const result = await authorize(event, options, state);
    if (result === 'unauthorized') return unauthorized();
    // The authorizer denies (rather than refuses) only a key in the URL; API Gateway answers a Deny with ACCESS_DENIED.
    if (result.policyDocument.Statement.some((statement) => statement.Effect === 'Deny')) {
      return gatewayResponse(options, 'ACCESS_DENIED', 403, requestId) ?? gatewayError(401, 'unauthorized', KEY_IN_URL_MESSAGE, requestId);
    }
    event.requestContext.authorizer = { ...result.context, principalId: result.principalId };
    // The usage plan's buckets, per API key: the plan's over every method, then the method's own.
    const key = result.usageIdentifierKey ?? result.principalId;
    const throttle = route.throttles?.[method];
    const admitted =
      (!options.planThrottle || takeToken(state, `${key} *`, options.planThrottle)) &&
      (!throttle || takeToken(state, `${key} ${route.path} ${method}`, throttle));
    if (!admitted) return gatewayResponse(options, 'THROTTLED', 429, requestId)!;
  }
  return undefined;
}

/** The path's route of the method, else its first (whose other-method answer applies). */
const routeOf = (ofPath: GatewayRoute[] | undefined, method: string) => ofPath?.find((route) => route.methods.includes(method)) ?? ofPath?.[0];

/** A Cognito user-pool authorizer's work: the ID token of the Authorization header (with or without `Bearer `), verified. */
async function userPoolClaims(event: APIGatewayProxyEvent, options: GatewayOptions): Promise<Record<string, string> | undefined> {
  if (!options.userPool) throw new Error('A route is authorized by the user pool, but the gateway was given no ID-token check.');
  const header = identityValue(event, 'method.request.header.Authorization');
  return header ? options.userPool.claims(header.replace(/^Bearer\s+/i, '')) : undefined;
}

/**
 * Runs the REQUEST authorizer as API Gateway does: a request lacking one of the listed
 * identity sources is refused without calling it; with identity sources and a TTL, its
 * result is cached by their values.
 */
async function authorize(event: APIGatewayProxyEvent, options: GatewayOptions, state: GatewayState): Promise<APIGatewayAuthorizerResult | 'unauthorized'> {
  const { identitySources = [], cacheTtlSeconds = 0 } = options.authorizerSettings ?? {};
  const values: string[] = [];
  for (const source of identitySources) {
    const value = identityValue(event, source);
    if (!value) return 'unauthorized';
    values.push(value);
  }
  const cacheKey = identitySources.length > 0 && cacheTtlSeconds > 0 ? values.join('\u0000') : undefined;
  const cached = cacheKey === undefined ? undefined : state.authorizerCache.get(cacheKey);
  if (cached && cached.expiresAt > Date.now()) return cached.result;
  try {
    const result = await options.authorizer(toAuthorizerEvent(event));
    if (cacheKey !== undefined) state.authorizerCache.set(cacheKey, { result, expiresAt: Date.now() + cacheTtlSeconds * 1000 });
    return result;
  } catch (error) {
    if ((error as Error).message === 'Unauthorized') return 'unauthorized';
    throw error;
  }
}

/** An identity source's value: `method.request.header.X`, `method.request.querystring.X`, `context.X` or `stageVariables.X`. */
function identityValue(event: APIGatewayProxyEvent, source: string): string | undefined {
  const [, kind, name] = /^(method\.request\.header|method\.request\.querystring|context|stageVariables)\.(.+)$/.exec(source) ?? [];
  if (kind === 'method.request.header') return Object.entries(event.headers).find(([header]) => header.toLowerCase() === name.toLowerCase())?.[1];
  if (kind === 'method.request.querystring') return event.queryStringParameters?.[name] ?? undefined;
  if (kind === 'context') return String((event.requestContext as unknown as Record<string, unknown>)[name] ?? '') || undefined;
  return undefined;
}

/** A usage plan's token bucket: `burstLimit` tokens at most, refilled at `rateLimit` a second. */
function takeToken(state: GatewayState, key: string, { burstLimit, rateLimit }: MethodThrottle): boolean {
  const now = Date.now();
  const bucket = state.buckets.get(key) ?? { tokens: burstLimit, updatedAt: now };
  bucket.tokens = Math.min(burstLimit, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rateLimit);
  bucket.updatedAt = now;
  state.buckets.set(key, bucket);
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

/**
 * A gateway response of the given type as the options declare it, falling back to
 * DEFAULT_4XX/DEFAULT_5XX like API Gateway (with the type's own status when the
 * response names none); undefined when the options declare no responses.
 */
function gatewayResponse(options: GatewayOptions, type: GatewayResponseType, defaultStatus: number, requestId: string): APIGatewayProxyResult | undefined {
  if (!options.responses) return undefined;
  const declared = options.responses[type] ?? options.responses[defaultStatus >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX'];
  if (!declared) return { statusCode: defaultStatus, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: type }) };
  return described(declared, defaultStatus, requestId);
}

/** A declared answer (a gateway response, a mock method's) with its context variables filled. */
function described(declared: GatewayResponseDescription, defaultStatus: number, requestId: string): APIGatewayProxyResult {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(declared.headers))
    headers[name] = value === 'context.requestId' ? requestId : value.startsWith('context.') ? '' : value;
  return { statusCode: declared.statusCode ?? defaultStatus, headers, body: declared.body };
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_BODY_LIMIT_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > GATEWAY_BODY_LIMIT_BYTES ? undefined : Buffer.concat(chunks)));
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
      identity: {
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? null,
      } as APIGatewayProxyEvent['requestContext']['identity'],
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
export function gatewayError(statusCode: number, error: string, message: string, requestId: string, parameter?: string): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'X-Request-Id': requestId },
    body: JSON.stringify({ success: false, error, message, ...(parameter !== undefined && { details: { parameter } }) }),
  };
}

const NOT_PERCENT_ENCODED =
  'percent-encode the URL: UTF-8 bytes as %XX (… is %E2%80%A6), a literal % as %25 (curl -G --data-urlencode does it), or send the parameters as a JSON body.';

/**
 * The first query parameter (its name, as far as it decodes) whose name or value is not
 * valid percent-encoding, e.g. `%E0%A4%A`: URLSearchParams would quietly turn it into U+FFFD.
 */
function malformedQueryParameter(search: string): string | undefined {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const [name, value = ''] = pair.split(/=(.*)/s);
    const decode = (part: string) => decodeURIComponent(part.replaceAll('+', ' '));
    try {
      decode(name);
    } catch {
      return name;
    }
    try {
      decode(value);
    } catch {
      return decode(name);
    }
  }
  return undefined;
}

function send(res: ServerResponse, result: APIGatewayProxyResult) {
  res.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) res.setHeader(name, values.map(String));
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
