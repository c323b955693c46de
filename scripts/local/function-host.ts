/**
 * Runs the functions of the template-driven mode. (In route-table mode every bundle is
 * imported into the stack's process and shares its environment, as `npm start` always
 * did.) Here each function runs in its own worker thread, started on its first invocation as a Lambda cold start is,
 * whose process.env is exactly that environment: a variable the template forgets is
 * missing there, as it would be in Lambda.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FunctionDescription } from './description';

export type Invoke = (event: unknown, requestId?: string) => Promise<ReturnType<typeof JSON.parse>>;

/** The worker: loads the bundle, then invokes its handler for each message, with a Lambda-like context. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = import(workerData.bundle).then((module) => module.handler);
parentPort.on('message', async ({ id, event, requestId }) => {
  const deadline = Date.now() + workerData.timeoutSeconds * 1000;
  const context = {
    callbackWaitsForEmptyEventLoop: false,
    functionName: workerData.name,
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:' + (process.env.AWS_REGION || 'local') + ':000000000000:function:' + workerData.name,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/' + workerData.name,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined, fail: () => undefined, succeed: () => undefined,
  };
  try {
    const handler = await loaded;
    parentPort.postMessage({ id, result: await handler(event, context) });
  } catch (error) {
    parentPort.postMessage({ id, error: { name: error && error.name, message: String(error && error.message), stack: error && error.stack } });
  }
});
`;

export interface FunctionHost {
  invoke(name: string): Invoke;
  close(): Promise<void>;
}

export function createFunctionHost(functions: Record<string, FunctionDescription>): FunctionHost {
  const workers = new Map<string, { worker: Worker; pending: Map<string, { resolve(value: unknown): void; reject(error: Error): void }> }>();

  function worker(name: string, description: FunctionDescription) {
    let entry = workers.get(name);
    if (entry) return entry;
    const pending = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
    const created = new Worker(WORKER_SOURCE, {
      eval: true,
      env: description.environment,
      workerData: { bundle: pathToFileURL(description.bundle).href, name, timeoutSeconds: description.timeoutSeconds },
    });
    created.on('message', ({ id, result, error }: { id: string; result?: unknown; error?: { name: string; message: string; stack: string } }) => {
      const waiting = pending.get(id);
      pending.delete(id);
      if (!waiting) return;
      if (error) waiting.reject(Object.assign(new Error(error.message), { name: error.name, stack: error.stack }));
      else waiting.resolve(result);
    });
    // A crashed or exited worker fails what it was running; the next invocation starts a new one (a new cold start).
    const fail = (error: Error) => {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
      if (workers.get(name)?.worker === created) workers.delete(name);
    };
    created.on('error', fail);
    created.on('exit', (code) => fail(new Error(`function ${name} exited (code ${code})`)));
    created.unref();
    entry = { worker: created, pending };
    workers.set(name, entry);
    return entry;
  }

  return {
    invoke(name) {
      const description = functions[name];
      if (!description) throw new Error(`no function ${name} in the stack description`);
      if (!description.environment) throw new Error(`function ${name} has no environment of its own: route-table mode imports bundles in-process`);
      return (event, requestId = randomUUID()) =>
        new Promise((resolve, reject) => {
          const { worker: running, pending } = worker(name, description);
          const id = randomUUID();
          pending.set(id, { resolve, reject });
          running.postMessage({ id, event, requestId });
        });
    },
    async close() {
      await Promise.all([...workers.values()].map(({ worker: running }) => running.terminate()));
      workers.clear();
    },
  };
}
