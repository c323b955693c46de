import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { SAM_LOCAL_VARIABLES } from '../../infra/functions';
import type { StackInfo } from '../../scripts/local/store';
import { readTemplate, resourceName, SAM_CDK_OUT, type CfnTemplate } from '../../scripts/local/template';
import { API_ROUTES, SUPPORT_FUNCTIONS } from '../../shared/routes';
import { restProxyEvent } from '../support/api';
import { scriptCommand } from '../support/script-bundles';
import { eventually } from '../support/eventually';
import { demoAdmin, sandboxSent, startStack, type RunningStack } from '../support/local-stack';
import { startReceiver } from '../support/receiver';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Runs `npm run sam-env`'s program (the run's bundle of scripts/sam-env.ts, test/support/script-bundles.ts) with `dataDir` as DATA_DIR. */
function samEnv(dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const [node, args] = scriptCommand('sam-env');
    const child = spawn(node, args, {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('exit', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}

/** What SAM gives every function besides its template variables (samcli/local/lambdafn/env_vars.py, without credentials configured). */
const SAM_AWS_VARIABLES = {
  AWS_SAM_LOCAL: 'true',
  AWS_REGION: 'us-east-1',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'defaultkey',
  AWS_SECRET_ACCESS_KEY: 'defaultsecret',
};

/**
 * Invokes a function of the samLocal template as `sam local` runs it: its asset's
 * bundle in a process of its own (nothing provides a step queue there), whose
 * environment is SAM's AWS variables and the function's template variables with the
 * env-vars file's values over them. Resolves to the handler's result.
 */
function invokeAsSam(template: CfnTemplate, file: Record<string, Record<string, string>>, functionName: string, event: unknown): Promise<unknown> {
  const [id, resource] = Object.entries(template.Resources).find(
    ([logicalId, candidate]) => candidate.Type === 'AWS::Lambda::Function' && resourceName(template, logicalId) === functionName,
  )!;
  const variables = resource.Properties!.Environment.Variables as Record<string, unknown>;
  const env = {
    ...SAM_AWS_VARIABLES,
    AWS_LAMBDA_FUNCTION_NAME: id,
    ...Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, file[id]?.[name] ?? (typeof value === 'string' ? value : '')])),
  };
  const bundle = join(SAM_CDK_OUT, resource.Metadata!['aws:asset:path'] as string, 'index.mjs');
  // The handler's result goes to fd 3: stdout carries the function's log lines.
  const script = [
    `const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});`,
    "let input = ''; for await (const chunk of process.stdin) input += chunk;",
    `const result = await handler(JSON.parse(input), { awsRequestId: 'sam-local', functionName: ${JSON.stringify(id)}, getRemainingTimeInMillis: () => 10_000 });`,
    "(await import('node:fs')).writeSync(3, JSON.stringify(result));",
  ].join('\n');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    let output = '';
    let logs = '';
    child.stdio[3]!.on('data', (chunk: Buffer) => (output += chunk));
    child.stdout.on('data', (chunk: Buffer) => (logs += chunk));
    child.stderr.on('data', (chunk: Buffer) => (logs += chunk));
    child.on('close', (code) => (code === 0 && output ? resolvePromise(JSON.parse(output)) : reject(new Error(`${functionName} failed (${code}):\n${logs}`))));
    child.stdin.end(JSON.stringify(event));
  });
}

/** The env-vars file sam-env writes for `dataDir`, and the samLocal template it was written for. */
async function samEnvFile(dataDir: string): Promise<{ template: CfnTemplate; file: Record<string, Record<string, string>> }> {
  const result = await samEnv(dataDir);
  expect(result.code, result.stderr).toBe(0);
  const file = JSON.parse(await readFile((JSON.parse(result.stdout) as { envVarsFile: string }).envVarsFile, 'utf8')) as Record<string, Record<string, string>>;
  return { template: readTemplate(SAM_CDK_OUT).template, file };
}

/**
 * A POST to `path` with `apiKey` as SAM's gateway hands it to the function: the
 * authorizer run as SAM runs it, its context on the request. Resolves to the function's name and event.
 */
async function samRequest(sam: { template: CfnTemplate; file: Record<string, Record<string, string>> }, path: string, apiKey: string, params: unknown) {
  const headers = { 'X-API-Key': apiKey, 'Content-Type': 'application/json' };
  const auth = (await invokeAsSam(sam.template, sam.file, SUPPORT_FUNCTIONS.authorizer.name, {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:us-east-1:123456789012:sam/Prod/POST/api/workspace/v1/${path}`,
    headers,
    queryStringParameters: null,
  })) as { principalId: string; context: Record<string, unknown> };
  const event = restProxyEvent({
    method: 'POST',
    headers,
    body: JSON.stringify(params),
    requestId: `sam-local-${path.replaceAll('/', '-')}`,
    stage: 'Prod',
    authorizer: { ...auth.context, principalId: auth.principalId },
  });
  return { functionName: API_ROUTES.find((route) => route.path === path)!.name, event };
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
    expect(printed.command).toBe(
      `sam local start-api -t ${printed.template} --env-vars ${printed.envVarsFile.replace(`${ROOT}/`, '')} --docker-network host --port 3001`,
    );
    const file = JSON.parse(await readFile(printed.envVarsFile, 'utf8')) as Record<string, Record<string, string>>;
    const { template } = readTemplate(SAM_CDK_OUT);
    const stackInfo = JSON.parse(await readFile(join(stack.dataDir, 'stack.json'), 'utf8')) as StackInfo;
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
      const pointing = {
        TABLE_NAME: 'workspace-api',
        DYNAMODB_ENDPOINT: stackInfo.dynamodbEndpoint,
        AWS_ENDPOINT_URL_SQS: stackInfo.sqsEndpoint,
        AUTOMATION_QUEUE_URL: stackInfo.stepQueueUrl,
        EVENT_QUEUE_URL: stackInfo.eventQueueUrl,
        EVENT_LANE_QUEUE_URL: stackInfo.eventLaneQueueUrl,
        GRAPH_API_BASE_URL: stack.demo.chatNetwork.graphBaseUrl,
        WHATSAPP_APP_SECRET: stack.demo.chatNetwork.appSecret,
      };
      for (const [name, expected] of Object.entries(pointing)) if (name in variables) expect(file[id][name], `${id} ${name}`).toBe(expected);
    }
    const webhook = functions.find(([, resource]) => 'WEBHOOK_SECRET_ARN' in resource.Properties!.Environment.Variables)!;
    expect(file[webhook[0]].WEBHOOK_SECRET_ARN).toBe('');
    // The functions that send steps send them through npm start's SQS endpoint, to the queue the runner consumes.
    const senders = functions.filter(([, resource]) => 'AUTOMATION_QUEUE_URL' in resource.Properties!.Environment.Variables);
    expect(senders.length).toBeGreaterThan(0);
    expect(stackInfo.stepQueueUrl).toBe(`${stackInfo.sqsEndpoint}/000000000000/AutomationQueue`);
    // The event queues by their template names: the FIFO queue of new events, and the lane queue.
    expect([stackInfo.eventQueueUrl, stackInfo.eventLaneQueueUrl]).toEqual([
      `${stackInfo.sqsEndpoint}/000000000000/EventQueue.fifo`,
      `${stackInfo.sqsEndpoint}/000000000000/EventLaneQueue`,
    ]);
    for (const [id] of senders)
      expect(file[id], id).toMatchObject({ AUTOMATION_QUEUE_URL: stackInfo.stepQueueUrl, AWS_ENDPOINT_URL_SQS: stackInfo.sqsEndpoint });
  }, 240_000);

  it('lets a trigger run as SAM runs it send its step through npm start\u2019s SQS endpoint into the table queue, which the runner loop runs', async () => {
    // Prepare: the env-vars file, and the team key's request as SAM would have them
    const sam = await samEnvFile(stack.dataDir);
    const teamKey = stack.demo.workspaces[0].keys.find((key) => key.role === 'team')!.apiKey;
    const phone = '14155550199';
    const { functionName: trigger, event } = await samRequest(sam, 'automations/trigger', teamKey, {
      phoneNumber: `+${phone}`,
      automationName: 'Welcome Flow',
    });
    // Act
    const triggered = (await invokeAsSam(sam.template, sam.file, trigger, event)) as { statusCode: number; body: string };
    // Assess: the trigger enqueued through SQS's API (its bundle has no other queue), and npm start's runner ran both steps
    expect(triggered.statusCode, triggered.body).toBe(200);
    expect(JSON.parse(triggered.body)).toMatchObject({ success: true, data: { automationName: 'Welcome Flow', status: 'triggered' } });
    const labels = await eventually(async () => {
      const listed = await stack.call('contacts/list', { apiKey: teamKey, params: { search: phone } });
      const names = ((listed.body.data[0]?.labels ?? []) as { name: string }[]).map((label) => label.name);
      return names.length > 0 ? names : undefined;
    });
    const sent = await eventually(async () => {
      const messages = await sandboxSent(stack.dataDir);
      return messages.find((message) => message.body.to === phone);
    });
    expect(labels).toEqual(['new']);
    expect(sent.body).toMatchObject({ type: 'template', template: { name: 'hello_world' } });
  }, 240_000);

  it('lets webhooks/manage run as SAM runs it seal a secret that npm start\u2019s deliverer opens: the delivery verifies with it', async () => {
    // Prepare: the env-vars file, a receiver, and the admin key's request as SAM would have them
    const sam = await samEnvFile(stack.dataDir);
    const { template, file } = sam;
    const { adminKey, channelId } = demoAdmin(stack);
    const receiver = await startReceiver('/sam-hook');
    const { functionName: manage, event } = await samRequest(sam, 'webhooks/manage', adminKey, { channelId, url: receiver.url, events: ['message.received'] });
    try {
      // Act: SAM's webhooks/manage seals the secret; the customer writes; npm start's deliverer signs the delivery
      const created = (await invokeAsSam(template, file, manage, event)) as { statusCode: number; body: string };
      expect(created.statusCode, created.body).toBe(200);
      receiver.secrets.push(JSON.parse(created.body).data.secret);
      const inbound = await stack.admin('inbound', '--channel', channelId, '--from', '14155550177', '--text', 'Hello from SAM');
      const delivered = await eventually(async () => receiver.received.find((delivery) => delivery.answered === 200));
      // Assess
      expect(inbound.code, inbound.stderr).toBe(0);
      expect(delivered.verifiedBy).toEqual(receiver.secrets);
      expect(delivered.event).toMatchObject({ type: 'message.received', data: { content: { body: 'Hello from SAM' } } });
      const sealers = Object.entries(template.Resources).filter(([, resource]) => 'WEBHOOK_SECRETS_KEY' in (resource.Properties?.Environment?.Variables ?? {}));
      expect(sealers.map(([id]) => file[id].WEBHOOK_SECRETS_KEY)).toEqual(sealers.map(() => expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/)));
    } finally {
      await receiver.close();
    }
  }, 240_000);

  it('lets an opt-out kept through an erasure as SAM runs them refuse npm start\u2019s send: both hash numbers under one local key', async () => {
    // Prepare: the env-vars file, and a contact that SAM's contacts/manage opts out and SAM's contacts/delete erases
    const sam = await samEnvFile(stack.dataDir);
    const { adminKey, channelId } = demoAdmin(stack);
    const phone = '+14155550177';
    const optOut = await samRequest(sam, 'contacts/manage', adminKey, { channelId, phoneNumber: phone, status: 'opted_out' });
    const erase = await samRequest(sam, 'contacts/delete', adminKey, { channelId, phoneNumber: phone });
    const optedOut = (await invokeAsSam(sam.template, sam.file, optOut.functionName, optOut.event)) as { statusCode: number; body: string };
    const erased = (await invokeAsSam(sam.template, sam.file, erase.functionName, erase.event)) as { statusCode: number; body: string };
    // Act: npm start's own send finds the suppression record SAM's function kept
    const send = await stack.call('chat/templates/send', { apiKey: adminKey, params: { channelId, to: phone, templateName: 'hello_world' } });
    // Assess
    expect(optedOut.statusCode, optedOut.body).toBe(200);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(send.status, JSON.stringify(send.body)).toBe(403);
    expect(send.body.error).toBe('contact_opted_out');
    const hashers = Object.entries(sam.template.Resources).filter(([, resource]) => resource.Properties?.Environment?.Variables?.SUPPRESSION_KEY !== undefined);
    expect(hashers.map(([id]) => sam.file[id].SUPPRESSION_KEY)).toEqual(hashers.map(() => expect.stringMatching(/^[\w-]{43}$/)));
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
