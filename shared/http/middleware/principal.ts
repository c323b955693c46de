import { principalFromAuthorizer } from '../../auth/principal';
import type { ApiRequest } from '../context';

/** Reads the principal the Lambda authorizer resolved from the API key (401 without one). */
export function authorizedPrincipal() {
  return {
    before: function readPrincipal(request: ApiRequest) {
      request.context.api.principal = principalFromAuthorizer(request.event.requestContext?.authorizer);
    },
  };
}
