import { App } from 'aws-cdk-lib';
import { loadStageConfig } from './infra/config';
import { WorkspaceApiStack } from './infra/stack';
const app = new App({ context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true, stage: 'dev' } });
const config = loadStageConfig(app);
const stack = new WorkspaceApiStack(app, `WorkspaceApi-${config.stage}`, { config });
let t = performance.now();
app.synth();
console.log('synth', Math.round(performance.now() - t));
