import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { API_BASE_PATH, API_ROUTES, SUPPORT_FUNCTIONS, WEBHOOK_PATH } from '../../shared/routes';
import { LOCAL_TABLE_NAME } from '../../shared/data/table-schema';
import { buildBundles, bundlePath } from '../build';
import { startRunnerLoop } from './runner-loop';
import { startGateway, type AuthorizerHandler, type GatewayRoute, type ProxyHandler } from './gateway';
import { startSandbox } from './sandbox';
import { ensureTable, startStore, stackInfoPath, type StackInfo } from './store';

export interface LocalStackOptions {
  port: number;
  dataDir: string;
  /** Called with one readable line per request. */
  onRequest?: (line: string) => void;
}

export interface LocalStack {
  url: string;
  baseUrl: string;
  demoFile: string;
  close(): Promise<void>;
}

interface ChatNetworkSecrets {
  appSecret: string;
  verifyToken: string;
}

/** The webhook app secret and verify token of this DATA_DIR, made once and kept. */
async function chatNetworkSecrets(dataDir: string): Promise<ChatNetworkSecrets> {
  const file = join(dataDir, 'chat-network.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ChatNetworkSecrets;
  } catch {
    const secrets = { appSecret: randomBytes(24).toString('hex'), verifyToken: randomBytes(12).toString('hex') };
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return secrets;
  }
}

/**
 * Starts the whole service on this machine: dynalite under DATA_DIR, the Lambda
 * bundles built as CDK builds them, and the local gateway in front of them.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  await mkdir(options.dataDir, { recursive: true });
  const store = process.env.DYNAMODB_ENDPOINT ? undefined : await startStore(options.dataDir);
  const dynamodbEndpoint = process.env.DYNAMODB_ENDPOINT ?? store!.endpoint;
  const tableName = process.env.TABLE_NAME ?? LOCAL_TABLE_NAME;
  await ensureTable(dynamodbEndpoint, tableName);
  const secrets = await chatNetworkSecrets(options.dataDir);
  // The sandbox chat network: the service reaches it through the Graph API client, only with another base URL.
  const sandbox = await startSandbox({ port: 0, appSecret: secrets.appSecret });

  // The bundles read their configuration from the environment at import, as in Lambda.
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    TABLE_NAME: tableName,
    AWS_REGION: process.env.AWS_REGION ?? 'local',
    POWERTOOLS_SERVICE_NAME: 'workspace-api',
    WHATSAPP_APP_SECRET: secrets.appSecret,
    WHATSAPP_VERIFY_TOKEN: secrets.verifyToken,
    GRAPH_API_BASE_URL: sandbox.graphBaseUrl,
  });

  const { seedDemo, demoWorkspaces } = await import('./seed');
  const { getApiKeyById } = await import('../../shared/data/tenants');
  await seedDemo();
  await connectChannelsToSandbox(sandbox);

  await buildBundles();
  const load = async <T>(name: string) => ((await import(pathToFileURL(bundlePath(name)).href)) as { handler: T }).handler;
  const routes: GatewayRoute[] = [];
  for (const route of API_ROUTES) {
    routes.push({ path: `${API_BASE_PATH}/${route.path}`, methods: ['GET', 'POST'], handler: await load<ProxyHandler>(route.name), authorized: true });
  }
  for (const fn of Object.values(SUPPORT_FUNCTIONS)) {
    if (fn.publicPath) routes.push({ path: fn.publicPath, methods: [...(fn.publicMethods ?? ['GET', 'POST'])], handler: await load<ProxyHandler>(fn.name), authorized: false });
  }
  const authorizer = await load<AuthorizerHandler>(SUPPORT_FUNCTIONS.authorizer.name);
  const gateway = await startGateway({ port: options.port, routes, authorizer, onRequest: options.onRequest });
  // The automation runner and the outbox re-drive: the same bundles, fed from the table queue instead of SQS.
  const runnerLoop = await startRunnerLoop({
    runner: await load(SUPPORT_FUNCTIONS.automationRunner.name),
    redrive: await load(SUPPORT_FUNCTIONS.automationRedrive.name),
    sweep: await load(SUPPORT_FUNCTIONS.messageContentSweep.name),
  });
  sandbox.setWebhookUrl(`${gateway.url}${WEBHOOK_PATH}`);

  const baseUrl = `${gateway.url}${API_BASE_PATH}`;
  const info: StackInfo = { pid: process.pid, dynamodbEndpoint, baseUrl, graphBaseUrl: sandbox.graphBaseUrl, sandboxUrl: sandbox.url };
  await writeFile(stackInfoPath(options.dataDir), JSON.stringify(info, null, 2));
  const demoFile = join(options.dataDir, 'demo.json');
  const workspaces = await demoWorkspaces(async (keyId) => (await getApiKeyById(keyId))?.userId ?? '');
  const demo = { baseUrl, chatNetwork: { graphBaseUrl: sandbox.graphBaseUrl, appSecret: secrets.appSecret, verifyToken: secrets.verifyToken }, workspaces };
  await writeFile(demoFile, JSON.stringify(demo, null, 2));

  return {
    url: gateway.url,
    baseUrl,
    demoFile,
    async close() {
      await runnerLoop.stop();
      await sandbox.close();
      await gateway.close();
      await rm(stackInfoPath(options.dataDir), { force: true });
      await store?.close();
    },
  };
}

/**
 * Registers every channel's business number with the sandbox (it keeps nothing
 * across restarts) and syncs the templates of channels that have none stored yet,
 * which covers the demo's first seed and channels created while the stack was down.
 * Finding the channels takes a Scan filtered to channel items: acceptable here, in
 * the local stack's startup only, never in an endpoint.
 */
async function connectChannelsToSandbox(sandbox: import('./sandbox').SandboxHandle): Promise<void> {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db, tableName } = await import('../../shared/data/client');
  const { listTemplates } = await import('../../shared/data/templates');
  const { syncTemplates } = await import('../../shared/domain/templates');
  type Channel = import('../../shared/data/channels').ChannelRecord;
  const channels: Channel[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :channel', ExpressionAttributeValues: { ':channel': 'channel' }, ExclusiveStartKey: startKey }),
    );
    channels.push(...((page.Items ?? []) as Channel[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  for (const channel of channels) {
    if (!channel.wabaId || !channel.accessToken) continue;
    sandbox.registerPhoneNumber({ phoneNumberId: channel.phoneNumberId, wabaId: channel.wabaId, accessToken: channel.accessToken, displayPhoneNumber: channel.displayPhoneNumber ?? channel.phoneNumberId });
    if ((await listTemplates(channel.workspaceId, channel.id)).length === 0) await syncTemplates(channel);
  }
}
