/**
 * The REST API: one resource per route-table row under /api/workspace/v1 with GET and
 * POST behind the API-key authorizer, public routes for support functions that declare
 * a `publicPath`, gateway responses in the API's error envelope, the usage plan (a
 * throttle per API user over all methods, and per-method throttles that mirror each
 * route's rate-limit class), and what bounds keyless
 * traffic: the public routes' own method throttles, the gateway cache on the OpenAPI
 * document and a WAF web ACL (docs/DEPLOYMENT.md, *Anonymous traffic*).
 */
import { Duration, Size, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  AwsIntegration,
  CognitoUserPoolsAuthorizer,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  type IResource,
  type MethodDeploymentOptions,
  type ThrottlingPerMethod,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { KEY_IN_QUERY_STRING_PATTERN } from '../shared/auth/key-placement';
import { KEY_IN_URL_MESSAGE, UnauthenticatedError } from '../shared/errors';
import { MAX_BODY_BYTES } from '../shared/config';
import {
  API_BASE_PATH,
  API_METHODS,
  API_ROUTES,
  type ApiRoute,
  METHOD_NOT_ALLOWED,
  type MethodNotAllowed,
  portalMethodNotAllowed,
  OPENAPI_PATH,
  PORTAL_API_PATH,
  type PortalRoute,
  UNKNOWN_PATH,
  WEBHOOK_PATH,
} from '../shared/routes';
import type { StageConfig } from './config';
import { usagePlanName } from './portal';

export { API_METHODS };

/**
 * Rate-limit windows are one minute long (RATE_WINDOW_MS in shared/data/rate-limits.ts,
 * not imported because it loads the DynamoDB client; a test keeps them equal).
 * API Gateway cannot compute a reset time, so it names the window length.
 */
export const RETRY_AFTER_SECONDS = 60;

/**
 * Access-log fields: what the function's own request line (shared/http/middleware/envelope.ts:
 * requestId, endpoint, method, workspace, user, status, latency) cannot say, because the
 * request never reached a function (401, 403, 429 and 5xx of the gateway) — plus the
 * request id that joins the two. `status` feeds the 429 metric, `errorType` the authorizer
 * failures metric (infra/alarms.ts). Only `$context.resourcePath` (the route template) is
 * logged, never the request path with its query string, nor the API key. docs/PERFORMANCE.md
 * (*Cost model*) explains what was dropped and why.
 */
export const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  sourceIp: '$context.identity.sourceIp',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  errorType: '$context.error.responseType',
  responseLatency: '$context.responseLatency',
};

/** Gateway error types of an authorizer that failed (threw other than Unauthorized, timed out, answered malformed). */
export const AUTHORIZER_FAILURE_TYPES = ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'] as const;

interface GatewayResponseSpec {
  readonly type: ResponseType;
  /** Omitted: keep API Gateway's own status (DEFAULT_4XX/5XX cover several). */
  readonly statusCode?: string;
  readonly error: string;
  readonly message: string;
  /** The envelope's `details`, as the functions give it (e.g. the parameter at fault). */
  readonly details?: Record<string, string>;
  readonly retryAfter?: boolean;
}

const RATE_LIMITED_MESSAGE = 'Too many requests. Retry after the number of seconds in the Retry-After header.';

/** The request-too-large message: every endpoint's body limit, from the route table. */
function bodyLimitsMessage(): string {
  const kib = (bytes: number) => `${bytes / 1024} KiB`;
  const own = API_ROUTES.filter((route) => route.maxBodyBytes !== undefined).map((route) => `${route.path} ${kib(route.maxBodyBytes!)}`);
  return `The request is too large: endpoints take bodies up to ${kib(MAX_BODY_BYTES)}${own.length ? ` (${own.join(', ')})` : ''}.`;
}

/** API Gateway's own error answers, rewritten into the envelope the functions use. */
export const GATEWAY_RESPONSES: readonly GatewayResponseSpec[] = [
  { type: ResponseType.UNAUTHORIZED, statusCode: '401', error: 'unauthorized', message: new UnauthenticatedError().message },
  // The authorizer denies (rather than refuses) only a key in the URL (shared/auth/authorize.ts): a 401 saying to rotate it.
  { type: ResponseType.ACCESS_DENIED, statusCode: '401', error: 'unauthorized', message: KEY_IN_URL_MESSAGE },
  // The authorizer accepted the key, but the key is not in the usage plan (not provisioned, or disabled).
  { type: ResponseType.INVALID_API_KEY, statusCode: '403', error: 'forbidden', message: 'This API key is not enabled for this API.' },
  { type: ResponseType.THROTTLED, statusCode: '429', error: 'rate_limited', message: RATE_LIMITED_MESSAGE, retryAfter: true },
  { type: ResponseType.QUOTA_EXCEEDED, statusCode: '429', error: 'rate_limited', message: RATE_LIMITED_MESSAGE, retryAfter: true },
  // REST APIs answer an unknown path (or verb) with 403 "Missing Authentication Token"; another
  // verb on an endpoint's path never gets here (its mock ANY method answers 405).
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: String(UNKNOWN_PATH.statusCode), error: UNKNOWN_PATH.error, message: UNKNOWN_PATH.message },
  { type: ResponseType.BAD_REQUEST_BODY, statusCode: '400', error: 'invalid_request', message: 'The request body is invalid.' },
  // A request whose proxy event exceeds what a Lambda invocation carries (LAMBDA_INVOKE_PAYLOAD_LIMIT_BYTES,
  // infra/platform-limits.ts): API Gateway refuses it without invoking the function.
  {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    error: 'payload_too_large',
    message: bodyLimitsMessage(),
    details: { parameter: 'body' },
  },
  { type: ResponseType.DEFAULT_4XX, error: 'invalid_request', message: 'The request is invalid.' },
  { type: ResponseType.DEFAULT_5XX, error: 'internal_error', message: 'An unexpected error occurred. Quote the request id when you contact support.' },
];

/** An envelope as a mapping template. Templates are Velocity: a `$` or `#` in a message would be evaluated, not shown. */
function envelopeTemplate(what: string, envelope: Record<string, unknown>): string {
  const template = JSON.stringify(envelope);
  if (/[$#]/.test(template)) throw new Error(`${what}: message must not contain $ or #`);
  return template;
}

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
  /** The developer portal's routes, behind the user pool's Cognito authorizer (infra/portal.ts). */
  readonly portal?: { readonly userPool: IUserPool; readonly routes: readonly { readonly route: PortalRoute; readonly handler: IFunction }[] };
}

/**
 * Method settings of the public routes (keys `<path>/<VERB>`): each its own throttle
 * (the webhook's or the docs'), and the gateway cache on the OpenAPI document's GET
 * when `docsCache` is on. Derived from the routes actually added: a setting for a
 * method that does not exist fails the deploy.
 */
export function publicMethodOptions(
  config: StageConfig,
  publicRoutes: readonly Pick<PublicRoute, 'path' | 'methods'>[],
): Record<string, MethodDeploymentOptions> {
  // Overrides do not inherit the stage's logging settings, so each repeats them.
  const logging = { loggingLevel: MethodLoggingLevel.ERROR, dataTraceEnabled: false };
  // The document fits the gateway cache (entries up to 1 MB; test/infra checks its size); the
  // docs page (Swagger UI inlined) does not, so only its throttle bounds it.
  const cache = config.docsCache.enabled ? { cachingEnabled: true, cacheTtl: config.docsCache.ttl } : {};
  const options: Record<string, MethodDeploymentOptions> = {};
  for (const { path, methods } of publicRoutes) {
    const { rateLimit, burstLimit } = path === WEBHOOK_PATH ? config.publicThrottles.webhook : config.publicThrottles.docs;
    for (const verb of methods) {
      options[`${path}/${verb}`] = {
        ...logging,
        throttlingRateLimit: rateLimit,
        throttlingBurstLimit: burstLimit,
        ...(path === OPENAPI_PATH && verb === 'GET' && cache),
      };
    }
  }
  return options;
}

export class WorkspaceRestApi extends Construct {
  readonly api: RestApi;
  readonly accessLogs: LogGroup;
  /** API Gateway's execution log group, created here so it has a retention and goes with the stack. */
  readonly executionLogs: LogGroup;
  readonly webAcl?: CfnWebACL;
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
        // Default throttle of each method (API Gateway keeps one bucket per method, not
        // one for the stage), all callers together; per-key limits are in the usage plan.
        throttlingRateLimit: config.apiThrottle.rateLimit,
        throttlingBurstLimit: config.apiThrottle.burstLimit,
        // Nothing behind a key is ever cached (the cache key would not hold the caller);
        // only the public document's method turns caching on.
        cachingEnabled: false,
        ...(config.docsCache.enabled && { cacheClusterEnabled: true, cacheClusterSize: '0.5' }),
        methodOptions: publicMethodOptions(config, props.publicRoutes),
      },
    });
    // The stack's own ApiUrl output names the API's base path; CDK's stage-URL output would say it twice.
    this.api.node.tryRemoveChild('Endpoint');
    this.executionLogs = this.createExecutionLogGroup();

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
    if (props.portal) this.addPortalRoutes(props.portal);
    for (const spec of GATEWAY_RESPONSES) this.addEnvelopeResponse(spec);

    // One plan for every user: an API key may be in several plans only for different stages.
    // Its own throttle is one bucket per user over every method; the per-method ones, one per user and method.
    this.usagePlan = this.api.addUsagePlan('UsagePlan', {
      name: usagePlanName(config),
      description:
        'All API keys. Per user: a throttle over all methods (every class limit together) and per-method throttles at the route classes (burst = per-minute limit).',
      throttle: { rateLimit: config.planThrottle.rateLimit, burstLimit: config.planThrottle.burstLimit },
      apiStages: [{ api: this.api, stage: this.api.deploymentStage, throttle: throttles }],
    });

    if (config.waf.enabled) this.webAcl = this.createWebAcl();
    this.acknowledgeNagFindings();
  }

  /**
   * API Gateway writes execution logs to `API-Gateway-Execution-Logs_<restApiId>/<stage>`,
   * creating the group itself on first write — then it never expires and outlives the
   * stack. Created here first (the stage waits for it), it gets the stage's retention
   * and removal policy.
   */
  private createExecutionLogGroup(): LogGroup {
    const logGroup = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${this.config.stage}`,
      retention: this.config.logRetention,
      removalPolicy: this.config.removalPolicy,
    });
    this.api.deploymentStage.node.addDependency(logGroup);
    return logGroup;
  }

  /**
   * A regional web ACL on the stage (context `waf`): calls to API routes with a key in
   * the URL and keyless calls are answered 401 by WAF (the first saying to rotate that key), before they cost an authorizer invocation; keyless traffic
   * (docs, unknown paths) and all traffic are rate-limited per source IP. The webhook is
   * exempt from both limits: the chat network calls it from few addresses, and its own
   * method throttle bounds it.
   */
  private createWebAcl(): CfnWebACL {
    const { config } = this;
    const none = [{ priority: 0, type: 'NONE' }];
    const hasHeader = (name: string) => ({
      sizeConstraintStatement: { fieldToMatch: { singleHeader: { Name: name } }, comparisonOperator: 'GT', size: 0, textTransformations: none },
    });
    const path = (positionalConstraint: string, searchString: string) => ({
      byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint, searchString, textTransformations: none },
    });
    const not = (statement: CfnWebACL.StatementProperty) => ({ notStatement: { statement } });
    const keyInQueryString = {
      regexMatchStatement: {
        fieldToMatch: { queryString: {} },
        regexString: KEY_IN_QUERY_STRING_PATTERN,
        textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
      },
    };
    const keyless = not({ orStatement: { statements: [hasHeader('x-api-key'), hasHeader('authorization')] } });
    const notWebhook = not(path('CONTAINS', WEBHOOK_PATH));
    const visibility = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `${config.resourcePrefix}-${metricName}`,
    });
    const block = (statusCode: number, body: string, headers: { name: string; value: string }[] = []) => ({
      block: { customResponse: { responseCode: statusCode, customResponseBodyKey: body, ...(headers.length && { responseHeaders: headers }) } },
    });
    const envelope = (error: string, message: string) => ({ contentType: 'APPLICATION_JSON', content: JSON.stringify({ success: false, error, message }) });
    const retryAfter = [{ name: 'Retry-After', value: String(RETRY_AFTER_SECONDS) }];

    const webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${config.resourcePrefix}-api`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('waf'),
      customResponseBodies: {
        unauthorized: envelope('unauthorized', new UnauthenticatedError().message),
        key_in_url: envelope('unauthorized', KEY_IN_URL_MESSAGE),
        rate_limited: envelope('rate_limited', RATE_LIMITED_MESSAGE),
      },
      rules: [
        {
          name: 'KeysInUrl',
          priority: 0,
          statement: { andStatement: { statements: [path('CONTAINS', `${API_BASE_PATH}/`), keyInQueryString] } },
          action: block(401, 'key_in_url'),
          visibilityConfig: visibility('keys-in-url'),
        },
        {
          name: 'KeylessApiCalls',
          priority: 1,
          statement: { andStatement: { statements: [path('CONTAINS', `${API_BASE_PATH}/`), not(path('ENDS_WITH', OPENAPI_PATH)), keyless] } },
          action: block(401, 'unauthorized'),
          visibilityConfig: visibility('keyless-api-calls'),
        },
        {
          name: 'AnonymousRatePerIp',
          priority: 2,
          statement: {
            rateBasedStatement: {
              limit: config.waf.anonymousLimit,
              aggregateKeyType: 'IP',
              scopeDownStatement: { andStatement: { statements: [keyless, notWebhook] } },
            },
          },
          action: block(429, 'rate_limited', retryAfter),
          visibilityConfig: visibility('anonymous-rate-per-ip'),
        },
        {
          name: 'RatePerIp',
          priority: 3,
          statement: { rateBasedStatement: { limit: config.waf.ipLimit, aggregateKeyType: 'IP', scopeDownStatement: notWebhook } },
          action: block(429, 'rate_limited', retryAfter),
          visibilityConfig: visibility('rate-per-ip'),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'WebAclAssociation', { resourceArn: this.api.deploymentStage.stageArn, webAclArn: webAcl.attrArn });
    return webAcl;
  }

  /**
   * The portal's methods below /portal/api, each its route's one method, behind a Cognito
   * user-pool authorizer: API Gateway checks the ID token (signature, issuer, audience,
   * expiry) of `Authorization` and hands its claims to the function. No usage-plan key:
   * the function counts the call against the user's API user's per-minute limit.
   */
  private addPortalRoutes(portal: NonNullable<WorkspaceRestApiProps['portal']>): void {
    const authorizer = new CognitoUserPoolsAuthorizer(this, 'PortalAuthorizer', { cognitoUserPools: [portal.userPool] });
    for (const { route, handler } of portal.routes) {
      this.api.root
        .resourceForPath(`${PORTAL_API_PATH}/${route.path}`)
        .addMethod(route.method, new LambdaIntegration(handler, { allowTestInvoke: false }), { authorizer, authorizationType: AuthorizationType.COGNITO });
    }
    for (const path of new Set(portal.routes.map(({ route }) => route.path)))
      this.addMethodNotAllowed(this.api.root.resourceForPath(`${PORTAL_API_PATH}/${path}`), portalMethodNotAllowed(path));
  }

  /** GET and POST on /api/workspace/v1/<path>, behind the authorizer, requiring a usage-plan key. */
  private addApiRoute(route: ApiRoute, handler: IFunction): ThrottlingPerMethod[] {
    const resource = this.api.root.resourceForPath(`${API_BASE_PATH}/${route.path}`);
    const integration = this.pathIntegration(handler, resource);
    const limit = this.config.rateLimits[route.rateLimitClass];
    this.addMethodNotAllowed(resource);
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

  /**
   * ANY other method on an endpoint's or a portal path: 405 with `Allow` in the envelope,
   * answered by API Gateway itself (a mock integration: no authorizer, no function, nothing
   * to bill but the request). The path's explicit methods take precedence over ANY.
   */
  private addMethodNotAllowed(resource: IResource, answer: MethodNotAllowed = METHOD_NOT_ALLOWED): void {
    const { statusCode, error, message, allow } = answer;
    const status = String(statusCode);
    const headers: Record<string, string> = {
      Allow: `'${allow}'`,
      'X-Request-Id': 'context.requestId',
      'Cache-Control': "'no-store'",
      'X-Content-Type-Options': "'nosniff'",
      'Content-Type': "'application/json; charset=utf-8'",
    };
    const integration = new MockIntegration({
      // No content type, or any JSON: the template makes the mock answer; other types pass through and get the same answer.
      requestTemplates: { 'application/json': `{"statusCode": ${status}}` },
      integrationResponses: [
        {
          statusCode: status,
          responseTemplates: { 'application/json': envelopeTemplate('method not allowed', { success: false, error, message }) },
          responseParameters: Object.fromEntries(Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, value])),
        },
      ],
    });
    const method = resource.addMethod('ANY', integration, {
      authorizationType: AuthorizationType.NONE,
      apiKeyRequired: false,
      methodResponses: [
        { statusCode: status, responseParameters: Object.fromEntries(Object.keys(headers).map((name) => [`method.response.header.${name}`, true])) },
      ],
    });
    const reason = 'A mock that only answers 405 (wrong method) in the envelope: it reaches no function and no data, so it needs no key.';
    Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
  }

  /**
   * The Lambda proxy integration of a path whose methods all go to one function, with one
   * invoke permission for the path and this stage, whatever the method (LambdaIntegration
   * adds one per method; the 405 mock invokes nothing). One resource less per endpoint in
   * the stack's resource budget (infra/resource-budget.ts); no test-invoke permission.
   */
  private pathIntegration(handler: IFunction, resource: IResource): AwsIntegration {
    handler.addPermission('ApiInvoke', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: this.api.arnForExecuteApi('*', resource.path, this.api.deploymentStage.stageName),
    });
    return new AwsIntegration({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${handler.functionArn}/invocations` });
  }

  /** A support function's public path: no authorizer, no API key (the function checks callers itself). */
  private addPublicRoute({ path, methods, handler }: PublicRoute): void {
    const resource = this.api.root.resourceForPath(path);
    const integration = this.pathIntegration(handler, resource);
    for (const verb of methods) {
      const method = resource.addMethod(verb, integration, { authorizationType: AuthorizationType.NONE, apiKeyRequired: false });
      const reason = `${path} is public by declaration (SUPPORT_FUNCTIONS publicPath): its callers cannot send an API key, and the function authenticates what needs it (the webhook checks the chat network's signature).`;
      Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
    }
  }

  private addEnvelopeResponse({ type, statusCode, error, message, details, retryAfter }: GatewayResponseSpec): void {
    const template = envelopeTemplate(`Gateway response ${type.responseType}`, { success: false, error, message, ...(details && { details }) });
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
        reason:
          'The API is called by integrations with workspace API keys (the Lambda REQUEST authorizer); only the portal routes have people, and they use the Cognito authorizer.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: 'The account-level API Gateway logging role uses the AWS managed policy made for exactly this purpose.',
      },
    );
    if (!this.config.waf.enabled) {
      Validations.of(this.api).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'WAF is off for this stage (context waf=false, the default outside prod): per-key usage-plan throttles, per-method throttles on the public routes and the per-user limiter bound abuse; -c waf=true adds the web ACL.',
      });
    }
  }
}
