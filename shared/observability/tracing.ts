import type { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * X-Ray tracing with Powertools Tracer, behind a switch: only with
 * POWERTOOLS_TRACER_ENABLED=true is the tracer loaded (on the first request, by a
 * dynamic import), so by default a function neither evaluates the tracer nor the
 * X-Ray SDK at init and adds no middleware (API Gateway and Lambda still trace at
 * their own level: the stack enables active tracing). When on, each request gets a
 * `## <endpoint>` subsegment with cold-start, service and endpoint annotations, and
 * the DynamoDB client's calls become subsegments.
 */
export const TRACING_ENABLED = process.env.POWERTOOLS_TRACER_ENABLED === 'true';

let loaded: Promise<Tracer> | undefined;

/** The tracer, loaded on first use; rejects when tracing is off. */
export function loadTracer(): Promise<Tracer> {
  // The bundles inline the switch (infra/bundling.ts `define`): when it is off, esbuild
  // drops this branch and with it the tracer and the X-Ray SDK.
  if (process.env.POWERTOOLS_TRACER_ENABLED === 'true') {
    loaded ??= (async () => {
      const { Tracer } = await import('@aws-lambda-powertools/tracer');
      const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'workspace-api' });
      const { db } = await import('../data/client');
      tracer.captureAWSv3Client(db);
      return tracer;
    })();
  }
  return loaded ?? Promise.reject(new Error('Tracing is off: set POWERTOOLS_TRACER_ENABLED=true when building and running'));
}
