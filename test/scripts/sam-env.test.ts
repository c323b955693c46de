import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAM_LOCAL_VARIABLES } from '../../infra/functions';
import { readTemplate } from '../../scripts/local/template';
import { SAM_CDK_OUT } from '../../scripts/sam-env';
import { startStack, type RunningStack } from '../support/local-stack';

const ROOT = resolve(import.meta.dirname, '..', '..');

function samEnv(dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/sam-env.ts')], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('exit', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}

describe('npm run sam-env (the env-vars file for sam local start-api beside npm start)', () => {
  let stack: RunningStack;

  beforeAll(async () => {
    stack = await startStack({ source: 'routes' });
  });
  afterAll(async () => stack?.stop());

  it('gives every function of the samLocal template a value for each referenced or local variable, pointing at this stack', async () => {
    // Act
    const result = await samEnv(stack.dataDir);
    // Assess
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as { envVarsFile: string; template: string; command: string };
    expect(printed.command).toBe(`sam local start-api -t ${printed.template} --env-vars ${printed.envVarsFile.replace(`${ROOT}/`, '')} --docker-network host --port 3001`);
    const file = JSON.parse(await readFile(printed.envVarsFile, 'utf8')) as Record<string, Record<string, string>>;
    const { template } = readTemplate(SAM_CDK_OUT);
    const stackInfo = JSON.parse(await readFile(join(stack.dataDir, 'stack.json'), 'utf8')) as { dynamodbEndpoint: string };
    const functions = Object.entries(template.Resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(10);
    for (const [id, resource] of functions) {
      const variables = resource.Properties!.Environment.Variables as Record<string, unknown>;
      // Every declared variable SAM could not resolve (a reference) or that the local stack sets has a value…
      for (const [name, value] of Object.entries(variables)) {
        if (typeof value === 'object' || name in SAM_LOCAL_VARIABLES) expect(file[id]?.[name], `${id} ${name}`).toBeTypeOf('string');
      }
      // …and only declared ones: SAM ignores the others.
      for (const name of Object.keys(file[id] ?? {})) expect(variables, `${id} ${name}`).toHaveProperty(name);
      // The docs functions have no table access and declare none of these (test/infra/stack.test.ts).
      const pointing = { TABLE_NAME: 'workspace-api', DYNAMODB_ENDPOINT: stackInfo.dynamodbEndpoint, GRAPH_API_BASE_URL: stack.demo.chatNetwork.graphBaseUrl, WHATSAPP_APP_SECRET: stack.demo.chatNetwork.appSecret };
      for (const [name, expected] of Object.entries(pointing)) if (name in variables) expect(file[id][name], `${id} ${name}`).toBe(expected);
    }
    const webhook = functions.find(([, resource]) => 'WEBHOOK_SECRET_ARN' in resource.Properties!.Environment.Variables)!;
    expect(file[webhook[0]].WEBHOOK_SECRET_ARN).toBe('');
    const trigger = functions.find(([, resource]) => 'AUTOMATION_QUEUE_URL' in resource.Properties!.Environment.Variables)!;
    expect(file[trigger[0]].AUTOMATION_QUEUE_URL).toBe('');
  }, 240_000);

  it('refuses without a running stack, saying so', async () => {
    // Act
    const result = await samEnv(join(stack.dataDir, 'nothing-here'));
    // Assess
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/No npm start is running with DATA_DIR/);
    expect(result.stdout).toBe('');
  });
});
