import type { Tracer } from '@aws-lambda-powertools/tracer';
import { config } from '../config';

/**
 * X-Ray tracing with Powertools Tracer, behind a switch: only with
 * POWERTOOLS_TRACER_ENABLED=true is the tracer loaded (on the first request, by a
 * dynamic import), so by default a function neither evaluates the tracer nor the
 * X-Ray SDK at init and adds no middleware (API Gateway and Lambda still trace at
 * their own level: the stack enables active tracing). When on, each request gets a
 * `## <endpoint>` subsegment with cold-start, service and endpoint annotations, and
 * the DynamoDB client's calls become subsegments.
 */
export const TRACING_ENABLED = config.tracerEnabled();

/**
 * Whether this code may carry the tracer: a bundle built with tracing off defines it false
 * (infra/bundling.ts `define`), so esbuild drops the branch that loads the tracer and with it
 * the tracer and the X-Ray SDK; unbundled (tests, tsx) it is not defined and the
 * configuration alone decides.
 */
declare const BUNDLED_WITH_TRACER: boolean | undefined;

let loaded: Promise<Tracer> | undefined;

/** The tracer, loaded on first use; rejects when tracing is off. */
export function loadTracer(): Promise<Tracer> {
  if ((typeof BUNDLED_WITH_TRACER === 'undefined' || BUNDLED_WITH_TRACER) && config.tracerEnabled()) {
    loaded ??= (async () => {
      const { Tracer } = await import('@aws-lambda-powertools/tracer');
      const tracer = new Tracer({ serviceName: config.serviceName() });
      const { db } = await import('../data/client');
      tracer.captureAWSv3Client(db);
      return tracer;
    })();
  }
  return loaded ?? Promise.reject(new Error('Tracing is off: set POWERTOOLS_TRACER_ENABLED=true when building and running'));
}
