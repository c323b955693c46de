import { authorize } from '../shared/auth/authorize';

/**
 * Lambda REQUEST authorizer for every API route. It accepts `X-API-Key` or
 * `Authorization: Bearer`, so API Gateway's identity-source caching (which needs
 * every listed source) is off; the function caches key lookups itself for ≤ 10 s.
 */
export const handler = authorize;
