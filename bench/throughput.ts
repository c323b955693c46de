import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../infra/bundles';
import { API_BASE_PATH } from '../shared/routes';

/**
 * 5. Throughput of the local stack (`npm start`'s program, scripts/start.ts, on
 * 127.0.0.1 with its own DATA_DIR) under autocannon: 20 connections, reads and writes
 * mixed, the per-user rate limits raised so the limiter counts but never refuses.
 */

export interface ThroughputResult {
  connections: number;
  durationSeconds: number;
  mix: Array<{ method: string; path: string; kind: 'read' | 'write' }>;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export async function startStack(dataDir: string, built: boolean): Promise<{ child: ChildProcess; url: string }> {
  // npm start's program builds the bundles (as CDK does) unless the benchmark's cold-start
  // section has just built them with the same options.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(built ? { PREBUILT_BUNDLES: '1' } : {}),
    PORT: '0',
    DATA_DIR: dataDir,
    RATE_LIMIT_API_READ: '100000000',
    RATE_LIMIT_API_WRITE: '100000000',
    RATE_LIMIT_API_AUTOMATION_TRIGGER: '100000000',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    POWERTOOLS_METRICS_DISABLED: 'false',
  };
  delete env.DYNAMODB_ENDPOINT;
  delete env.TABLE_NAME;
  if (!built) delete env.PREBUILT_BUNDLES;
  // BENCH_STACK_CPU_PROF=<dir>: the stack writes V8 CPU profiles there (one per thread) when it stops.
  const profile = process.env.BENCH_STACK_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_STACK_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(ROOT, 'scripts', 'start.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`local stack did not start:\n${output.join('')}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      // Keep reading (one line per request), keep only the start-up lines.
      if (output.length < 50) output.push(chunk.toString());
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => output.length < 200 && output.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local stack exited with ${code}:\n${output.join('')}`));
    });
  });
  return { child, url };
}

export async function throughput(options: {
  durationSeconds: number;
  connections: number;
  bundlesBuilt: boolean;
  log: (line: string) => void;
}): Promise<ThroughputResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-bench-'));
  const { child, url } = await startStack(dataDir, options.bundlesBuilt);
  try {
    const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8'));
    const workspace = demo.workspaces[0];
    const apiKey = workspace.keys.find((key: { role: string }) => key.role === 'admin').apiKey as string;
    const channelId = workspace.channels[0].id as string;
    const base = `${url}${API_BASE_PATH}`;
    const headers = { 'X-API-Key': apiKey, 'Content-Type': 'application/json' };
    const post = async (path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${base}/${path}`, { method: 'POST', headers, body: JSON.stringify({ channelId, ...body }) });
      if (response.status !== 200) throw new Error(`seeding ${path}: ${response.status} ${await response.text()}`);
    };
    await post('labels/manage', { name: 'VIP', color: '#AA0000' });
    await post('labels/manage', { name: 'new' });
    await post('custom-fields/manage', { name: 'city' });
    for (let i = 0; i < 120; i++)
      await post('contacts/manage', {
        phoneNumber: `+1415555${String(2000 + i)}`,
        name: `Load ${i}`,
        labelNames: ['VIP'],
        customFieldsData: { city: 'Paris' },
      });

    const q = `channelId=${encodeURIComponent(channelId)}`;
    let sequence = 0;
    const mix: ThroughputResult['mix'] = [
      { method: 'GET', path: `contacts/list?${q}&limit=20`, kind: 'read' },
      { method: 'GET', path: `labels/list?${q}`, kind: 'read' },
      { method: 'POST', path: 'contacts/manage', kind: 'write' },
      { method: 'GET', path: 'channels/list', kind: 'read' },
      { method: 'GET', path: `contacts/list?${q}&page=3&limit=20`, kind: 'read' },
      { method: 'GET', path: `contacts/list?${q}&search=load%201`, kind: 'read' },
      { method: 'POST', path: 'labels/manage', kind: 'write' },
      { method: 'GET', path: `custom-fields/list?${q}`, kind: 'read' },
    ];
    const requests = mix.map((entry) => ({
      method: entry.method as 'GET' | 'POST',
      path: `${API_BASE_PATH}/${entry.path}`,
      headers,
      ...(entry.path === 'contacts/manage'
        ? {
            // Updates of the seeded contacts and, one in four, a new contact.
            setupRequest: (request: Record<string, unknown>) => {
              const n = ++sequence;
              const phone = n % 4 === 0 ? `+1415666${String(n % 10_000).padStart(4, '0')}` : `+1415555${String(2000 + (n % 120))}`;
              return {
                ...request,
                body: JSON.stringify({ channelId, phoneNumber: phone, name: `Load ${n % 120}`, customFieldsData: { city: n % 2 ? 'Paris' : 'Lyon' } }),
              };
            },
          }
        : entry.path === 'labels/manage'
          ? { body: JSON.stringify({ channelId, name: 'new', color: '#00AA00' }) }
          : {}),
    }));
    options.log(`throughput: autocannon, ${options.connections} connections, ${options.durationSeconds} s against ${url}`);
    const result = await autocannon({ url, connections: options.connections, duration: options.durationSeconds, requests: requests as never });
    return {
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      mix,
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p90Ms: result.latency.p90,
      p99Ms: result.latency.p99,
      maxMs: result.latency.max,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes: Object.fromEntries(
        Object.entries(result)
          .filter(([key]) => /^\dxx$/.test(key))
          .map(([key, value]) => [key, Number(value)]),
      ),
    };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    await rm(dataDir, { recursive: true, force: true });
  }
}
