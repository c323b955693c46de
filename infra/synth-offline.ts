/**
 * The stages' templates synthesized in-process, without bundling (no esbuild run) and
 * without credentials: what the generated docs (bench/infra-docs.ts) and the infra
 * tests read. Resource counts, settings and environments are the deployable template's;
 * only the function code is left out (`aws:cdk:bundling-stacks: []`).
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { loadStageConfig, type StageConfig } from './config';
import { WorkspaceApiStack } from './stack';

/** Any JSON value of a template, read by the path its reader knows. */
export type CfnJson = ReturnType<typeof JSON.parse>;

/** A CloudFormation template as JSON (Resources, Outputs, …). */
export interface TemplateJson {
  Resources: Record<string, { Type: string; Properties?: Record<string, CfnJson>; Metadata?: Record<string, unknown>; [key: string]: unknown }>;
  Outputs?: Record<string, { Value: unknown; Description?: string }>;
  [key: string]: unknown;
}

export interface SynthesizedStage {
  app: App;
  stack: WorkspaceApiStack;
  config: StageConfig;
  /** The stage's own stack. */
  template: TemplateJson;
  /** The nested stack of alarms and the dashboard (infra/alarms.ts). */
  monitoring: TemplateJson;
}

/**
 * The context of each stage as the docs describe it: dev as `npx cdk synth` makes it, prod
 * as every deploy after the first (table protected), pinned to a placeholder account.
 */
export const DOCUMENTED_STAGES = {
  dev: { stage: 'dev' },
  prod: { stage: 'prod', account: '123456789012', region: 'us-east-1', protectTable: 'true' },
} as const satisfies Record<string, Record<string, string>>;

/** Synthesizes one stage (context as `-c` would give it), bundling skipped, construct paths kept in the metadata. */
export function synthStage(context: Record<string, unknown>): SynthesizedStage {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true, ...context } });
  const config = loadStageConfig(app);
  const stack = new WorkspaceApiStack(app, `WorkspaceApi-${config.stage}`, { config });
  return {
    app,
    stack,
    config,
    template: Template.fromStack(stack).toJSON() as TemplateJson,
    monitoring: Template.fromStack(stack.monitoring).toJSON() as TemplateJson,
  };
}
