/**
 * The CDK app (cdk.json: `npx tsx infra/app.ts`). One stack per stage:
 * `npx cdk synth -c stage=prod` → WorkspaceApi-prod. Settings: infra/config.ts.
 */
import { App } from 'aws-cdk-lib';
import { BUNDLING_STACKS } from 'aws-cdk-lib/cx-api';
import { ensureBundles } from './bundles';
import { loadStageConfig } from './config';
import { addNagChecks } from './nag';
import { WorkspaceApiStack } from './stack';

const app = new App();
// The function assets are copies of the one build (infra/function-code.ts): bring it up to
// date first (built only when stale), unless this run bundles no stack (`cdk ls`, `cdk destroy`).
const bundlingStacks = (app.node.tryGetContext(BUNDLING_STACKS) as string[] | undefined) ?? ['**'];
if (bundlingStacks.length > 0) await ensureBundles();
const config = loadStageConfig(app);
new WorkspaceApiStack(app, `WorkspaceApi-${config.stage}`, { config });
addNagChecks(app);
