import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionPolicies, unexercisedGrants, type CallVerdict } from '../../scripts/local/iam';
import { awsCallsFile } from '../../scripts/local/template-stack';
import { CDK_OUT, ensureSynth, readTemplate, type CfnTemplate } from '../../scripts/local/template';
import { demoKey, stackDataDirs, startStack } from '../support/local-stack';

/**
 * The end-to-end scenarios once more, against `STACK_SOURCE=template npm start`: the
 * routes, authorizer, gateway responses, throttles, function assets and environments
 * come from the synthesized CloudFormation template, so a route, variable, asset file
 * or response the template gets wrong fails here. Every AWS call a function makes is
 * checked against its IAM policy in the template: a call its role would refuse fails
 * the run, naming the function, the action and the missing statement.
 */
process.env.STACK_SOURCE = 'template';

// Synthesized once per run (cdk.out is reused while it is newer than the sources).
beforeAll(() => ensureSynth(), 300_000);

// The scenarios register their suites in this file, where every stack they start is template-driven.
await import('./foundation.e2e.test');
await import('./messaging.e2e.test');
await import('./automations.e2e.test');
await import('./two-way.e2e.test');
await import('../events/events.e2e.test');

function recordedCalls(dataDirs: Iterable<string>): CallVerdict[] {
  return [...dataDirs].flatMap((dir) => {
    const file = awsCallsFile(dir);
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CallVerdict);
  });
}

describe('the template-driven stack, by its own means', () => {
  it('refuses a call the role does not grant: the function fails and the call is recorded with the missing statement', async () => {
    // Prepare: the template with ChannelsList's table read statement removed
    const { template } = readTemplate();
    const broken = structuredClone(template) as CfnTemplate;
    const policy = Object.values(broken.Resources).find(
      (resource) => resource.Type === 'AWS::IAM::Policy' && resource.Metadata?.['aws:cdk:path'] === 'WorkspaceApi-dev/ChannelsList/Role/DefaultPolicy/Resource',
    )!;
    const statements = policy.Properties!.PolicyDocument.Statement as { Action: string | string[] }[];
    policy.Properties!.PolicyDocument.Statement = statements.filter((statement) => ![statement.Action].flat().includes('dynamodb:Query'));
    const file = join(await mkdtemp(join(tmpdir(), 'wsapi-template-')), 'broken.template.json');
    writeFileSync(file, JSON.stringify(broken));
    const stack = await startStack({ source: 'template', env: { STACK_TEMPLATE_FILE: file } });
    stackDataDirs.delete(stack.dataDir); // its refusals are the point, not a finding
    try {
      const adminKey = demoKey(stack);
      const teamKey = demoKey(stack, 'team');
      // Act
      const response = await fetch(`${stack.baseUrl}/channels/list`, { headers: { 'X-API-Key': adminKey } });
      const other = await fetch(`${stack.baseUrl}/labels/list`, { headers: { 'X-API-Key': teamKey } });
      // Assess
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(other.status).toBe(200);
      const refused = recordedCalls([stack.dataDir]).filter((call) => !call.allowed);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((call) => call.functionName === 'ChannelsList')).toBe(true);
      expect(refused[0].reason).toMatch(
        /^ChannelsList may not dynamodb:(Query|GetItem|BatchGetItem) on arn:aws:dynamodb:local:000000000000:table\/workspace-api.*lacks the statement \{"Effect":"Allow","Action":"dynamodb:/,
      );
    } finally {
      await stack.stop();
    }
  }, 180_000);
});

afterAll(() => {
  if (stackDataDirs.size === 0) return; // a filtered run (-t) that started no scenario stack
  // Assess: no call of the whole run was refused by its function's role
  const calls = recordedCalls(stackDataDirs);
  const refused = calls.filter((call) => !call.allowed).map((call) => call.reason);
  expect(refused, `calls the synthesized IAM policies would refuse:\n${[...new Set(refused)].join('\n')}`).toEqual([]);
  expect(calls.length).toBeGreaterThan(0);
  // Report (not a failure): what the roles grant that no scenario exercised.
  const { template } = readTemplate();
  const unexercised = unexercisedGrants(functionPolicies(template, { region: 'local', tableName: 'workspace-api', queueUrl: (name) => name }), calls);
  writeFileSync(join(CDK_OUT, 'iam-unexercised.json'), JSON.stringify(unexercised, null, 2));
  console.log(
    `IAM: ${calls.length} calls checked, none refused; ${unexercised.length} granted actions no scenario exercised (cdk.out/iam-unexercised.json):\n${unexercised.map((grant) => `  ${grant.functionName}: ${grant.action} on ${grant.resources.join(', ')}`).join('\n')}`,
  );
});
