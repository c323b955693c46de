import { createWriteStream } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runningStack } from './local/store';
import { startLocalStack } from './local/stack';

/**
 * `npm start`: the whole service on 127.0.0.1:PORT with its data under DATA_DIR.
 * The handlers' JSON log lines go to DATA_DIR/logs/service.log; the terminal shows
 * one readable line per request.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? '.data');

if (await runningStack(dataDir)) {
  console.error(`Another npm start already uses ${dataDir}; stop it first or set DATA_DIR.`);
  process.exit(1);
}

mkdirSync(join(dataDir, 'logs'), { recursive: true });
const jsonLog = createWriteStream(join(dataDir, 'logs', 'service.log'), { flags: 'a' });
const writeStdout = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  if (text.startsWith('{')) return jsonLog.write(text);
  return writeStdout(chunk, ...(rest as []));
}) as typeof process.stdout.write;

const stack = await startLocalStack({ port, dataDir, onRequest: (line) => console.log(line) });
console.log(`Workspace API listening on ${stack.url} (API at ${stack.baseUrl})`);
console.log(`Demo keys and URLs: ${stack.demoFile}`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await stack.close();
  jsonLog.end();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
