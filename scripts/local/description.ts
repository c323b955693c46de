/**
 * What the local gateway and the function host need to serve the API, whichever
 * source it comes from: the route table (shared/routes.ts, the default) or the
 * synthesized CloudFormation template (scripts/local/template.ts, STACK_SOURCE=template).
 */
import {
  API_BASE_PATH,
  API_ROUTES,
  METHOD_NOT_ALLOWED,
  type MethodNotAllowed,
  PORTAL_API_PATH,
  PORTAL_ROUTES,
  portalMethodNotAllowed,
  SUPPORT_FUNCTIONS,
} from '../../shared/routes';
import { bundlePath } from '../../infra/bundles';

/** API Gateway's response types the local gateway produces itself. */
export type GatewayResponseType =
  'UNAUTHORIZED' | 'ACCESS_DENIED' | 'MISSING_AUTHENTICATION_TOKEN' | 'THROTTLED' | 'REQUEST_TOO_LARGE' | 'DEFAULT_4XX' | 'DEFAULT_5XX';

/** A gateway response as the template declares it: status (absent = API Gateway's own), headers and body. */
export interface GatewayResponseDescription {
  statusCode?: number;
  /** Header name → value; the value `context.requestId` stands for the request id. */
  headers: Record<string, string>;
  body: string;
}

/** A usage plan's throttle (token bucket per API key): the plan's own over every method, or one method's. */
export interface MethodThrottle {
  burstLimit: number;
  /** Tokens per second. */
  rateLimit: number;
}

export interface RouteDescription {
  /** Full path, e.g. /api/workspace/v1/contacts/list. */
  path: string;
  methods: string[];
  /** The function serving it (a key of {@link StackDescription.functions}). */
  functionName: string;
  /** Whether the authorizer runs first. */
  authorized: boolean;
  /** Authorized by the user pool's ID token instead (the portal API). */
  userPool?: true;
  /** Per-method throttles by method, when the source declares them. */
  throttles?: Record<string, MethodThrottle>;
  /** The answer to any other method (405 on the API's endpoints); absent = 404 as an unknown path. */
  otherMethods?: GatewayResponseDescription;
}

export interface FunctionDescription {
  /** The bundle file Lambda would load (index.mjs in the function's asset folder). */
  bundle: string;
  /**
   * The function's own environment, resolved to local resources; undefined = the
   * route-table mode's shared process environment (every bundle in-process).
   */
  environment?: Record<string, string>;
  timeoutSeconds: number;
}

export interface AuthorizerDescription {
  functionName: string;
  /** e.g. `method.request.header.X-API-Key`; empty = none (no caching possible). */
  identitySources: string[];
  cacheTtlSeconds: number;
}

export interface StackDescription {
  source: 'routes' | 'template';
  routes: RouteDescription[];
  authorizer: AuthorizerDescription;
  /** Gateway responses; absent ones fall back to the local gateway's envelope. */
  responses: Partial<Record<GatewayResponseType, GatewayResponseDescription>>;
  /** The usage plan's own throttle (per API key, over every method), when the source declares one. */
  planThrottle?: MethodThrottle;
  functions: Record<string, FunctionDescription>;
  /** The function fed by the automation queue, and the one run on a schedule (the outbox re-drive). */
  queueConsumer: string;
  scheduled: string;
  /** Other scheduled functions (the message-content retention sweep, the inbound drain), run beside the re-drive. */
  alsoScheduled: string[];
}

/** The description the route table gives (`npm start`'s default): what the stack has always served. */
export function describeRouteTable(): StackDescription {
  const functions: Record<string, FunctionDescription> = {};
  // The timeouts the template gives by default (infra/config.ts): 10 s for the API, 60 s for the background functions,
  // which work to their invocation's deadline (the deliverer starts no attempt it cannot finish before it).
  for (const { name } of [...API_ROUTES, ...PORTAL_ROUTES]) functions[name] = { bundle: bundlePath(name), timeoutSeconds: 10 };
  for (const { name } of Object.values(SUPPORT_FUNCTIONS)) functions[name] = { bundle: bundlePath(name), timeoutSeconds: 60 };
  const routes: RouteDescription[] = API_ROUTES.map((route) => ({
    path: `${API_BASE_PATH}/${route.path}`,
    methods: ['GET', 'POST'],
    functionName: route.name,
    authorized: true,
    otherMethods: methodNotAllowed(),
  }));
  for (const route of PORTAL_ROUTES)
    routes.push({
      path: `${PORTAL_API_PATH}/${route.path}`,
      methods: [route.method],
      functionName: route.name,
      authorized: true,
      userPool: true,
      otherMethods: methodNotAllowed(portalMethodNotAllowed(route.path)),
    });
  for (const fn of Object.values(SUPPORT_FUNCTIONS)) {
    if (fn.publicPath) routes.push({ path: fn.publicPath, methods: [...(fn.publicMethods ?? ['GET', 'POST'])], functionName: fn.name, authorized: false });
  }
  return {
    source: 'routes',
    routes,
    authorizer: { functionName: SUPPORT_FUNCTIONS.authorizer.name, identitySources: [], cacheTtlSeconds: 0 },
    responses: {},
    functions,
    queueConsumer: SUPPORT_FUNCTIONS.automationRunner.name,
    scheduled: SUPPORT_FUNCTIONS.automationRedrive.name,
    alsoScheduled: [SUPPORT_FUNCTIONS.messageContentSweep.name, SUPPORT_FUNCTIONS.inboundDrain.name],
  };
}

/** The 405 the stack's mock ANY method answers (infra/api.ts), from the same definition. */
function methodNotAllowed(answer: MethodNotAllowed = METHOD_NOT_ALLOWED): GatewayResponseDescription {
  const { statusCode, error, message, allow } = answer;
  return {
    statusCode,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Request-Id': 'context.requestId',
      Allow: allow,
    },
    body: JSON.stringify({ success: false, error, message }),
  };
}
