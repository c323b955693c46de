import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { functionPolicies, unexercisedGrants, type CallVerdict } from '../../scripts/local/iam';
import { awsCallsFile } from '../../scripts/local/template-stack';
import { CDK_OUT, ensureSynth, readTemplate } from '../../scripts/local/template';
import { stackDataDirs } from './local-stack';

/**
 * The end-to-end scenarios once more, against `STACK_SOURCE=template npm start`: the
 * routes, authorizer, gateway responses, throttles, function assets and environments
 * come from the synthesized CloudFormation template, so a route, variable, asset file
 * or response the template gets wrong fails. Every AWS call a function makes is checked
 * against its IAM policy in the template: a call its role would refuse fails the file,
 * naming the function, the action and the missing statement.
 *
 * One test file per scenario file (test/e2e/template-mode/), so the scenarios run in
 * parallel workers; ensureSynth's lock keeps them from synthesizing cdk.out at once.
 */

/** Each template-mode file's calls of its latest run; the report of unexercised grants reads them all. */
const CALLS_FOLDER = join(CDK_OUT, 'iam-calls');

export function recordedCalls(dataDirs: Iterable<string>): CallVerdict[] {
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

/**
 * Registers the scenarios `load` imports (they register their suites) in template mode:
 * cdk.out synthesized first, and no call of their stacks refused by its function's role.
 */
export async function inTemplateMode(name: string, load: () => unknown): Promise<void> {
  process.env.STACK_SOURCE = 'template';
  // Synthesized once per run (cdk.out is reused while it is newer than the sources).
  beforeAll(() => ensureSynth(), 300_000);
  await load();
  afterAll(() => expectNoCallRefused(name));
}

/**
 * No call of this file's template-mode stacks was refused by its function's role; their
 * calls join the report of unexercised grants under `name`. For a file that starts a
 * template-mode stack of its own (not through {@link inTemplateMode}), in its afterAll.
 */
export function expectNoCallRefused(name: string): void {
  if (stackDataDirs.size === 0) return; // a filtered run (-t) that started no scenario stack
  const calls = recordedCalls(stackDataDirs);
  const refused = calls.filter((call) => !call.allowed).map((call) => call.reason);
  expect(refused, `calls the synthesized IAM policies would refuse:\n${[...new Set(refused)].join('\n')}`).toEqual([]);
  expect(calls.length).toBeGreaterThan(0);
  reportUnexercised(name, calls);
}

/** Report (not a failure): what the roles grant that no scenario's latest run exercised, in cdk.out/iam-unexercised.json. */
function reportUnexercised(name: string, calls: CallVerdict[]): void {
  mkdirSync(CALLS_FOLDER, { recursive: true });
  // Written whole, then renamed: another file's report never reads half of it.
  const file = join(CALLS_FOLDER, `${name}.json`);
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(calls));
  renameSync(`${file}.${process.pid}`, file);
  const all = readdirSync(CALLS_FOLDER)
    .filter((entry) => entry.endsWith('.json'))
    .flatMap((entry) => JSON.parse(readFileSync(join(CALLS_FOLDER, entry), 'utf8')) as CallVerdict[]);
  const { template } = readTemplate();
  const unexercised = unexercisedGrants(functionPolicies(template, { region: 'local', tableName: 'workspace-api', queueUrl: (queue) => queue }), all);
  writeFileSync(join(CDK_OUT, 'iam-unexercised.json'), JSON.stringify(unexercised, null, 2));
  console.log(
    `IAM: ${all.length} calls checked, none refused; ${unexercised.length} granted actions no scenario exercised (cdk.out/iam-unexercised.json):\n${unexercised.map((grant) => `  ${grant.functionName}: ${grant.action} on ${grant.resources.join(', ')}`).join('\n')}`,
  );
}
