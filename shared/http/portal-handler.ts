import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as v from 'valibot';
import { portalPrincipalFromClaims, requirePermission, type PortalPrincipal } from '../auth/portal-principal';
import { clock } from '../clock';
import { logger } from '../observability/logger';
import { findPortalRoute, PORTAL_API_PATH, type PortalRoute } from '../routes';
import type { ParameterContext } from './context';
import { baseHeaders, errorResponse } from './envelope';
import { statusOf, toAppError } from './errors';
import { requestParameters, validParameters } from './middleware/parameters';
import { countAgainstLimitOf } from './middleware/rate-limit';

/** Who calls and where: what a portal function's `handle` gets beside its input. */
export interface PortalScope {
  principal: PortalPrincipal;
  requestId: string;
}

export interface PortalEndpointDefinition<TSchema extends v.GenericSchema = v.GenericSchema> {
  /** The portal route's function name, e.g. `PortalKeysCreate` (shared/routes.ts). */
  name: string;
  schema: TSchema;
  /** The answer's JSON (INTERFACE §17: the object or list itself, no envelope). */
  handle: (input: v.InferOutput<TSchema>, scope: PortalScope) => Promise<unknown>;
}

interface PortalContext extends ParameterContext {
  api: ParameterContext['api'] & { route: PortalRoute; requestId: string; startedAt: number; headers: Record<string, string>; principal?: PortalPrincipal };
}
type PortalRequest = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, PortalContext>;

export type PortalLambdaHandler = ((event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>) & {
  /** Its row in the route table. */
  readonly route: PortalRoute;
};

/**
 * A portal function's Lambda handler: the caller from the ID token's claims (the Cognito
 * authorizer checked the token), `settings:api` required before anything else (403 naming
 * it), the call counted against the user's API user's per-minute limit, the parameters
 * read and checked as the API reads them; errors in the API's envelope, one log line a call.
 */
export function portalEndpoint<TSchema extends v.GenericSchema>(definition: PortalEndpointDefinition<TSchema>): PortalLambdaHandler {
  const route = findPortalRoute(definition.name);
  if (!route) throw new Error(`No portal route row for ${definition.name}`);
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, PortalContext>()
    .use({
      before: function openScope(request: PortalRequest) {
        const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId ?? 'local';
        request.context.api = { route, requestId, startedAt: clock.now(), headers: baseHeaders(requestId), params: {} };
      },
      after: function writeAnswer(request: PortalRequest) {
        logCall(request, 200);
      },
      onError: function wrapFailure(request: PortalRequest) {
        const api = (request.context.api ??= { route, requestId: 'local', startedAt: clock.now(), headers: baseHeaders('local'), params: {} });
        const error = toAppError(request.error);
        if (statusOf(error) >= 500) logger.error('portal request failed', { error: request.error as Error });
        request.response = errorResponse(error, api.headers);
        logCall(request, request.response.statusCode, error.code);
      },
    })
    .use({
      before: async function signedInUser(request: PortalRequest) {
        const { api } = request.context;
        const authorizer = request.event.requestContext?.authorizer as { claims?: Record<string, unknown> } | null | undefined;
        api.principal = portalPrincipalFromClaims(authorizer?.claims);
        requirePermission(api.principal, 'settings:api');
        await countAgainstLimitOf({ workspaceId: api.principal.workspaceId, userId: api.principal.apiUserId }, route.rateLimitClass, api.headers);
      },
    })
    .use(requestParameters())
    .use(validParameters(definition.schema))
    .handler(async (_event, context) => {
      const { api } = context;
      const answer = await definition.handle(api.input as v.InferOutput<TSchema>, { principal: api.principal!, requestId: api.requestId });
      return { statusCode: 200, headers: api.headers, body: JSON.stringify(answer) };
    });
  return Object.assign(handler as unknown as PortalLambdaHandler, { route });
}

/** One line a portal call (no key, no token, no parameter values). */
function logCall(request: PortalRequest, status: number, errorCode?: string) {
  const { api } = request.context;
  logger.info('portal request', {
    requestId: api.requestId,
    endpoint: `${PORTAL_API_PATH}/${api.route.path}`,
    method: request.event.httpMethod,
    workspaceId: api.principal?.workspaceId,
    userId: api.principal?.apiUserId,
    status,
    error: errorCode,
    latencyMs: clock.now() - api.startedAt,
  });
}
