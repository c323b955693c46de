/**
 * The CDK app (cdk.json: `npx tsx infra/app.ts`). One stack per stage:
 * `npx cdk synth -c stage=prod` → WorkspaceApi-prod. Settings: infra/config.ts.
 */
import { App } from 'aws-cdk-lib';
import { loadStageConfig } from './config';
import { addNagChecks } from './nag';
import { WorkspaceApiStack } from './stack';

const app = new App();
const config = loadStageConfig(app);
new WorkspaceApiStack(app, `WorkspaceApi-${config.stage}`, { config });
addNagChecks(app);
