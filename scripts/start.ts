import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DOCS_PATH } from '../shared/routes';
import { checkPortFree, keepFilesPrivate, portInUse, prepareDataDir, StartupError } from './local/data-dir';
import { runningStack } from './local/store';
import { startLocalStack, type LocalStack } from './local/stack';

/**
 * `npm start`: the whole service on 127.0.0.1:PORT with its data under DATA_DIR.
 * The handlers' JSON log lines go to DATA_DIR/logs/service.log; the terminal shows
 * one readable line per request. What would stop it (another stack on DATA_DIR, the
 * port taken, a DATA_DIR it cannot write) is found before anything is built, and said
 * in one line.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
keepFilesPrivate();

const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
let jsonLog: ReturnType<typeof createWriteStream> | undefined;

/** Checks, then starts; a DATA_DIR made by a start that failed is removed again. */
async function start(): Promise<LocalStack> {
  const running = await runningStack(dataDir);
  if (running) throw new StartupError(`Another npm start (${running.url}) already uses DATA_DIR ${dataDir}; stop it first or set DATA_DIR.`);
  await checkPortFree(port);
  const { created } = await prepareDataDir(dataDir);
  try {
    await mkdir(join(dataDir, 'logs'), { recursive: true });
    jsonLog = createWriteStream(join(dataDir, 'logs', 'service.log'), { flags: 'a' });
    routeJsonLogLines(jsonLog);
    return await startLocalStack({ port, dataDir, onRequest: (line) => console.log(line) });
  } catch (error) {
    if (created) await rm(dataDir, { recursive: true, force: true });
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw portInUse(port);
    throw error;
  }
}

/** The handlers' JSON log lines go to `log`; the rest stays on the terminal. */
function routeJsonLogLines(log: NodeJS.WritableStream): void {
  const writeStdout = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.startsWith('{')) return log.write(text);
    return writeStdout(chunk, ...(rest as []));
  }) as typeof process.stdout.write;
}

const stack = await start().catch((error: Error) => {
  if (!(error instanceof StartupError)) throw error;
  console.error(error.message);
  process.exit(1);
});
// One write, so whoever waits for the first line has the others in the same read.
console.log(
  [`Workspace API listening on ${stack.url} (API at ${stack.baseUrl})`, `API docs: ${stack.url}${DOCS_PATH}`, `Demo keys and URLs: ${stack.demoFile}`].join(
    '\n',
  ),
);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await stack.close();
  jsonLog?.end();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
