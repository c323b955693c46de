/**
 * The parts of docs/DEPLOYMENT.md and docs/PERFORMANCE.md that state what the templates
 * hold are written from them (`npm run infra-docs`): this fails when a committed part
 * differs from what the generator writes now, and checks the hand-written tables that
 * name template facts (gateway responses, the edge's throttle arithmetic) against them.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixedMonthly, stageFacts } from '../../bench/cost-model';
import { deploymentTables } from '../../infra/deployment-docs';
import type { SynthesizedStage } from '../../infra/synth-offline';
import { ROOT } from '../../infra/bundles';
import { DEPLOYMENT_DOC, documentedSyntheses, generatedParts, PERFORMANCE_DOC, withParts } from '../../bench/infra-docs';

const SYNTH_TIMEOUT_MS = 180_000;
const read = (file: string) => readFileSync(file, 'utf8');
const section = (doc: string, heading: string) => doc.slice(doc.indexOf(heading), doc.indexOf('\n## ', doc.indexOf(heading) + 1));

describe('the docs written from the templates', () => {
  let parts: ReturnType<typeof generatedParts>;
  let syntheses: ReturnType<typeof documentedSyntheses>;
  let dev: SynthesizedStage;
  let prod: SynthesizedStage;

  // Each stage synthesized once, for the generator and the tests alike.
  beforeAll(() => {
    syntheses = documentedSyntheses();
    parts = generatedParts(syntheses);
    ({ dev, prod } = syntheses);
  }, SYNTH_TIMEOUT_MS);

  it.each([
    ['docs/DEPLOYMENT.md', DEPLOYMENT_DOC],
    ['docs/PERFORMANCE.md', PERFORMANCE_DOC],
  ])('%s holds exactly what npm run infra-docs writes from the current templates', (_name, file) => {
    // Prepare
    const committed = read(file);

    // Act
    const regenerated = withParts(committed, parts[file]);

    // Assess
    expect(regenerated, `${file} is stale: run npm run infra-docs`).toBe(committed);
  });

  it("writes DEPLOYMENT.md's outputs, environment, memory and budget tables, and PERFORMANCE.md's cost model, each complete", () => {
    // Act
    const tables = deploymentTables(dev, prod, syntheses.devWithRetention);
    const cost = parts[PERFORMANCE_DOC]['cost-model'];

    // Assess
    expect(Object.keys(tables)).toEqual(['outputs', 'environment', 'sizing', 'budget']);
    for (const output of Object.keys(dev.template.Outputs!)) expect(tables.outputs).toContain(`\`${output}\``);
    for (const variable of ['EVENT_QUEUE_URL', 'EVENT_LANE_QUEUE_URL', 'WEBHOOK_SECRETS_KMS_KEY_ID', 'MESSAGE_CONTENT_RETENTION_DAYS'])
      expect(tables.environment).toContain(`\`${variable}\``);
    for (const fn of ['contacts/import', 'EventDeliverer', 'EventRedrive', 'MessageContentSweep']) expect(tables.sizing).toContain(fn);
    for (const heading of [
      'Per stage and month',
      'Per request',
      'A month at 1,000 requests a second',
      'Per event delivered',
      'Per contacts/import call',
      'Per stored GB',
    ])
      expect(cost).toContain(`### ${heading}`);
  });

  it("prices the fixed block from the template's own counts: 100 alarms are $10.00, a WAF rule and the cache cluster only where the stage has them", () => {
    // Act
    const [devFacts, prodFacts] = [stageFacts(dev), stageFacts(prod)];
    const line = (facts: ReturnType<typeof stageFacts>, item: string) => fixedMonthly(facts).find((entry) => entry.item.startsWith(item))!;
    const alarms = Object.values(dev.monitoring.Resources).filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm').length;

    // Assess
    expect(line(devFacts, 'CloudWatch alarms')).toMatchObject({ quantity: String(alarms), monthly: alarms * 0.1 });
    expect(alarms).toBe(100);
    expect(line(devFacts, 'WAF').monthly).toBe(0);
    expect(line(prodFacts, 'WAF').monthly).toBe(5 + 4);
    expect(line(devFacts, 'API Gateway cache cluster').monthly).toBe(0);
    expect(line(prodFacts, 'API Gateway cache cluster').monthly).toBeCloseTo(14.6, 6);
    expect(line(prodFacts, 'Secrets Manager').quantity).toBe('3');
    expect(line(prodFacts, 'KMS key').quantity).toBe('1');
    expect(prodFacts.mappings).toEqual({ fifo: 1, standard: 2 });
  });

  it('lists every gateway response of the template, with its status and error, in the gateway responses table', () => {
    // Prepare
    const table = section(read(DEPLOYMENT_DOC), '## Gateway responses');
    const responses = Object.values(dev.template.Resources).filter((resource) => resource.Type === 'AWS::ApiGateway::GatewayResponse');

    // Act
    const missing = responses
      .map((response) => ({
        type: String(response.Properties!.ResponseType),
        status: response.Properties!.StatusCode ?? 'as raised',
        error: JSON.parse(response.Properties!.ResponseTemplates['application/json']).error,
      }))
      .filter(({ type, status, error }) => !new RegExp(`^\\| [^|]*\`${type}\`[^|]*\\| ${status} \\| \`${error}\` \\|$`, 'm').test(table));

    // Assess
    expect(responses.length).toBeGreaterThan(8);
    expect(missing).toEqual([]);
  });

  it("states the edge's throttle arithmetic as the template has it: every method's burst together, and the plan's per user", () => {
    // Prepare
    const text = section(read(DEPLOYMENT_DOC), '## Rate limits at the edge').replace(/\s+/g, ' ');
    const [plan] = Object.values(dev.template.Resources).filter((resource) => resource.Type === 'AWS::ApiGateway::UsagePlan');

    // Act
    const perMethod = Object.values(plan.Properties!.ApiStages[0].Throttle as Record<string, { BurstLimit: number }>).reduce(
      (sum, { BurstLimit }) => sum + BurstLimit,
      0,
    );
    const perUser = plan.Properties!.Throttle.BurstLimit as number;

    // Assess
    expect(text).toContain(`**${perMethod.toLocaleString('en-US')} requests a minute**`);
    expect(text).toContain(`at most **${perUser} a minute**`);
    expect(text).toContain(`**${perUser} requests, refilled at ${perUser} / 60`);
  });

  it('keeps the OpenAPI document small enough for the gateway cache that serves it in prod (entries up to 1 MB)', () => {
    // Act
    const bytes = statSync(join(ROOT, 'docs', 'openapi.json')).size;

    // Assess
    expect(bytes).toBeLessThan(1024 * 1024);
  });
});
