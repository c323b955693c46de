import type { TemplateStackOptions } from './template-stack';
import { randomBytes, randomUUID } from 'node:crypto';
import { access, chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { API_BASE_PATH, SUPPORT_FUNCTIONS, WEBHOOK_PATH } from '../../shared/routes';
import { LOCAL_TABLE_NAME } from '../../shared/data/table-schema';
import { localKeyFile } from '../../shared/events/secret-box';
import { ensureBundles } from '../../infra/bundles';
import { DELIVERER_TRACE_PREFIX, startDelivererLoop, type DelivererBatchRecord } from './deliverer-loop';
import { localMediaSettings, mediaRoute } from './media-links';
import { localSuppressionKey } from './suppression-key';
import { describeRouteTable } from './description';
import { startRunnerLoop } from './runner-loop';
import { startGateway, type AuthorizerHandler, type GatewayOptions, type GatewayRoute, type ProxyHandler } from './gateway';
import { startSandbox, type SandboxHandle } from './sandbox';
import { ensureTable, STACK_IDENTITY_PATH, startStoreThread, stackInfoPath, type StackIdentity, type StackInfo } from './store';
import { LOCAL_ACCOUNT } from './template';

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

/** The name of the automation queue's local stand-in in its SQS URL: the template's queue (infra/data.ts). */
const LOCAL_STEP_QUEUE_NAME = 'AutomationQueue';
/** The event queues' names at the same endpoint (the template's FIFO queue and its lane queue): both go to the event deliverer's table queue. */
const LOCAL_EVENT_QUEUE_NAMES = { EVENT_QUEUE_URL: 'EventQueue.fifo', EVENT_LANE_QUEUE_URL: 'EventLaneQueue' } as const;

/** The event queues' URLs at the local SQS endpoint, by the variables the functions read them from. */
function localEventQueueUrls(sqsEndpoint: string): Record<keyof typeof LOCAL_EVENT_QUEUE_NAMES, string> {
  const url = (name: string) => `${sqsEndpoint}/${LOCAL_ACCOUNT}/${name}`;
  return { EVENT_QUEUE_URL: url(LOCAL_EVENT_QUEUE_NAMES.EVENT_QUEUE_URL), EVENT_LANE_QUEUE_URL: url(LOCAL_EVENT_QUEUE_NAMES.EVENT_LANE_QUEUE_URL) };
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

/** The table: DYNAMODB_ENDPOINT's when set, else dynalite under DATA_DIR; created when missing. */
async function startTable(dataDir: string) {
  const store = process.env.DYNAMODB_ENDPOINT ? undefined : await startStoreThread(dataDir);
  const dynamodbEndpoint = process.env.DYNAMODB_ENDPOINT ?? store!.endpoint;
  const tableName = process.env.TABLE_NAME ?? LOCAL_TABLE_NAME;
  const created = await ensureTable(dynamodbEndpoint, tableName);
  return { store, dynamodbEndpoint, tableName, created };
}

/**
 * The Cognito stand-in with the demo users; the portal page hands the browser its endpoint and ids, as the stack hands it
 * the pool's outputs in AWS. Its port and ids are known at once; cognito-local is loaded and the demo users made on its
 * first request (most stacks' portal is never opened: loading it was the largest part of a start).
 */
async function startUserPool(dataDir: string) {
  const userPool = await (await import('./portal-seed')).listenForPortalUserPool(dataDir, demoApiUserOfKey);
  Object.assign(process.env, { PORTAL_COGNITO_ENDPOINT: userPool.endpoint, PORTAL_USER_POOL_ID: userPool.userPoolId, PORTAL_CLIENT_ID: userPool.clientId });
  return userPool;
}

/**
 * The automation runner with the outbox re-drive, and the event deliverer with the event
 * re-drive: the same bundles as in AWS, fed from the table's queues instead of SQS.
 */
async function startQueueLoops(served: Served, tableCreated: boolean) {
  // The re-drives, the sweep and the drain pick up what an earlier run left (a crash, a failed hand-off, an old message).
  // A table this start created held nothing before the demo seed, and the seed leaves them nothing (no execution, event,
  // handed-off webhook or message), so their first run waits for their period instead of running (and loading) at start.
  const redriveAtStart = !tableCreated;
  const runnerLoop = await startRunnerLoop({ runner: served.runner, redrive: served.redrive, sweep: served.sweep, redriveAtStart });
  const delivererLoop = served.events ? await startDelivererLoop({ ...served.events, redriveAtStart, onBatch: delivererTrace() }) : undefined;
  return {
    async stop() {
      await runnerLoop.stop();
      await delivererLoop?.stop();
    },
  };
}

/**
 * Starts the whole service on this machine: dynalite under DATA_DIR, the Lambda
 * bundles built as CDK builds them, and the local gateway in front of them.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  await mkdir(options.dataDir, { recursive: true });
  const { store, dynamodbEndpoint, tableName, created } = await startTable(options.dataDir);
  const secrets = await chatNetworkSecrets(options.dataDir);
  // The sandbox chat network: the service reaches it through the Graph API client, only with another base URL.
  const sandbox = await startSandbox({ port: 0, appSecret: secrets.appSecret });
  configureFunctions({ dataDir: options.dataDir, dynamodbEndpoint, tableName, graphBaseUrl: sandbox.graphBaseUrl, secrets });
  await provideLocalQueues();
  await (await import('./seed')).seedDemo();
  const userPool = await startUserPool(options.dataDir);
  await connectChannelsToSandbox(sandbox);
  const sqs = await startLocalSqs();

  const served =
    process.env.STACK_SOURCE === 'template'
      ? await serveTemplate(options, dynamodbEndpoint, tableName, sandbox.graphBaseUrl, secrets, userPool)
      : await serveRouteTable(sqs.url);
  const instance = randomUUID();
  const gateway = await startGateway({
    port: options.port,
    routes: [...served.routes, identityRoute({ instance, dataDir: options.dataDir }), mediaRoute()],
    authorizer: served.authorizer,
    onRequest: options.onRequest,
    // The portal API's routes: the ID token checked as API Gateway's Cognito authorizer checks it.
    userPool: await (await import('./id-token')).idTokenVerifier(userPool),
    ...served.gatewayOptions,
  });
  // Media links name the gateway, whose port is known only now (before any function that signs one has run).
  process.env.MEDIA_URL_BASE = gateway.url;
  served.mediaLinksAt?.(gateway.url);
  const loops = await startQueueLoops(served, created);
  sandbox.setWebhookUrl(`${gateway.url}${WEBHOOK_PATH}`);

  const baseUrl = `${gateway.url}${API_BASE_PATH}`;
  await writeStackInfo(options.dataDir, { instance, dynamodbEndpoint, gatewayUrl: gateway.url, sandbox, sqsEndpoint: sqs.url, userPool });

  const portal = (await import('./portal-seed')).demoPortal(gateway.url, userPool);
  const demoFile = await writeDemoFile(options.dataDir, { baseUrl, graphBaseUrl: sandbox.graphBaseUrl, secrets, portal });

  return {
    url: gateway.url,
    baseUrl,
    demoFile,
    async close() {
      // Before the SQS endpoint: the deliverer's worker hands its retries over through it.
      await loops.stop();
      await sqs.close();
      await sandbox.close();
      await gateway.close();
      await served.close();
      await userPool.close();
      await rm(stackInfoPath(options.dataDir), { force: true });
      await store?.close();
    },
  };
}

/** Publishes the running stack in DATA_DIR/stack.json (the CLI, sam-env and the tests read it; it holds the sandbox's control token). */
async function writeStackInfo(
  dataDir: string,
  run: { instance: string; dynamodbEndpoint: string; gatewayUrl: string; sandbox: SandboxHandle; sqsEndpoint: string; userPool: StackInfo['userPool'] },
): Promise<void> {
  const info: StackInfo = {
    pid: process.pid,
    url: run.gatewayUrl,
    instance: run.instance,
    dataDir,
    sandboxControlToken: run.sandbox.controlToken,
    dynamodbEndpoint: run.dynamodbEndpoint,
    baseUrl: `${run.gatewayUrl}${API_BASE_PATH}`,
    graphBaseUrl: run.sandbox.graphBaseUrl,
    sandboxUrl: run.sandbox.url,
    sqsEndpoint: run.sqsEndpoint,
    stepQueueUrl: `${run.sqsEndpoint}/${LOCAL_ACCOUNT}/${LOCAL_STEP_QUEUE_NAME}`,
    eventQueueUrl: localEventQueueUrls(run.sqsEndpoint).EVENT_QUEUE_URL,
    eventLaneQueueUrl: localEventQueueUrls(run.sqsEndpoint).EVENT_LANE_QUEUE_URL,
    userPool: run.userPool && { endpoint: run.userPool.endpoint, userPoolId: run.userPool.userPoolId, clientId: run.userPool.clientId },
  };
  await writeFile(stackInfoPath(dataDir), JSON.stringify(info, null, 2), { mode: 0o600 });
}

/** The gateway's answer to STACK_IDENTITY_PATH: which run this is, so a pid in stack.json is never trusted alone. */
function identityRoute(identity: StackIdentity): GatewayRoute {
  return {
    path: STACK_IDENTITY_PATH,
    methods: ['GET'],
    authorized: false,
    handler: async () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(identity) }),
  };
}

/** The bundles read their configuration from the environment at import, as in Lambda. */
function configureFunctions(local: { dataDir: string; dynamodbEndpoint: string; tableName: string; graphBaseUrl: string; secrets: ChatNetworkSecrets }) {
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: local.dynamodbEndpoint,
    TABLE_NAME: local.tableName,
    AWS_REGION: process.env.AWS_REGION ?? 'local',
    POWERTOOLS_SERVICE_NAME: 'workspace-api',
    WHATSAPP_APP_SECRET: local.secrets.appSecret,
    WHATSAPP_VERIFY_TOKEN: local.secrets.verifyToken,
    GRAPH_API_BASE_URL: local.graphBaseUrl,
    // Integrators' webhooks: loopback receivers allowed locally; secrets sealed under a key in DATA_DIR.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_SECRETS_KEY_FILE: localKeyFile(local.dataDir),
    // The portal's request log: the handlers' JSON lines in DATA_DIR/logs/service.log (scripts/start.ts).
    DATA_DIR: local.dataDir,
    // Media: files under DATA_DIR, opened by links the gateway serves (mediaRoute), signed with a key kept in DATA_DIR.
    ...localMediaSettings(local.dataDir),
    // Opt-outs kept after an erasure: hashed under a key kept with DATA_DIR (the same in the template-driven mode and under SAM).
    ...localSuppressionKey(local.dataDir),
  });
}

/** Steps and events go to the durable table queue the loops read, not SQS: chosen here, where the local app is assembled. */
async function provideLocalQueues(): Promise<void> {
  const { tableStepQueue, tableEventQueue } = await import('./table-step-queue');
  (await import('../../shared/queue/step-queue')).provideStepQueue(tableStepQueue);
  (await import('../../shared/queue/event-queue')).provideEventQueue(tableEventQueue);
}

/** SQS for callers outside this thread (the functions `sam local` runs, npm run sam-env; the event deliverer's worker): SendMessage into the same table queue. */
async function startLocalSqs() {
  const { startSqsEndpoint } = await import('./aws-endpoint');
  const { sendLocalMessage, EVENT_QUEUE } = await import('./table-step-queue');
  return startSqsEndpoint({
    [LOCAL_STEP_QUEUE_NAME]: sendLocalMessage,
    ...Object.fromEntries(
      Object.values(LOCAL_EVENT_QUEUE_NAMES).map((name) => [name, (body: string, delaySeconds: number) => sendLocalMessage(body, delaySeconds, EVENT_QUEUE)]),
    ),
  });
}

/** The API user of a demo key (the demo's portal users sign in as them). */
async function demoApiUserOfKey(keyId: string): Promise<string> {
  const { getApiKeyById } = await import('../../shared/data/tenants');
  const key = await getApiKeyById(keyId);
  if (!key) throw new Error(`The demo key ${keyId} is missing: its portal user cannot be seeded.`);
  return key.userId;
}

/** Writes DATA_DIR/demo.json (what a person needs to try the stack) and returns its path. */
async function writeDemoFile(
  dataDir: string,
  { baseUrl, graphBaseUrl, secrets, portal }: { baseUrl: string; graphBaseUrl: string; secrets: ChatNetworkSecrets; portal: object },
): Promise<string> {
  const { demoWorkspaces } = await import('./seed');
  const { getApiKeyById } = await import('../../shared/data/tenants');
  const demoFile = join(dataDir, 'demo.json');
  const workspaces = await demoWorkspaces(async (keyId) => (await getApiKeyById(keyId))?.userId ?? '');
  const demo = { baseUrl, chatNetwork: { graphBaseUrl, appSecret: secrets.appSecret, verifyToken: secrets.verifyToken }, workspaces, portal };
  // It holds every demo key, channel token, the app secret and the verify token. The mode
  // of writeFile applies only to a new file, so an existing one (written 0644 by an
  // earlier version) is narrowed first, before the secrets go in.
  await chmod(demoFile, 0o600).catch(() => undefined);
  await writeFile(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demoFile;
}

interface Served {
  routes: GatewayRoute[];
  authorizer: AuthorizerHandler;
  runner: Parameters<typeof startRunnerLoop>[0]['runner'];
  redrive: Parameters<typeof startRunnerLoop>[0]['redrive'];
  /** The message-content retention sweep (and any other scheduled function beside the re-drive). */
  sweep: () => Promise<unknown>;
  gatewayOptions?: Pick<GatewayOptions, 'authorizerSettings' | 'responses' | 'planThrottle'>;
  /** Gives functions with an environment of their own (the template-driven mode's) the gateway's URL for media links. */
  mediaLinksAt?(url: string): void;
  /** The event deliverer and the event re-drive (route-table mode). */
  events?: Pick<Parameters<typeof startDelivererLoop>[0], 'deliverer' | 'redrive'>;
  close(): Promise<void>;
}

/**
 * Route-table mode (the default): the bundles infra/bundles.ts builds, imported into this
 * process, each on its function's first invocation as a Lambda starts (a scheduled one's
 * first is its first run) — except the event deliverer, which runs in a worker thread of
 * its own (as in the template-driven mode), so its table calls' client work and its POSTs run beside the
 * gateway's and dynalite's instead of between them. Its hand-offs (retries, wake-ups)
 * reach the table queue through the local SQS endpoint at `sqsEndpoint`.
 */
async function serveRouteTable(sqsEndpoint: string): Promise<Served> {
  await ensureBundles();
  const description = describeRouteTable();
  const load = async <T>(name: string) => ((await import(pathToFileURL(description.functions[name].bundle).href)) as { handler: T }).handler;
  const deliverer = SUPPORT_FUNCTIONS.eventDeliverer.name;
  const { createFunctionHost } = await import('./function-host');
  const workers = createFunctionHost({
    [deliverer]: {
      ...description.functions[deliverer],
      environment: {
        ...(Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== undefined)) as Record<string, string>),
        ...localEventQueueUrls(sqsEndpoint),
        AWS_ENDPOINT_URL_SQS: sqsEndpoint,
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
      },
    },
  });
  const invokeDeliverer = workers.invoke(deliverer);
  // Started now (an empty batch), not by the first event: its load would be that event's delay.
  await invokeDeliverer({ Records: [] });
  const routes: GatewayRoute[] = [];
  for (const route of description.routes)
    routes.push({
      path: route.path,
      methods: route.methods,
      handler: loadOnFirstCall(() => load<ProxyHandler>(route.functionName)),
      authorized: route.authorized,
      userPool: route.userPool,
      otherMethods: route.otherMethods,
    });
  const { authorizer, queueConsumer, scheduled, alsoScheduled } = description;
  const notRoutes = [authorizer.functionName, queueConsumer, scheduled, ...alsoScheduled, SUPPORT_FUNCTIONS.eventRedrive.name];
  await requireBundles(notRoutes.map((name) => description.functions[name].bundle));
  return {
    routes,
    authorizer: loadOnFirstCall(() => load<AuthorizerHandler>(authorizer.functionName)),
    runner: loadOnFirstCall(() => load<Served['runner']>(queueConsumer)),
    redrive: loadOnFirstCall(() => load<Served['redrive']>(scheduled)),
    sweep: sweepOf(alsoScheduled.map((name) => loadOnFirstCall(() => load<() => Promise<unknown>>(name)))),
    events: { deliverer: (event) => invokeDeliverer(event), redrive: loadOnFirstCall(() => load(SUPPORT_FUNCTIONS.eventRedrive.name)) },
    close: () => workers.close(),
  };
}

/**
 * A function's handler, imported on its first invocation, as a Lambda starts on its first
 * invocation: a stack loads only the bundles it is asked for (compiling all of them was most
 * of a start). A bundle that fails to load fails each of its invocations, as a broken Lambda does.
 */
function loadOnFirstCall<Args extends unknown[], Result>(load: () => Promise<(...args: Args) => Promise<Result>>): (...args: Args) => Promise<Result> {
  let loaded: Promise<(...args: Args) => Promise<Result>> | undefined;
  return async (...args) => (await (loaded ??= load()))(...args);
}

/**
 * The functions that serve no route of their own (the authorizer, the queue consumer, the
 * scheduled ones) load on their first invocation as the routes' do, but a stack without one
 * of their bundles would fail every request or every run of a loop: such a start fails at
 * once instead. ensureBundles (skipped with PREBUILT_BUNDLES=1) has already rebuilt any that
 * were missing or stale.
 */
async function requireBundles(bundles: string[]): Promise<void> {
  const missing: string[] = [];
  for (const bundle of bundles) await access(bundle).catch(() => missing.push(bundle));
  if (missing.length > 0) throw new Error(`Missing function bundles (npm run build builds them): ${missing.join(', ')}`);
}

/** Runs every scheduled handler in turn. */
function sweepOf(handlers: Array<() => Promise<unknown>>): () => Promise<unknown> {
  return async () => {
    for (const handler of handlers) await handler();
  };
}

/** Template-driven mode (STACK_SOURCE=template): everything from the synthesized template, each function in its own worker. */
async function serveTemplate(
  options: LocalStackOptions,
  dynamodbEndpoint: string,
  tableName: string,
  graphBaseUrl: string,
  secrets: ChatNetworkSecrets,
  userPool: TemplateStackOptions['userPool'],
): Promise<Served> {
  const { startTemplateStack } = await import('./template-stack');
  const { sendLocalMessage, EVENT_QUEUE, STEP_QUEUE } = await import('./table-step-queue');
  const stack = await startTemplateStack({
    dataDir: options.dataDir,
    dynamodbEndpoint,
    tableName,
    region: process.env.AWS_REGION ?? 'local',
    graphBaseUrl,
    webhookSecret: secrets,
    sendToQueue: (body, delaySeconds, queue) => sendLocalMessage(body, delaySeconds, queue === 'events' ? EVENT_QUEUE : STEP_QUEUE),
    log: (line) => console.log(line),
    userPool,
  });
  console.log(`Serving ${stack.description.routes.length} routes from ${stack.templateFile}`);
  return {
    routes: stack.routes,
    authorizer: stack.authorizer,
    runner: stack.runner,
    redrive: stack.redrive,
    sweep: stack.sweep,
    gatewayOptions: { authorizerSettings: stack.description.authorizer, responses: stack.description.responses, planThrottle: stack.description.planThrottle },
    events: stack.events,
    mediaLinksAt: (url) => stack.mediaLinksAt(url),
    close: () => stack.close(),
  };
}

/**
 * Registers every channel's business number with the sandbox (it keeps nothing
 * across restarts) and syncs the templates of channels that have none stored yet,
 * which covers the demo's first seed and channels created while the stack was down.
 * Finding the channels takes a Scan filtered to channel items: acceptable here, in
 * the local stack's startup only, never in an endpoint.
 */
async function connectChannelsToSandbox(sandbox: SandboxHandle): Promise<void> {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db, tableName } = await import('../../shared/data/client');
  const { listTemplates } = await import('../../shared/data/templates');
  const { syncTemplates } = await import('../../shared/domain/templates');
  type Channel = import('../../shared/data/channels').ChannelRecord;
  const channels: Channel[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'entity = :channel',
        ExpressionAttributeValues: { ':channel': 'channel' },
        ExclusiveStartKey: startKey,
      }),
    );
    channels.push(...((page.Items ?? []) as Channel[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  for (const channel of channels) {
    if (!channel.wabaId || !channel.accessToken) continue;
    sandbox.registerPhoneNumber({
      phoneNumberId: channel.phoneNumberId,
      wabaId: channel.wabaId,
      accessToken: channel.accessToken,
      displayPhoneNumber: channel.displayPhoneNumber ?? channel.phoneNumberId,
    });
    if ((await listTemplates({ workspaceId: channel.workspaceId, channelId: channel.id })).length === 0) await syncTemplates(channel);
  }
}

/**
 * With LOCAL_DELIVERER_TRACE set (the noisy-neighbour bench sets it), one line per deliverer
 * batch on stdout: whose it was, how long its messages were due before it was taken, and
 * how long it ran.
 */
function delivererTrace(): ((batch: DelivererBatchRecord) => void) | undefined {
  if (!process.env.LOCAL_DELIVERER_TRACE) return undefined;
  return (batch) => console.log(`${DELIVERER_TRACE_PREFIX}${JSON.stringify(batch)}`);
}
