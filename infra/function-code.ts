/**
 * A function's code: its bundle from the one build (infra/bundles.ts, dist/functions),
 * copied into a CDK asset. The local stack, the tests and the benchmark run those same
 * files, so Lambda runs the bytes they ran; nothing is bundled a second time for AWS.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AssetHashType, BundlingOutput, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { assetFiles, bundlePath, ROOT } from './bundles';
import { BUNDLING } from './bundling';

/** The folder of the cloud assembly (cdk.out) that holds the published source maps. */
export const SOURCE_MAPS_FOLDER = 'source-maps';

/** Where a function's source map is published: beside the assets in the cloud assembly (`cdk.out/source-maps/<stack>/<function>/`). */
export const sourceMapDestination = (assetDir: string, stackName: string, functionName: string) =>
  join(assetDir, '..', SOURCE_MAPS_FOLDER, stackName, functionName, `index${BUNDLING.outExtension}.map`);

/**
 * CDK's local bundling of one function's asset, from the built bundle: index.mjs and the
 * function's static files (shared/routes.ts `staticFiles`, which shared/http/static-files.ts
 * reads beside index.mjs) go into the asset; the source map does not (Lambda never reads
 * it: `--enable-source-maps` is off, see docs/PERFORMANCE.md) but is published in the
 * cloud assembly's `source-maps/` folder, kept with the deploy to decode stack traces.
 * The bundles must be current before the stacks are synthesized (infra/app.ts awaits
 * `ensureBundles`); a synthesis that skips bundling (`aws:cdk:bundling-stacks: []`,
 * infra/synth-offline.ts) never calls this.
 */
export class BuiltBundle implements ILocalBundling {
  /** Own properties, not closures: CDK keys its asset cache on the bundling options as JSON, so each function's must differ. */
  constructor(
    readonly stackName: string,
    readonly functionName: string,
    readonly staticFiles: Readonly<Record<string, string>> = {},
  ) {}

  tryBundle(outputDir: string): boolean {
    const bundle = bundlePath(this.functionName);
    if (!existsSync(bundle)) {
      throw new Error(`${this.functionName}: no bundle at ${bundle}; the CDK app builds the bundles first (infra/app.ts), elsewhere run \`npm run build\``);
    }
    for (const path of assetFiles(this.functionName, this.staticFiles)) copyFileSync(path, join(outputDir, basename(path)));
    if (BUNDLING.sourcemap) {
      const published = sourceMapDestination(outputDir, this.stackName, this.functionName);
      mkdirSync(dirname(published), { recursive: true });
      copyFileSync(`${bundle}.map`, published);
    }
    return true;
  }
}

/**
 * The asset of one function: what {@link BuiltBundle} copies, hashed after the copy
 * (AssetHashType.OUTPUT), so the hash covers exactly what Lambda gets. The source folder
 * is only where CDK would mount a container; the local bundling always answers, so none runs.
 */
export function functionCode(stackName: string, functionName: string, staticFiles?: Readonly<Record<string, string>>): Code {
  return Code.fromAsset(ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('scratch'),
      outputType: BundlingOutput.NOT_ARCHIVED,
      local: new BuiltBundle(stackName, functionName, staticFiles),
    },
  });
}
