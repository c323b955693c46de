/**
 * The CDK app (cdk.json: `npx tsx infra/app.ts`). One stack per stage:
 * `npx cdk synth -c stage=prod` → WorkspaceApi-prod. Its definition: infra/assembly.ts
 * (which the local uses also synthesize in-process); settings: infra/config.ts.
 */
import { App } from 'aws-cdk-lib';
import { defineApp } from './assembly';

await defineApp(new App());
