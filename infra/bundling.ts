/**
 * The esbuild options every Lambda bundle is built with, by the one build
 * (infra/bundles.ts: dist/functions) that `npm start`, the tests, the benchmark and the
 * CDK app all use: the app copies those very files into the Lambda assets
 * (infra/function-code.ts), so the local stack runs the bytes AWS runs.
 *
 * Why these values: see docs/PERFORMANCE.md (ESM, AWS SDK bundled and tree-shaken,
 * minified; source maps external, and kept out of the Lambda assets: infra/function-code.ts
 * publishes them beside the assets, in `cdk.out/source-maps/`).
 */
const TRACER_ENABLED = process.env.POWERTOOLS_TRACER_ENABLED === 'true';

export const BUNDLING = {
  format: 'esm' as const,
  /**
   * The Lambda runtime's Node. The local stack, the tests and the bench run these bundles
   * on the machine's Node (20), and esbuild keeps whatever syntax the target supports:
   * test/architecture/bundle-target.test.ts fails when a bundle holds syntax Node 20 cannot parse.
   */
  target: 'node24',
  platform: 'node' as const,
  minify: true,
  sourcemap: true,
  mainFields: ['module', 'main'],
  /** Bundle the AWS SDK too: tree-shaken, it loads faster than the runtime's full copy. */
  externalModules: [] as string[],
  /** ESM bundles still meet CommonJS dependencies that call require() for Node built-ins. */
  banner: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);",
  /**
   * Build-time switches, inlined so that the branch not taken, and what it imports, is
   * left out of the bundle: the Powertools tracer (and the X-Ray SDK, ~120 KB minified)
   * is bundled only when POWERTOOLS_TRACER_ENABLED=true at build or synth time
   * (shared/observability/tracing.ts); by default the bundles carry none of it. The switch
   * is fixed in shared/config.ts, where the environment is read, and BUNDLED_WITH_TRACER
   * where the tracer is loaded.
   */
  define: {
    'process.env.POWERTOOLS_TRACER_ENABLED': JSON.stringify(TRACER_ENABLED ? 'true' : 'false'),
    BUNDLED_WITH_TRACER: String(TRACER_ENABLED),
  } as Record<string, string>,
  outExtension: '.mjs',
};

/** The Lambda runtime every function uses. */
export const LAMBDA_RUNTIME_NAME = 'nodejs24.x';

/** The Node the local stack runs the bundles on (package.json `engines`): the syntax floor of {@link BUNDLING}'s target. */
export const LOCAL_NODE_TARGET = 'node20';
