import type { APIGatewayProxyResult } from 'aws-lambda';
import { clock } from '../../clock';
import type { ApiRequest } from '../context';
import { baseHeaders, errorResponse, successResponse, type EndpointResult } from '../envelope';
import { statusOf, toAppError } from '../errors';
import { logger } from '../../observability/logger';
import { recordRequest } from '../../observability/metrics';
import type { ApiRoute } from '../../routes';

/**
 * Outermost middleware: opens the request scope, wraps the endpoint's result in the
 * success envelope, maps every error to the failure envelope, and writes one log
 * line per request. Errors of status 500 and above never show their own message.
 */
export function responseEnvelope(route: ApiRoute) {
  return {
    before: function openScope(request: ApiRequest) {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId ?? 'local';
      request.context.api = { route, requestId, startedAt: clock.now(), headers: baseHeaders(requestId), params: {} };
    },
    after: function wrapSuccess(request: ApiRequest) {
      const { api } = request.context;
      request.response = successResponse(request.response as unknown as EndpointResult, api.headers);
      logRequest(request, request.response);
    },
    onError: function wrapFailure(request: ApiRequest) {
      // Errors thrown before openScope ran (none today) still get an envelope.
      request.context.api ??= {
        route,
        requestId: request.context.awsRequestId ?? 'local',
        startedAt: clock.now(),
        headers: baseHeaders(request.context.awsRequestId ?? 'local'),
        params: {},
      };
      const error = toAppError(request.error);
      // The log keeps what the caller never sees: the original error and its causes.
      if (statusOf(error) >= 500) logger.error('request failed', { error: request.error as Error });
      request.response = errorResponse(error, request.context.api.headers);
      logRequest(request, request.response, error.code);
    },
  };
}

function logRequest(request: ApiRequest, response: APIGatewayProxyResult, errorCode?: string) {
  const { api } = request.context;
  logger.info('request', {
    requestId: api.requestId,
    endpoint: api.route.path,
    method: request.event.httpMethod,
    workspaceId: api.principal?.workspaceId,
    userId: api.principal?.userId,
    // The portal's request log reads these back per key (shared/observability/request-log.ts).
    keyId: api.principal?.keyId,
    rateClass: api.route.rateLimitClass,
    channelId: api.channelId,
    status: response.statusCode,
    error: errorCode,
    latencyMs: clock.now() - api.startedAt,
  });
  recordRequest(api.route.path, response.statusCode);
}
