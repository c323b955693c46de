/**
 * The REST API: one resource per route-table row under /api/workspace/v1 with GET and
 * POST behind the API-key authorizer, public routes for support functions that declare
 * a `publicPath`, gateway responses in the API's error envelope, and the usage plan
 * whose per-method throttles mirror each route's rate-limit class.
 */
import { Duration, Size, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  type ThrottlingPerMethod,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ForbiddenError, UnauthenticatedError } from '../shared/errors';
import { API_BASE_PATH, type ApiRoute } from '../shared/routes';
import type { StageConfig } from './config';

/** Both verbs for every endpoint: clients may send parameters as query string or JSON body. */
export const API_METHODS = ['GET', 'POST'] as const;

/**
 * Rate-limit windows are one minute long (RATE_WINDOW_MS in shared/data/rate-limits.ts,
 * not imported because it loads the DynamoDB client; a test keeps them equal).
 * API Gateway cannot compute a reset time, so it names the window length.
 */
export const RETRY_AFTER_SECONDS = 60;

/**
 * Access-log fields. Only `$context.resourcePath` (the route template) is logged, never
 * the request path with its query string, nor the API key itself (`apiKeyId` is its id).
 */
export const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integration.status',
  errorType: '$context.error.responseType',
  errorMessage: '$context.error.message',
  authorizerStatus: '$context.authorizer.status',
  authorizerLatency: '$context.authorizer.latency',
  authorizerError: '$context.authorizer.error',
  principalId: '$context.authorizer.principalId',
  apiKeyId: '$context.identity.apiKeyId',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  xrayTraceId: '$context.xrayTraceId',
};

interface GatewayResponseSpec {
  readonly type: ResponseType;
  /** Omitted: keep API Gateway's own status (DEFAULT_4XX/5XX cover several). */
  readonly statusCode?: string;
  readonly error: string;
  readonly message: string;
  readonly retryAfter?: boolean;
}

const RATE_LIMITED_MESSAGE = 'Too many requests. Retry after the number of seconds in the Retry-After header.';

/** API Gateway's own error answers, rewritten into the envelope the functions use. */
export const GATEWAY_RESPONSES: readonly GatewayResponseSpec[] = [
  { type: ResponseType.UNAUTHORIZED, statusCode: '401', error: 'unauthorized', message: new UnauthenticatedError().message },
  { type: ResponseType.ACCESS_DENIED, statusCode: '403', error: 'forbidden', message: new ForbiddenError().message },
  // The authorizer accepted the key, but the key is not in the usage plan (not provisioned, or disabled).
  { type: ResponseType.INVALID_API_KEY, statusCode: '403', error: 'forbidden', message: 'This API key is not enabled for this API.' },
  { type: ResponseType.THROTTLED, statusCode: '429', error: 'rate_limited', message: RATE_LIMITED_MESSAGE, retryAfter: true },
  { type: ResponseType.QUOTA_EXCEEDED, statusCode: '429', error: 'rate_limited', message: RATE_LIMITED_MESSAGE, retryAfter: true },
  // REST APIs answer an unknown path (or verb) with 403 "Missing Authentication Token".
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: '404', error: 'not_found', message: 'No endpoint exists at this path for this method.' },
  { type: ResponseType.BAD_REQUEST_BODY, statusCode: '400', error: 'invalid_request', message: 'The request body is invalid.' },
  { type: ResponseType.DEFAULT_4XX, error: 'invalid_request', message: 'The request is invalid.' },
  { type: ResponseType.DEFAULT_5XX, error: 'internal_error', message: 'An unexpected error occurred. Quote the request id when you contact support.' },
];

/** A support function served without the authorizer (e.g. the chat network's webhook). */
export interface PublicRoute {
  /** Absolute path, e.g. `/webhooks/whatsapp`. */
  readonly path: string;
  readonly methods: readonly string[];
  readonly handler: IFunction;
}

export interface WorkspaceRestApiProps {
  readonly config: StageConfig;
  readonly authorizerHandler: IFunction;
  readonly routes: readonly { readonly route: ApiRoute; readonly handler: IFunction }[];
  readonly publicRoutes: readonly PublicRoute[];
}

export class WorkspaceRestApi extends Construct {
  readonly api: RestApi;
  readonly accessLogs: LogGroup;
  readonly usagePlan: UsagePlan;
  readonly authorizer: RequestAuthorizer;
  private readonly config: StageConfig;

  constructor(scope: Construct, id: string, props: WorkspaceRestApiProps) {
    super(scope, id);
    const { config } = props;
    this.config = config;

    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    this.api = new RestApi(this, 'RestApi', {
      restApiName: `${config.resourcePrefix}-api`,
      description: `Workspace messaging API (${config.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      // The authorizer returns the API user's usage-plan key as usageIdentifierKey, so the
      // usage plan throttles per API user, whichever header carried the caller's key.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // Gzip for clients that ask for it: list pages and the 1.9 MB docs page shrink to a fraction.
      minCompressionSize: Size.kibibytes(1),
      // Access and execution logging need the account-level CloudWatch role (one per account and region).
      cloudWatchRole: config.apiGatewayCloudWatchRole,
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        // Execution logs for errors only; never request or response bodies.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        // Stage-wide ceiling for all callers together; per-key limits are in the usage plan.
        throttlingRateLimit: config.apiThrottle.rateLimit,
        throttlingBurstLimit: config.apiThrottle.burstLimit,
      },
    });

    this.authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: props.authorizerHandler,
      // A key arrives as X-API-Key or as Authorization: Bearer. API Gateway rejects a request
      // lacking any listed identity source before the authorizer runs, so none is listed;
      // without one, results cannot be cached (TTL 0): the function caches lookups itself.
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    const throttles = props.routes.flatMap(({ route, handler }) => this.addApiRoute(route, handler));
    for (const publicRoute of props.publicRoutes) this.addPublicRoute(publicRoute);
    for (const spec of GATEWAY_RESPONSES) this.addEnvelopeResponse(spec);

    this.usagePlan = this.api.addUsagePlan('UsagePlan', {
      name: `${config.resourcePrefix}-api-keys`,
      description: 'All API keys. Per-method throttles mirror the route rate-limit classes (burst = per-minute limit).',
      apiStages: [{ api: this.api, stage: this.api.deploymentStage, throttle: throttles }],
    });

    this.acknowledgeNagFindings();
  }

  /** GET and POST on /api/workspace/v1/<path>, behind the authorizer, requiring a usage-plan key. */
  private addApiRoute(route: ApiRoute, handler: IFunction): ThrottlingPerMethod[] {
    const resource = this.api.root.resourceForPath(`${API_BASE_PATH}/${route.path}`);
    // One integration (and one invoke permission per method): test-invoke permissions are not needed.
    const integration = new LambdaIntegration(handler, { allowTestInvoke: false });
    const limit = this.config.rateLimits[route.rateLimitClass];
    return API_METHODS.map((verb) => {
      const method = resource.addMethod(verb, integration, {
        authorizer: this.authorizer,
        authorizationType: AuthorizationType.CUSTOM,
        apiKeyRequired: true,
      });
      // Token bucket per key: a full minute's allowance at once, refilled at limit/60 per second.
      return { method, throttle: { burstLimit: limit, rateLimit: limit / 60 } };
    });
  }

  /** A support function's public path: no authorizer, no API key (the function checks callers itself). */
  private addPublicRoute({ path, methods, handler }: PublicRoute): void {
    const resource = this.api.root.resourceForPath(path);
    const integration = new LambdaIntegration(handler, { allowTestInvoke: false });
    for (const verb of methods) {
      const method = resource.addMethod(verb, integration, { authorizationType: AuthorizationType.NONE, apiKeyRequired: false });
      const reason = `${path} is public by declaration (SUPPORT_FUNCTIONS publicPath): its callers cannot send an API key, and the function authenticates what needs it (the webhook checks the chat network's signature).`;
      Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
    }
  }

  private addEnvelopeResponse({ type, statusCode, error, message, retryAfter }: GatewayResponseSpec): void {
    const template = JSON.stringify({ success: false, error, message });
    // Templates are Velocity: a `$` or `#` in a message would be evaluated, not shown.
    if (/[$#]/.test(template)) throw new Error(`Gateway response ${type.responseType}: message must not contain $ or #`);
    this.api.addGatewayResponse(`Response${type.responseType}`, {
      type,
      statusCode,
      responseHeaders: {
        // Header values are mapping expressions: quoted literals, or context variables.
        'X-Request-Id': 'context.requestId',
        'Cache-Control': "'no-store'",
        'X-Content-Type-Options': "'nosniff'",
        ...(retryAfter && { 'Retry-After': `'${RETRY_AFTER_SECONDS}'` }),
      },
      templates: { 'application/json': template },
    });
  }

  private acknowledgeNagFindings(): void {
    Validations.of(this.api).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason: 'Every function validates its parameters (valibot schema) and answers in the API error envelope; gateway models would duplicate the schemas.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason: 'Callers are integrations authenticated by workspace API keys through the Lambda REQUEST authorizer; there are no end-user identities for Cognito.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: 'The account-level API Gateway logging role uses the AWS managed policy made for exactly this purpose.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason: 'Abuse is limited by the authorizer, per-key usage-plan throttles, the stage throttle and the per-user rate limiter; a WAF web ACL can be associated per account when needed.',
      },
    );
  }
}
