import type { ApiRequest } from '../context';
import { ForbiddenError } from '../../errors';

/**
 * Function-level authorization (INTERFACE §13): the route row says which endpoints only
 * an admin key may call; this is the one place that enforces it, after the principal
 * is known and the call counted, before any parameter is read: a refused call tells
 * nothing about the channel's records.
 */
export function roleCheck() {
  return {
    before: function requireRole(request: ApiRequest) {
      const { route } = request.context.api;
      if (route.adminOnly && request.context.api.principal!.role !== 'admin') {
        throw new ForbiddenError(`${route.path} needs an admin key; this is a team key.`);
      }
    },
  };
}
