import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { createRequire } from 'node:module';
import { mkdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { LOCAL_TABLE_NAME, OUTBOX_INDEX, TABLE_KEY } from '../../shared/data/table-schema';
import { loopbackRequest } from './loopback-http';

const require = createRequire(import.meta.url);

export interface LocalStore {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * Starts dynalite on 127.0.0.1 (a free port), persisted under `dataDir/dynamodb`, or
 * in memory when `dataDir` is undefined (tests). Only one process may open a folder.
 */
export async function startStore(dataDir: string | undefined, port = 0): Promise<LocalStore> {
  const path = dataDir ? join(dataDir, 'dynamodb') : undefined;
  if (path) await mkdir(path, { recursive: true });
  // Required here, not at the top: a process that talks to a running stack's store (the CLI, npm start's main thread) never loads it.
  const dynalite = require('dynalite') as (options: Record<string, unknown>) => import('node:http').Server;
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The thread of {@link startStoreThread}: dynalite on 127.0.0.1, its port posted back; 'close' closes it (and its database). */
const STORE_THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const server = require(workerData.dynalite)(workerData.options);
server.once('error', (error) => parentPort.postMessage({ error: String((error && error.stack) || error) }));
server.listen(workerData.port, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => server.close(() => parentPort.postMessage({ closed: true })));
`;

/**
 * {@link startStore} in a worker thread of its own: `npm start`'s dynalite, persisted
 * under `dataDir/dynamodb`. Every table call of the stack's functions goes to it, so on
 * the stack's main thread it would queue behind the gateway's and the functions' work and
 * they behind it; in a thread of its own it has an event loop (and a core, where the
 * machine has one free) to itself, as DynamoDB is a service of its own in AWS. Still one
 * process: the folder is opened once, and a SIGKILL ends both.
 */
export async function startStoreThread(dataDir: string, port = 0): Promise<LocalStore> {
  const path = join(dataDir, 'dynamodb');
  await mkdir(path, { recursive: true });
  const worker = new Worker(STORE_THREAD_SOURCE, {
    eval: true,
    workerData: { dynalite: require.resolve('dynalite'), port, options: { path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 } },
  });
  const next = () =>
    new Promise<{ port?: number; error?: string; closed?: boolean }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const started = await next();
  if (started.error !== undefined || started.port === undefined) {
    await worker.terminate();
    throw new Error(`the local store did not start: ${started.error}`);
  }
  return {
    endpoint: `http://127.0.0.1:${started.port}`,
    async close() {
      const closed = next();
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}

/** The table in DynamoDB CreateTable form, from the schema the CDK stack builds from (shared/data/table-schema.ts). */
export const CREATE_TABLE_INPUT = {
  AttributeDefinitions: [
    { AttributeName: TABLE_KEY.partitionKey, AttributeType: 'S' as const },
    { AttributeName: TABLE_KEY.sortKey, AttributeType: 'S' as const },
    { AttributeName: OUTBOX_INDEX.partitionKey, AttributeType: 'S' as const },
    { AttributeName: OUTBOX_INDEX.sortKey, AttributeType: 'N' as const },
  ],
  KeySchema: [
    { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' as const },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: OUTBOX_INDEX.indexName,
      KeySchema: [
        { AttributeName: OUTBOX_INDEX.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: OUTBOX_INDEX.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' as const },
    },
  ],
  BillingMode: 'PAY_PER_REQUEST' as const,
};

/**
 * Creates the single table (same shape as the CDK stack's) unless it exists, and returns
 * once it is ACTIVE: a table still CREATING answers every item call with
 * ResourceNotFoundException (DynamoDB's behaviour; dynalite flips the status in a later tick).
 * Returns whether this call created it (then it is empty).
 */
export async function ensureTable(endpoint: string, tableName = LOCAL_TABLE_NAME): Promise<boolean> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const status = async () => {
    try {
      return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.TableStatus;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException) && (error as Error).name !== 'ResourceNotFoundException') throw error;
      return undefined;
    }
  };
  let created = false;
  try {
    for (let current = await status(); current !== 'ACTIVE'; current = await status()) {
      if (current === undefined) {
        await client.send(new CreateTableCommand({ TableName: tableName, ...CREATE_TABLE_INPUT }));
        created = true;
      } else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return created;
  } finally {
    client.destroy();
  }
}

/** What a running `npm start` publishes in DATA_DIR so the operator CLI can reach it. */
export interface StackInfo {
  pid: number;
  /** The gateway, `http://127.0.0.1:PORT`: it answers STACK_IDENTITY_PATH with this run's `instance`. */
  url: string;
  /** A random id of this run: a pid alone may be another process's after a reboot. */
  instance: string;
  dataDir: string;
  /** The sandbox control API's token (scripts/local/sandbox-control.ts). */
  sandboxControlToken?: string;
  dynamodbEndpoint: string;
  baseUrl: string;
  graphBaseUrl?: string;
  sandboxUrl?: string;
  /** SQS SendMessage into the table queue the runner loop drains (AWS_ENDPOINT_URL_SQS of the functions `sam local` runs). */
  sqsEndpoint?: string;
  /** The automation queue's URL at `sqsEndpoint` (their AUTOMATION_QUEUE_URL). */
  stepQueueUrl?: string;
  /** The event queues' URLs at `sqsEndpoint` (their EVENT_QUEUE_URL, the FIFO queue of new events, and EVENT_LANE_QUEUE_URL). */
  eventQueueUrl?: string;
  eventLaneQueueUrl?: string;
  /** The portal's user-pool stand-in (scripts/local/user-pool.ts): the operator CLI's `user` commands go there. */
  userPool?: { endpoint: string; userPoolId: string; clientId: string };
}

export const stackInfoPath = (dataDir: string) => join(dataDir, 'stack.json');

/** Where the gateway says which run it is (`{instance, dataDir}`): local only, no API key, never in AWS. */
export const STACK_IDENTITY_PATH = '/_local/stack';

/** What a gateway answers at STACK_IDENTITY_PATH. */
export interface StackIdentity {
  instance: string;
  dataDir: string;
}

/** How long a stack may take to say who it is before it counts as not running. */
const IDENTITY_TIMEOUT_MS = 5_000;

/** The identity of the stack whose gateway is at `url`, or undefined when nothing (or something else) answers there. */
export async function stackAt(url: string): Promise<StackIdentity | undefined> {
  try {
    const response = await loopbackRequest(`${url}${STACK_IDENTITY_PATH}`, { timeoutMs: IDENTITY_TIMEOUT_MS });
    if (response.status < 200 || response.status > 299) return undefined;
    const body = JSON.parse(response.text) as Partial<StackIdentity>;
    return typeof body.instance === 'string' && typeof body.dataDir === 'string' ? { instance: body.instance, dataDir: body.dataDir } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The running stack of `dataDir`: the one its stack.json names, if that stack's gateway
 * answers as that run. A live pid alone proves nothing (after a reboot it may be another
 * process's), and a stack killed with SIGKILL leaves its stack.json behind.
 */
export async function runningStack(dataDir: string): Promise<StackInfo | undefined> {
  let info: StackInfo;
  try {
    info = JSON.parse(await readFile(stackInfoPath(dataDir), 'utf8')) as StackInfo;
    process.kill(info.pid, 0);
  } catch {
    return undefined;
  }
  if (typeof info.url !== 'string') return undefined;
  return (await stackAt(info.url))?.instance === info.instance ? info : undefined;
}
