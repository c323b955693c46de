import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Principal } from '../auth/principal';
import type { ApiRoute } from '../routes';

/** Per-request state the middleware stack builds up for the endpoint. */
export interface ApiScope {
  route: ApiRoute;
  requestId: string;
  startedAt: number;
  /** Headers added to the response, success or failure (rate-limit headers, request id). */
  headers: Record<string, string>;
  principal?: Principal;
  /** Query string and body merged (the body wins on a clash). */
  params: Record<string, unknown>;
  /** The validated parameters. */
  input?: unknown;
  channelId?: string;
}

export interface ApiContext extends Context {
  api: ApiScope;
}

export type ApiRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;

/** What the parameter middleware needs of a request (the API's and the portal's alike). */
export interface ParameterContext extends Context {
  api: Pick<ApiScope, 'params' | 'input'>;
}
export type ParameterRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ParameterContext>;
