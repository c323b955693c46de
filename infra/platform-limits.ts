/**
 * AWS's own limits that the stack is shaped by and the local stack emulates, in one place
 * (no imports: the local gateway reads them without loading the CDK).
 */

/** API Gateway REST: the largest request body it takes (beyond it: 413). */
export const GATEWAY_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * Lambda: the largest synchronous invocation payload — for a proxy integration, the whole
 * event (body, headers, request context). API Gateway answers a request whose event is
 * larger `REQUEST_TOO_LARGE` (413) without invoking the function.
 */
export const LAMBDA_INVOKE_PAYLOAD_LIMIT_BYTES = 6 * 1024 * 1024;

/** API Gateway's default throttle quota per account and region (requests per second, burst), shared by every API there. */
export const ACCOUNT_THROTTLE = { rateLimit: 10_000, burstLimit: 5_000 } as const;

/** CloudFormation: resources per stack (a nested stack counts as one resource of its parent). */
export const CLOUDFORMATION_RESOURCES_PER_STACK = 500;
