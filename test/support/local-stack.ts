import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scriptCommand } from './script-bundles';
import { asQueryString } from './api';
import { captureCliStderr, captureStackLogs } from './log-capture';
import { createWorkspaceClient, type WorkspaceClient } from '../../client';
import { assertContract, contractFetch } from './contract';
import { SANDBOX_CONTROL_HEADER } from '../../scripts/local/sandbox-types';
import type { StackInfo } from '../../scripts/local/store';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface DemoFile {
  baseUrl: string;
  chatNetwork: { graphBaseUrl: string | null; appSecret: string; verifyToken: string };
  workspaces: Array<{
    id: string;
    name: string;
    keys: Array<{ role: 'admin' | 'team'; userId: string; apiKey: string }>;
    channels: Array<{ id: string; name: string; phoneNumberId: string; displayPhoneNumber: string; wabaId: string; accessToken: string }>;
  }>;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

export interface RunningStack {
  url: string;
  baseUrl: string;
  dataDir: string;
  demo: DemoFile;
  output: string[];
  process: ChildProcess;
  /** Runs the operator CLI against this stack's DATA_DIR. */
  admin(...args: string[]): Promise<CliResult>;
  /** The typed client (client/index.ts) for this stack and key; every response is checked against docs/openapi.json. */
  client(apiKey?: string): WorkspaceClient;
  /** Calls an endpoint below /api/workspace/v1 with an API key; the response is checked against docs/openapi.json. */
  call(
    path: string,
    options?: { apiKey?: string; method?: 'GET' | 'POST'; params?: Record<string, unknown>; headers?: Record<string, string>; body?: string },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The API key of `role` in the stack's first demo workspace (demo.json): the one the README's walkthroughs use. */
export function demoKey(stack: Pick<RunningStack, 'demo'>, role: 'admin' | 'team' = 'admin'): string {
  return stack.demo.workspaces[0].keys.find((key) => key.role === role)!.apiKey;
}

/** The first demo workspace's admin key and its channel number `channel` (0: the one with the sandbox's first number). */
export function demoAdmin(stack: Pick<RunningStack, 'demo'>, channel = 0): { adminKey: string; channelId: string } {
  return { adminKey: demoKey(stack), channelId: stack.demo.workspaces[0].channels[channel].id };
}

/** Calls the stack's sandbox chat network's control API (`/_sandbox/<action>`) with the run's token (stack.json): GET without a body, else POST. */
async function sandboxControl(dataDir: string, action: string, body?: Record<string, unknown>): Promise<unknown> {
  const { sandboxUrl, sandboxControlToken } = JSON.parse(await readFile(join(dataDir, 'stack.json'), 'utf8')) as StackInfo;
  const response = await fetch(`${sandboxUrl!}/_sandbox/${action}`, {
    method: body ? 'POST' : 'GET',
    headers: { [SANDBOX_CONTROL_HEADER]: sandboxControlToken!, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`the sandbox refused /_sandbox/${action}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** What the stack's sandbox chat network has sent so far. */
export async function sandboxSent(
  dataDir: string,
): Promise<Array<{ phoneNumberId: string; chatmid: string; body: { to: string; type: string; template?: { name: string } } }>> {
  return (await sandboxControl(dataDir, 'sent')) as Awaited<ReturnType<typeof sandboxSent>>;
}

/**
 * A customer's text to a demo channel, as `admin inbound --channel CH --from PHONE --text TEXT`
 * has it sent (the same control call, without starting the CLI): the sandbox delivers it through
 * the signed webhook and answers once the service has acknowledged it. For tests whose claim is
 * about what follows an inbound message, not about the CLI.
 */
export async function sandboxInbound(
  stack: Pick<RunningStack, 'dataDir' | 'demo'>,
  channelId: string,
  from: string,
  text: string,
): Promise<{ chatmid: string }> {
  const channel = stack.demo.workspaces.flatMap((workspace) => workspace.channels).find((candidate) => candidate.id === channelId);
  if (!channel) throw new Error(`${channelId} is not a demo channel`);
  return (await sandboxControl(stack.dataDir, 'inbound', { phoneNumberId: channel.phoneNumberId, from, text })) as { chatmid: string };
}

/** Every DATA_DIR a stack of this test file ran with (the template-mode suite reads their aws-calls.jsonl). */
export const stackDataDirs = new Set<string>();

/** Where the stack takes its routes from: the route table (default) or the synthesized template (STACK_SOURCE=template). */
export type StackSource = 'routes' | 'template';

/** Under vitest.config.ts's hookTimeout, so a stack that never starts fails with its output, not a bare timeout. */
const STARTUP_DEADLINE_MS = 170_000;

/**
 * The key cache (KEY_CACHE_MS) of the stacks that revoke a key and wait for the revocation
 * to take effect: short, so that they see the mechanism without waiting out the 10 s
 * default, whose bound test/shared/config.test.ts and the authorizer's tests hold.
 */
export const SHORT_KEY_CACHE_MS = 1_000;

/**
 * Starts `npm start`'s program (scripts/start.ts) as a child process on a free port
 * with its own DATA_DIR, and waits for the line that says it accepts requests.
 * `source` (default: this process's STACK_SOURCE, else the route table) picks the
 * mode; a template-mode stack synthesizes cdk.out first when it is stale.
 */
export async function startStack(options: { dataDir?: string; env?: Record<string, string>; source?: StackSource } = {}): Promise<RunningStack> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'wsapi-e2e-')));
  stackDataDirs.add(dataDir);
  const source = options.source ?? (process.env.STACK_SOURCE === 'template' ? 'template' : 'routes');
  const env = {
    ...process.env,
    PORT: '0',
    DATA_DIR: dataDir,
    PREBUILT_BUNDLES: '1',
    DYNAMODB_ENDPOINT: '',
    TABLE_NAME: '',
    STACK_SOURCE: source,
    ...options.env,
  };
  delete (env as Record<string, string | undefined>).DYNAMODB_ENDPOINT;
  delete (env as Record<string, string | undefined>).TABLE_NAME;
  const [node, args] = scriptCommand('start');
  const child = spawn(node, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  captureStackLogs(dataDir, child);
  const output: string[] = [];
  const url = await new Promise<string>((resolvePromise, reject) => {
    // A deadline for a hang, within vitest's hook timeout: on a loaded 2-core machine a start can pass a minute.
    const timer = setTimeout(() => reject(new Error(`local stack did not start:\n${output.join('')}`)), STARTUP_DEADLINE_MS);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = output.join('').match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local stack exited with ${code}:\n${output.join('')}`));
    });
  });
  const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8')) as DemoFile;
  const baseUrl = `${url}/api/workspace/v1`;
  return {
    url,
    baseUrl,
    dataDir,
    demo,
    output,
    process: child,
    admin: (...cliArgs) => runCli(dataDir, cliArgs),
    async call(path, callOptions = {}) {
      const method = callOptions.method ?? 'POST';
      const headers: Record<string, string> = { ...(callOptions.apiKey ? { 'X-API-Key': callOptions.apiKey } : {}), ...callOptions.headers };
      let target = `${baseUrl}/${path}`;
      let body = callOptions.body;
      if (callOptions.params && method === 'GET') {
        target += `?${new URLSearchParams(asQueryString(callOptions.params))}`;
      } else if (callOptions.params) {
        body = JSON.stringify(callOptions.params);
        headers['Content-Type'] ??= 'application/json';
      }
      const response = await fetch(target, { method, headers, body });
      const text = await response.text();
      const result = { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
      assertContract({ method, url: target, ...result });
      return result;
    },
    client: (apiKey) => createWorkspaceClient({ baseUrl, apiKey, fetch: contractFetch() }),
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolvePromise) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolvePromise();
        child.once('exit', () => resolvePromise());
        child.kill(signal);
      }),
  };
}

/** Runs `npm run admin -- …` (scripts/admin.ts) with the given DATA_DIR (undefined: none, as a person who set none); `env` entries set to undefined are removed. */
export function runCli(dataDir: string | undefined, args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const [node, scriptArgs] = scriptCommand('admin');
  const childEnv: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, ...env };
  delete childEnv.DYNAMODB_ENDPOINT;
  delete childEnv.TABLE_NAME;
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  return new Promise((resolvePromise) => {
    const child = spawn(node, [...scriptArgs, ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('exit', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      captureCliStderr(stderr);
      resolvePromise({ code: code ?? -1, stdout, stderr, json });
    });
  });
}
