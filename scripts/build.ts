/** `npm run build`: builds every Lambda bundle into dist/functions (infra/bundles.ts), whether or not they are current. */
import { bundleTargets, DIST, rebuildBundles } from '../infra/bundles';

const started = Date.now();
await rebuildBundles();
console.log(`Built ${bundleTargets().length} bundles into ${DIST} in ${Date.now() - started} ms`);
