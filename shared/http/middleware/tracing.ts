import type { Tracer } from '@aws-lambda-powertools/tracer';
import { loadTracer } from '../../observability/tracing';
import type { ApiRoute } from '../../routes';
import type { ApiRequest } from '../context';

type Segment = ReturnType<Tracer['getSegment']>;
const open = new WeakMap<ApiRequest, { tracer: Tracer; parent: NonNullable<Segment>; sub: NonNullable<Segment> }>();

/** The outermost middleware, added only when TRACING_ENABLED (shared/observability/tracing.ts; api-handler.ts). */
export function tracing(route: ApiRoute) {
  const close = (request: ApiRequest) => {
    const scope = open.get(request);
    if (!scope) return;
    open.delete(request);
    if (request.response) scope.tracer.putAnnotation('status', request.response.statusCode);
    // Refusals (4xx) are answers, not faults: only server errors go into the trace.
    if (request.error && (request.response?.statusCode ?? 500) >= 500) scope.tracer.addErrorAsMetadata(request.error);
    scope.sub.close();
    scope.tracer.setSegment(scope.parent);
  };
  return {
    before: async function openSubsegment(request: ApiRequest) {
      const tracer = await loadTracer();
      if (!tracer.isTracingEnabled()) return;
      const parent = tracer.getSegment();
      if (!parent) return;
      const sub = parent.addNewSubsegment(`## ${route.path}`);
      tracer.setSegment(sub);
      tracer.annotateColdStart();
      tracer.addServiceNameAnnotation();
      tracer.putAnnotation('endpoint', route.path);
      open.set(request, { tracer, parent, sub });
    },
    after: close,
    onError: close,
  };
}
