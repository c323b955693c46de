import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as v from 'valibot';
import type { Principal } from '../auth/principal';
import type { ChannelRef } from '../identity';
import type { EndpointResponse } from '../schema/responses';
import { withInvocationDeadline } from '../outbound/deadline';
import { findRoute } from '../routes';
import type { ApiContext } from './context';
import type { EndpointResult } from './envelope';
import { channelScope } from './middleware/channel';
import { responseEnvelope } from './middleware/envelope';
import { requestParameters, validParameters } from './middleware/parameters';
import { authorizedPrincipal } from './middleware/principal';
import { rateLimit } from './middleware/rate-limit';
import { roleCheck } from './middleware/role';
import { TRACING_ENABLED } from '../observability/tracing';
import { tracing } from './middleware/tracing';

export interface RequestScope {
  principal: Principal;
  requestId: string;
  /** The channel of a channel-scoped endpoint, in the caller's workspace. */
  channel: ChannelRef;
}

export interface EndpointDefinition<TSchema extends v.GenericSchema = v.GenericSchema, TData extends v.GenericSchema = v.GenericSchema> {
  /** The route table row's path, e.g. `contacts/list`. */
  path: string;
  /** What it takes: the parameters, each with its OpenAPI description and example. */
  schema: TSchema;
  /** What it answers (the function file exports it for the OpenAPI document too). */
  response: EndpointResponse<TData>;
  /** Whether the endpoint works on one channel (resolved from channelId or the key's only channel). */
  channelScoped: boolean;
  handle: (input: v.InferOutput<TSchema>, scope: RequestScope) => Promise<EndpointResult<v.InferInput<TData>>>;
}

/** What Lambda invokes for a REST proxy integration. */
export type ApiLambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** An endpoint's handler, with the definition it was built from (the bench times `handle` without the stack). */
export type ApiEndpointHandler<TSchema extends v.GenericSchema = v.GenericSchema, TData extends v.GenericSchema = v.GenericSchema> = ApiLambdaHandler & {
  readonly endpoint: EndpointDefinition<TSchema, TData>;
};

/**
 * Builds an endpoint's Lambda handler on the one middleware stack every endpoint
 * shares: envelope and logging, principal, rate limit, role, parameters, validation,
 * channel resolution, in that order.
 */
export function apiEndpoint<TSchema extends v.GenericSchema, TData extends v.GenericSchema>(
  definition: EndpointDefinition<TSchema, TData>,
): ApiEndpointHandler<TSchema, TData> {
  const route = findRoute(definition.path);
  if (!route) throw new Error(`No route table row for ${definition.path}`);
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>();
  // Off by default (POWERTOOLS_TRACER_ENABLED=true turns it on): no tracer code runs otherwise.
  if (TRACING_ENABLED) stack.use(tracing(route));
  stack
    .use(responseEnvelope(route))
    .use(authorizedPrincipal())
    .use(rateLimit())
    .use(roleCheck())
    .use(requestParameters(route.maxBodyBytes))
    .use(validParameters(definition.schema));
  if (definition.channelScoped) stack.use(channelScope());
  const handler = stack.handler(async function endpoint(_event, context) {
    const { api } = context;
    const principal = api.principal!;
    const channelId = api.channelId ?? '';
    const result = await definition.handle(api.input as v.InferOutput<TSchema>, {
      principal,
      requestId: api.requestId,
      channel: { workspaceId: principal.workspaceId, channelId },
    });
    return result as unknown as APIGatewayProxyResult;
  });
  const run = handler as unknown as ApiLambdaHandler;
  // Outbound calls (the chat network) end before the function's timeout, leaving time to record their outcome.
  const invoke: ApiLambdaHandler = (event, context) => withInvocationDeadline(context, () => run(event, context));
  return Object.assign(invoke, { endpoint: definition });
}
