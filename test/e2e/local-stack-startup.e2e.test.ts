import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { demoAdmin, runCli, sandboxInbound, sandboxSent, startStack, type RunningStack } from '../support/local-stack';
import { scriptCommand } from '../support/script-bundles';
import type { StackInfo } from '../../scripts/local/store';

/**
 * `npm start` and the operator CLI as a person meets them: what start-up refuses (in one
 * line, before building anything), how DATA_DIR is kept private, how the CLI finds the
 * stack and reads its flags, and that a tenant's webhook cannot reach the sandbox's
 * control API.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Runs scripts/start.ts until it exits (these starts are refused before they build or listen). */
function refusedStart(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: Record<string, string | undefined> = { ...process.env, PREBUILT_BUNDLES: '1', ...env };
  delete childEnv.DYNAMODB_ENDPOINT;
  delete childEnv.TABLE_NAME;
  const [node, args] = scriptCommand('start');
  const child = spawn(node, args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise({ code, stdout, stderr })));
}

/** Every file and folder under `folder` (`folder` itself included) with its permission bits and whether it is a folder. */
async function modes(folder: string, prefix = '.'): Promise<Array<[string, string, 'folder' | 'file']>> {
  const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);
  const own: Array<[string, string, 'folder' | 'file']> = [[prefix, await mode(folder), 'folder']];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) own.push(...(await modes(path, `${prefix}/${entry.name}`)));
    else own.push([`${prefix}/${entry.name}`, await mode(path), 'file']);
  }
  return own;
}

describe('npm start refuses what would stop it, in one line, before building', () => {
  let busy: Server;
  let busyPort: number;

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolvePromise) => busy.listen(0, '127.0.0.1', resolvePromise));
    busyPort = (busy.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolvePromise) => busy.close(() => resolvePromise())));

  it('names the port in use and how to choose another, and leaves no DATA_DIR behind', async () => {
    // Prepare
    const dataDir = join(await mkdtemp(join(tmpdir(), 'wsapi-start-')), 'data');
    // Act
    const result = await refusedStart({ PORT: String(busyPort), DATA_DIR: dataDir });
    // Assess
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`Port ${busyPort} is in use`)]);
    expect(result.stderr).toContain(`PORT=${busyPort + 1} npm start`);
    expect(existsSync(dataDir)).toBe(false);
  });

  it.each([
    ['a file', async (base: string) => (await writeFile(join(base, 'file'), ''), join(base, 'file')), /^DATA_DIR .*\/file is not a folder/],
    [
      'under a file',
      async (base: string) => (await writeFile(join(base, 'file'), ''), join(base, 'file', 'data')),
      /^Cannot create DATA_DIR .*: a part of .* is a file/,
    ],
  ])('says so when DATA_DIR is %s', async (_, make, message) => {
    // Prepare
    const dataDir = await make(await mkdtemp(join(tmpdir(), 'wsapi-start-')));
    // Act
    const result = await refusedStart({ PORT: '0', DATA_DIR: dataDir });
    // Assess
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });
});

describe('a stack started over a stale stack.json, with an earlier version’s wider files', () => {
  let stack: RunningStack;
  let staleInfo: Partial<StackInfo>;

  beforeAll(async () => {
    // Prepare: DATA_DIR 0755 with a world-readable log, and the stack.json of a run whose pid is now another live process's (this one's)
    const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-e2e-startup-'));
    await chmod(dataDir, 0o755);
    await mkdir(join(dataDir, 'logs'), { mode: 0o755 });
    await writeFile(join(dataDir, 'logs', 'service.log'), '', { mode: 0o644 });
    staleInfo = { pid: process.pid, url: 'http://127.0.0.1:9', instance: 'an-earlier-run', dataDir, dynamodbEndpoint: 'http://127.0.0.1:9', baseUrl: '' };
    await writeFile(join(dataDir, 'stack.json'), JSON.stringify(staleInfo), { mode: 0o644 });
    stack = await startStack({ dataDir });
  });
  afterAll(async () => stack?.stop());

  it('starts although the pid in stack.json is alive: it is not this stack', async () => {
    // Act
    const info = JSON.parse(await readFile(join(stack.dataDir, 'stack.json'), 'utf8')) as StackInfo;
    // Assess
    expect(info.pid).toBe(stack.process.pid);
    expect(info.instance).not.toBe(staleInfo.instance);
    expect(info.url).toBe(stack.url);
  });

  it('prints the docs URL beside the API URL', async () => {
    // Act: the banner's lines, however the pipe delivers them
    const banner = `API docs: ${stack.url}/docs`;
    if (!stack.output.join('').includes(banner))
      await new Promise<void>((resolveLine) => {
        const onData = () => {
          if (!stack.output.join('').includes(banner)) return;
          stack.process.stdout!.off('data', onData);
          resolveLine();
        };
        stack.process.stdout!.on('data', onData);
      });
    // Assess
    expect(stack.output.join('')).toContain(banner);
  });

  it('keeps DATA_DIR 0700 and every file in it 0600: the store, the logs, stack.json, demo.json, the keys', async () => {
    // Prepare: something in the log and the store
    await stack.call('channels/list', { apiKey: demoAdmin(stack).adminKey });
    // Act
    const all = await modes(stack.dataDir);
    // Assess
    expect(all.map(([path]) => path)).toEqual(
      expect.arrayContaining(['./dynamodb', './logs/service.log', './stack.json', './demo.json', './chat-network.json']),
    );
    expect(all.filter(([, mode, kind]) => mode !== (kind === 'folder' ? '700' : '600'))).toEqual([]);
  });
});

describe('the operator CLI finds the stack and reads its command line as typed', () => {
  let stack: RunningStack;
  let channelId: string;

  beforeAll(async () => {
    stack = await startStack();
    ({ channelId } = demoAdmin(stack));
  });
  afterAll(async () => stack?.stop());

  it('prints its commands for help and --help, exit 0, touching no DATA_DIR', async () => {
    // Prepare
    const dataDir = join(await mkdtemp(join(tmpdir(), 'wsapi-cli-')), 'data');
    // Act
    const results = await Promise.all([runCli(dataDir, ['help']), runCli(dataDir, ['--help']), runCli(dataDir, ['-h'])]);
    // Assess
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('inbound --channel CH --from PHONE --text TEXT');
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  it('finds the stack answering on PORT when DATA_DIR is not set, and says which DATA_DIR it uses', async () => {
    // Act
    const result = await runCli(undefined, ['template', 'sync', '--channel', channelId], { PORT: new URL(stack.url).port });
    // Assess
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ channelId, synced: 4 });
    expect(result.stderr).toContain(`DATA_DIR ${stack.dataDir}`);
  });

  it('says which DATA_DIR it opened when no stack answers for it', async () => {
    // Prepare
    const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-cli-'));
    // Act
    const result = await runCli(dataDir, ['channel', 'assign', '--channel', 'ch_nope', '--user', 'usr_nope']);
    // Assess
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`No npm start answers for DATA_DIR ${dataDir}`);
    expect(result.stderr).toContain('ch_nope');
  });

  it('takes a negative number as a flag’s value: the README’s location example', async () => {
    // Act
    const result = await stack.admin(
      'inbound',
      '--channel',
      channelId,
      '--from',
      '+351912345678',
      '--type',
      'location',
      '--latitude',
      '38.72',
      '--longitude',
      '-9.14',
      '--name',
      'Lisbon',
    );
    // Assess
    expect(result.code, result.stderr).toBe(0);
    expect(result.json.chatmid).toMatch(/^wamid\./);
  });

  it('reads --file from the folder the command was typed in (INIT_CWD) and names the absolute path it tried', async () => {
    // Prepare
    const typedIn = await mkdtemp(join(tmpdir(), 'wsapi-typed-'));
    await writeFile(join(typedIn, 'here.csv'), 'phone,name\n+14155550199,Typed Here\n');
    // Act
    const found = await runCli(stack.dataDir, ['contacts', 'import', '--channel', channelId, '--file', 'here.csv'], { INIT_CWD: typedIn });
    const missing = await runCli(stack.dataDir, ['contacts', 'import', '--channel', channelId, '--file', 'gone.csv'], { INIT_CWD: typedIn });
    // Assess
    expect(found.code, found.stderr).toBe(0);
    expect(found.json).toMatchObject({ rows: 1, file: join(typedIn, 'here.csv') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(join(typedIn, 'gone.csv'));
  });

  it('writes failed rows with formula-like cells neutralised, a phone number still readable', async () => {
    // Prepare
    const folder = await mkdtemp(join(tmpdir(), 'wsapi-formula-'));
    const file = join(folder, 'hostile.csv');
    await writeFile(
      file,
      [
        'phone,name,email',
        '"=HYPERLINK(""http://evil.example"",""x"")",Eve,eve@example.com',
        '+14155550142,@SUM(1+1),not-an-email',
        '-1+1,"\tTabbed",x@example.com',
        '+1+1,Plain,y@example.com',
      ].join('\n'),
    );
    // Act
    const result = await stack.admin('contacts', 'import', '--channel', channelId, '--file', file);
    const lines = (await readFile(`${file}.errors.csv`, 'utf8')).trim().split('\r\n');
    // Assess
    expect(result.json).toMatchObject({ rows: 4, failed: 4 });
    const startingWith = (prefix: string) => expect.stringMatching(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(lines.slice(1)).toEqual([
      startingWith(`"'=HYPERLINK(""http://evil.example"",""x"")",Eve,`),
      startingWith(`'+14155550142,'@SUM(1+1),`),
      startingWith(`'-1+1,'\tTabbed,`),
      startingWith(`'+1+1,Plain,`),
    ]);
  });

  it('refuses a tenant’s webhook at the sandbox’s control API: status webhooks keep flowing for everyone', async () => {
    // Prepare: an integrator subscribes the sandbox's "webhook-url" control call as its webhook (an event's body has no `url`: it would unset where statuses go)
    const { adminKey } = demoAdmin(stack);
    const info = JSON.parse(await readFile(join(stack.dataDir, 'stack.json'), 'utf8')) as StackInfo;
    const subscription = await stack.call('webhooks/manage', { apiKey: adminKey, params: { channelId, url: `${info.sandboxUrl}/_sandbox/webhook-url` } });
    expect(subscription.status, JSON.stringify(subscription.body)).toBe(200);
    // Act: an event goes out to it (a customer's message, as `admin inbound` has it sent), then a template is sent
    await sandboxInbound(stack, channelId, '+14155550177', 'hello');
    const attempt = await eventually(async () => {
      const deliveries = await stack.call('webhooks/deliveries', { apiKey: adminKey, params: { channelId, webhookId: subscription.body.data.id } });
      return deliveries.body.data.find((delivery: { lastStatusCode: number | null }) => delivery.lastStatusCode !== null);
    });
    const sent = await stack.call('chat/templates/send', {
      apiKey: adminKey,
      params: { channelId, to: '+14155550178', templateName: 'hello_world', languageCode: 'en_US' },
    });
    const status = await eventually(async () => {
      const answer = await stack.call('chat/message/status', { apiKey: adminKey, params: { chatmid: sent.body.data.chatmid } });
      return answer.body.data.status === 'delivered' ? answer.body.data.status : undefined;
    });
    // Assess
    expect(attempt.lastStatusCode).toBe(403);
    expect(status).toBe('delivered');
    expect((await sandboxSent(stack.dataDir)).map((message) => message.chatmid)).toContain(sent.body.data.chatmid);
  });
});
