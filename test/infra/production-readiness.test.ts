/**
 * What a first production deploy needs of the stack (docs/DEPLOYMENT.md, *First deploy*),
 * asserted on a synthesis of each documented stage: a failed first deploy that can roll
 * back, termination protection and a pinned account and region, edge throttles sized for
 * the planned load, the resource budget with the planned features, context keys that
 * are all real, and templates CDK's CloudFormation validation finds nothing in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { knownContextKeys, loadStageConfig, PLANNED_REQUESTS_PER_SECOND } from '../../infra/config';
import { createTable } from '../../infra/data';
import { ACCOUNT_THROTTLE, CLOUDFORMATION_RESOURCES_PER_STACK } from '../../infra/platform-limits';
import { PLANNED_FEATURES, RESOURCE_BUDGET_PER_STACK, resourceBudget, resourcesPerEndpoint } from '../../infra/resource-budget';
import { DOCUMENTED_STAGES, synthStage, type SynthesizedStage, unvalidatedApp, validationFindings } from '../../infra/synth-offline';
import { ROOT } from '../../infra/bundles';
import { MAX_RECEIVES } from '../../shared/config';

const SYNTH_TIMEOUT_MS = 120_000;
const PROD = DOCUMENTED_STAGES.prod;
const load = (context: Record<string, string>) => () => loadStageConfig(new App({ context }));

describe('a production-ready stack, on a synthesis of each stage', () => {
  const stages: Record<keyof typeof DOCUMENTED_STAGES, SynthesizedStage> = {} as never;

  beforeAll(() => {
    for (const [name, context] of Object.entries(DOCUMENTED_STAGES)) stages[name as keyof typeof DOCUMENTED_STAGES] = synthStage(context);
  }, SYNTH_TIMEOUT_MS);

  describe('a first deploy that can fail and roll back, a prod stack that cannot be deleted by accident', () => {
    it('refuses to synthesize prod without a pinned account and region, and without saying whether the table is protected', () => {
      // Act / Assess
      expect(load({ stage: 'prod', protectTable: 'true' })).toThrow(/-c account=<12-digit id> -c region=<region>/);
      expect(load({ stage: 'prod', account: PROD.account, region: PROD.region })).toThrow(
        /-c protectTable=false for the stage's first deploy .* -c protectTable=true for every deploy after it/,
      );
      expect(load({ stage: 'prod', account: PROD.account, protectTable: 'true' })).toThrow(/"account" and "region" go together/);
      expect(load({ stage: 'prod', account: '12345', region: PROD.region, protectTable: 'true' })).toThrow(/12-digit AWS account id/);
      expect(load({ stage: 'dev', protectTable: 'true' })).toThrow(/needs removalPolicy retain/);
      expect(load({ stage: 'dev' })()).toMatchObject({ protectTable: false, terminationProtection: false });
      expect(load({ stage: 'dev' })().env).toBeUndefined();
    });

    it('pins prod to its account and region, with termination protection and a deletion-protected table after the first deploy', () => {
      // Prepare
      const { app, stack, template } = stages.prod;

      // Act
      const artifact = app.synth().getStackByName(stack.stackName);
      const [table] = Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::DynamoDB::Table');

      // Assess
      expect(artifact.environment).toMatchObject({ account: PROD.account, region: PROD.region });
      expect(artifact.terminationProtection).toBe(true);
      expect(table.Properties!.DeletionProtectionEnabled).toBe(true);
      expect(table).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
      expect(stages.dev.app.synth().getStackByName(stages.dev.stack.stackName).terminationProtection).toBe(false);
    });

    it("creates prod's table unprotected, and the stack deletable, on the stage's first deploy (-c protectTable=false), so a failed create rolls back", () => {
      // Prepare
      const first = loadStageConfig(new App({ context: { ...PROD, protectTable: 'false' } }));
      const stack = new Stack(unvalidatedApp(), 'FirstDeploy');

      // Act
      createTable(stack, first);
      const [table] = Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::Table'));

      // Assess
      expect(first).toMatchObject({ protectTable: false, terminationProtection: false, env: { account: PROD.account, region: PROD.region } });
      // RetainExceptOnCreate: the rollback of the create that made it deletes it, which DynamoDB allows only unprotected.
      expect(table).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', Properties: { DeletionProtectionEnabled: false } });
      expect(load({ ...PROD, protectTable: 'true', terminationProtection: 'false' })().terminationProtection).toBe(false);
    });
  });

  describe('edge throttles for the planned load', () => {
    it('throttles every method at a default one method can carry the planned load with, under the account quota', () => {
      for (const { template, config } of Object.values(stages)) {
        // Act
        const [stage] = Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::ApiGateway::Stage');
        const defaults = (stage.Properties!.MethodSettings as Array<Record<string, unknown>>).find((setting) => setting.ResourcePath === '/*')!;

        // Assess
        expect(defaults.ThrottlingRateLimit, config.stage).toBe(PLANNED_REQUESTS_PER_SECOND);
        expect(defaults.ThrottlingBurstLimit, config.stage).toBe(2 * PLANNED_REQUESTS_PER_SECOND);
        expect(Number(defaults.ThrottlingBurstLimit)).toBeLessThanOrEqual(ACCOUNT_THROTTLE.burstLimit);
      }
      expect(load({ stage: 'dev', apiThrottleRate: '20000' })).toThrow(/"apiThrottleRate" must be at most 10000 \(API Gateway's account quota/);
    });

    it('bounds each API user at the edge to every class limit together, whatever methods a flood spreads over', () => {
      for (const { template, config } of Object.values(stages)) {
        // Act
        const [plan] = Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::ApiGateway::UsagePlan');
        const perMethod = Object.values(plan.Properties!.ApiStages[0].Throttle as Record<string, { BurstLimit: number }>);
        const classesTogether = Object.values(config.rateLimits).reduce((sum, limit) => sum + limit, 0);

        // Assess: without the plan's own throttle a user could send the sum of every method's burst.
        expect(plan.Properties!.Throttle, config.stage).toEqual({ BurstLimit: classesTogether, RateLimit: classesTogether / 60 });
        expect(perMethod.reduce((sum, throttle) => sum + throttle.BurstLimit, 0)).toBeGreaterThan(15 * classesTogether);
      }
    });
  });

  describe('the resource budget', () => {
    it(`keeps every stack of every stage within ${RESOURCE_BUDGET_PER_STACK} resources with the planned features added`, () => {
      for (const synth of Object.values(stages)) {
        // Act
        const budget = resourceBudget(synth);

        // Assess
        expect(budget.lines.map((line) => line.what.split(':')[0]).slice(1)).toEqual(PLANNED_FEATURES.map((feature) => feature.name));
        expect(budget.total.stage, synth.config.stage).toBeLessThanOrEqual(RESOURCE_BUDGET_PER_STACK);
        expect(budget.total.monitoring, synth.config.stage).toBeLessThanOrEqual(RESOURCE_BUDGET_PER_STACK);
        expect(RESOURCE_BUDGET_PER_STACK).toBeLessThan(CLOUDFORMATION_RESOURCES_PER_STACK);
      }
    });

    it('counts what one endpoint costs from the template itself: 9 resources in the stage stack and 2 alarms', () => {
      // Act
      const perEndpoint = resourcesPerEndpoint(stages.dev);
      const counted = Object.keys(stages.dev.template.Resources).length + Object.keys(stages.dev.monitoring.Resources).length;

      // Assess
      expect(perEndpoint).toEqual({ stage: 9, monitoring: 2 });
      // Without the split the stage's stack would hold both: past the budget once the portal and media come.
      expect(
        counted +
          resourceBudget(stages.dev)
            .lines.slice(1)
            .reduce((sum, line) => sum + line.stage + line.monitoring, 0),
      ).toBeGreaterThan(RESOURCE_BUDGET_PER_STACK);
    });
  });

  describe('context keys', () => {
    it('fails the synthesis on an unknown context key, naming it and listing the known ones', () => {
      // Act / Assess
      expect(load({ stage: 'dev', rateLimitApiRead: '60' })).toThrow(/Unknown context key "rateLimitApiRead"; the known keys are .*rateLimits/);
      expect(load({ stage: 'dev', protectTabel: 'true', wafIpLimt: '10' })).toThrow(/Unknown context keys "protectTabel", "wafIpLimt"/);
      expect(load({ stage: 'dev', '@aws-cdk/core:newStyleStackSynthesis': 'true', 'aws:cdk:bundling-stacks': '[]' })).not.toThrow();
    });

    it('documents every known key in the stage settings table of docs/DEPLOYMENT.md, and only those', () => {
      // Prepare
      const doc = readFileSync(join(ROOT, 'docs', 'DEPLOYMENT.md'), 'utf8');
      const settings = doc.slice(doc.indexOf('## Stage settings'), doc.indexOf('\n## ', doc.indexOf('## Stage settings') + 1));

      // Act
      const documented = [...settings.matchAll(/^\| ((?:`\w+`(?:, )?)+) \|/gm)].flatMap((match) => [...match[1].matchAll(/`(\w+)`/g)].map((key) => key[1]));

      // Assess
      expect([...documented].sort()).toEqual(knownContextKeys());
    });

    it('names only real context keys in README.md and the docs (`-c key=`, "context `key`")', () => {
      // Prepare
      const files = [
        'README.md',
        'docs/DEPLOYMENT.md',
        'docs/PERFORMANCE.md',
        'docs/MESSAGING.md',
        'docs/EVENTS.md',
        'docs/RELIABILITY.md',
        'docs/ARCHITECTURE.md',
      ];
      const known = new Set(knownContextKeys());

      // Act
      const named = files.flatMap((file) => {
        const text = readFileSync(join(ROOT, file), 'utf8');
        return [...text.matchAll(/-c (\w+)=|context(?: keys?)? `(\w+)`/g)].map((match) => ({ file, key: match[1] ?? match[2] }));
      });

      // Assess
      expect(named.length).toBeGreaterThan(10);
      expect(named.filter(({ key }) => !known.has(key))).toEqual([]);
    });
  });

  it("passes CDK's CloudFormation template validation (resource schemas, best-practice rules) with no finding, in every stage", () => {
    // Act
    const findings = validationFindings(Object.values(stages));

    // Assess: `cdk synth` only warns of a finding; here it fails.
    expect(findings.map((v) => `${v.severity} ${v.ruleName}: ${v.description} (${v.violatingResources.map((r) => r.resourceLogicalId).join(', ')})`)).toEqual(
      [],
    );
  });

  it(`moves every queue's message to its dead-letter queue after MAX_RECEIVES (${MAX_RECEIVES}) receives, in every stage`, () => {
    for (const { template, config } of Object.values(stages)) {
      // Act
      const queues = Object.values(template.Resources).filter((resource) => resource.Properties?.RedrivePolicy);

      // Assess
      expect(queues, config.stage).toHaveLength(3);
      for (const queue of queues) expect(queue.Properties!.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVES);
    }
  });
});
