/**
 * The stages' templates synthesized in-process, without bundling (no esbuild run) and
 * without credentials: what the generated docs (bench/infra-docs.ts) and the infra
 * tests read. Resource counts, settings and environments are the deployable template's;
 * only the function code is left out (`aws:cdk:bundling-stacks: []`), and CDK's built-in
 * CloudFormation validation, which `cdk synth` runs and which reports its findings as
 * warnings only: `validationFindings` runs it on demand, the findings as a list.
 */
import { App, CloudFormationValidatePlugin, type PolicyViolation } from 'aws-cdk-lib';
import { UNKNOWN_ACCOUNT, UNKNOWN_REGION } from 'aws-cdk-lib/cx-api';
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

/** An app whose synthesis skips CDK's built-in validation (`validationFindings` runs it): for templates read in-process. */
export function unvalidatedApp(context: Record<string, unknown> = {}): App {
  return new App({ context, builtinCloudFormationValidation: false });
}

/** A JSON value frozen through and through: a reader that writes to it throws. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

/** The syntheses made in this process, by context. */
const synthesized = new Map<string, SynthesizedStage>();

/**
 * Synthesizes one stage (context as `-c` would give it), bundling and the built-in
 * validation skipped (most of a synthesis's time), construct paths kept in the metadata.
 * A synthesis is a function of the repository's files and the context, so each context is
 * synthesized once per process (the infra tests share a worker's module graph: test/support/
 * shared-pool.ts) and its readers share it: the templates are frozen, the app and stack
 * only read (a synthesis of its own is `new WorkspaceApiStack` on an `unvalidatedApp`).
 */
export function synthStage(context: Record<string, unknown>): SynthesizedStage {
  const key = JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b)));
  const known = synthesized.get(key);
  if (known) return known;
  const app = unvalidatedApp({ 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true, ...context });
  const config = loadStageConfig(app);
  const stack = new WorkspaceApiStack(app, `WorkspaceApi-${config.stage}`, { config });
  const stage: SynthesizedStage = {
    app,
    stack,
    config,
    template: frozen(Template.fromStack(stack).toJSON() as TemplateJson),
    monitoring: frozen(Template.fromStack(stack.monitoring).toJSON() as TemplateJson),
  };
  synthesized.set(key, stage);
  return stage;
}

/**
 * What CDK's built-in CloudFormation validation (resource schemas, best-practice rules) finds
 * in the stages' templates: the same plugin, on the same templates (each stage's own stack,
 * as `cdk synth` validates them), in one engine for all the stages given.
 */
export function validationFindings(stages: readonly SynthesizedStage[]): PolicyViolation[] {
  const known = (value: string, unknown: string) => (value === unknown ? undefined : value);
  const stackTemplates = stages.flatMap(({ app }) =>
    app.synth().stacksRecursively.map((artifact) => ({
      stackConstructPath: artifact.hierarchicalId,
      templatePath: artifact.templateFullPath,
      accountId: known(artifact.environment.account, UNKNOWN_ACCOUNT),
      region: known(artifact.environment.region, UNKNOWN_REGION),
    })),
  );
  const plugin = new CloudFormationValidatePlugin();
  return plugin.validate({ templatePaths: stackTemplates.map((stack) => stack.templatePath), stackTemplates, appConstruct: stages[0].app }).violations;
}
