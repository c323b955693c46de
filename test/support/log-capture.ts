import type { ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';

/**
 * Captures every log line the test suite produces, for the log audit that runs
 * when the whole run ends (test/support/log-audit.ts, from the global setup's
 * teardown): each worker's stdout, stderr and console (the handlers' Powertools
 * logger writes JSON lines to stdout), every local stack's output, and the
 * DATA_DIR of every local stack (whose logs/service.log holds its handlers' lines).
 */

const PATCHED = Symbol.for('workspace-api.log-capture');

/** Tees this worker's stdout, stderr and console into `dir/worker-<pid>.log`; JSON log lines go only there. */
export function captureWorkerLogs(dir: string): void {
  const state = globalThis as Record<symbol, unknown>;
  if (state[PATCHED]) return;
  state[PATCHED] = true;
  mkdirSync(dir, { recursive: true });
  const fd = openSync(join(dir, `worker-${process.pid}.log`), 'a');
  process.once('exit', () => closeSync(fd));
  const record = (text: string) => {
    try {
      writeSync(fd, text.endsWith('\n') ? text : `${text}\n`);
    } catch {
      // a closed descriptor at exit: nothing more to record
    }
  };
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      record(text);
      // Request logs (JSON lines) would drown the test report; they are kept in the file.
      if (text.startsWith('{')) {
        const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      }
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      record(format(...args));
      original(...args);
    };
  }
}

/** Records a local stack's DATA_DIR and tees its output, when the suite captures logs. */
export function captureStackLogs(dataDir: string, child: ChildProcess): void {
  const dir = process.env.TEST_LOG_CAPTURE_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, 'stacks.txt'), `${dataDir}\n`);
  const file = join(dir, `stack-${child.pid}.log`);
  const tee = (chunk: Buffer) => appendFileSync(file, chunk);
  child.stdout?.on('data', tee);
  child.stderr?.on('data', tee);
}

/** Records what the operator CLI wrote on stderr (its stdout is the command's answer: a new key's secret by design). */
export function captureCliStderr(stderr: string): void {
  const dir = process.env.TEST_LOG_CAPTURE_DIR;
  if (!dir || !stderr) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `cli-${process.pid}.log`), stderr.endsWith('\n') ? stderr : `${stderr}\n`);
}

/** What this worker writes to stdout while `run` runs (the handlers' JSON log and EMF lines), line by line; still written through. */
export async function stdoutLinesDuring(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return (write as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
  }) as typeof process.stdout.write;
  try {
    await run();
  } finally {
    process.stdout.write = write;
  }
  return lines.join('').split('\n').filter(Boolean);
}
