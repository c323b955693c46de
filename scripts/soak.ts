/**
 * `npm run soak`: a bounded soak run against the local stack (`npm start`'s program,
 * scripts/start.ts, on 127.0.0.1 with a temporary DATA_DIR; loopback only). The stack's
 * store (dynalite) runs in this process and the stack points at it (DYNAMODB_ENDPOINT),
 * so the stack process holds what Lambda would: the gateway, the function bundles, the
 * sandbox chat network and the automation runner.
 *
 * Several API users send mixed traffic, each at a little above its per-minute limit
 * in every rate-limit class, for SOAK_SECONDS (default 150). It then checks:
 * - zero 5xx responses;
 * - the limiter is exact: per user, class and one-minute window, never more than the
 *   limit accepted, exactly the limit in every window where something was refused,
 *   and no remaining-count handed out twice;
 * - memory is flat: the stack's retained JS heap (measured right after a forced full GC
 *   by a probe loaded into the stack) in the last quarter of the run is within
 *   max(10 MB, 10 %) of the first quarter after warm-up (RSS is reported as well);
 * - nothing is lost: every acknowledged contact is listed, and the table's invariants hold.
 * Figures go to stdout and test/artifacts/soak.json (docs/RELIABILITY.md quotes them).
 *
 * Env: SOAK_SECONDS (default 150), SOAK_USERS (default 4), SOAK_OVERLOAD (offered rate ÷
 * limit, default 1.25), SOAK_EXCLUDE (comma-separated route paths to leave out),
 * PREBUILT_BUNDLES=1 to reuse dist/ instead of building, SOAK_KEEP_DATA=1 to keep DATA_DIR.
 * Message sends (routes that read channel secrets) are left out: they would load the
 * sandbox chat network, not the service.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_RATE_LIMITS } from '../shared/config';
import { API_BASE_PATH, API_ROUTES, type ApiRoute, type RateLimitClass } from '../shared/routes';
import { checkInvariants } from '../test/support/invariants';
import { ensureTable, startStore } from './local/store';

const ROOT = resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 150);
const USERS = Number(process.env.SOAK_USERS ?? 4);
const OVERLOAD = Number(process.env.SOAK_OVERLOAD ?? 1.25);
const WARM_UP_MS = 20_000;
const SAMPLE_MS = 5_000;

interface Stack {
  child: ChildProcess;
  url: string;
  dataDir: string;
  demo: { workspaces: Array<{ id: string; keys: Array<{ role: string; apiKey: string }>; channels: Array<{ id: string }> }> };
}

async function startStack(dataDir: string, dynamodbEndpoint: string): Promise<Stack> {
  // The store runs here, not in the stack: DynamoDB is not part of what Lambda runs, and dynalite's
  // own memory (it keeps LevelDB iterators of finished queries) must not read as the service's.
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    DATA_DIR: dataDir,
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    TABLE_NAME: 'workspace-api',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  // A heap cap, as a Lambda's memory size sets one (optional).
  const heap = process.env.SOAK_HEAP_MB ? [`--max-old-space-size=${Number(process.env.SOAK_HEAP_MB)}`] : [];
  // The probe: every few seconds a full GC, then the stack's own memory figures, so retained
  // memory is measured rather than garbage V8 has not collected yet. It also keeps source-map
  // support off, as Lambda runs the bundles: tsx turns it on for the whole process, and Node then
  // decodes a bundle's whole source map (~200,000 mappings, tens of MB) the first time an error
  // stack is formatted in it, a one-off per bundle that would read as growth here.
  const probe = join(dataDir, 'memory-probe.mjs');
  writeFileSync(
    probe,
    `import { appendFileSync } from 'node:fs';
process.setSourceMapsEnabled = () => {};
setInterval(() => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  appendFileSync(${JSON.stringify(join(dataDir, 'memory.jsonl'))}, JSON.stringify({ at: Date.now(), rss: m.rss, heapUsed: m.heapUsed, external: m.external }) + '\\n');
}, ${SAMPLE_MS}).unref();
`,
  );
  const child = spawn(process.execPath, [...heap, '--expose-gc', '--import', pathToFileURL(probe).href, '--import', 'tsx', join(ROOT, 'scripts/start.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stack did not start:\n${output.join('')}`)), 120_000);
    let started = false;
    // One line per request follows; only the start-up output is kept.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (started) return;
      output.push(chunk.toString());
      const match = output.join('').match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (!started) output.push(chunk.toString());
      else if (!/NodeVersionSupportWarning|node >=22|a\.co\/|upgrade to node|trace-warnings|^\s*$/.test(chunk.toString()))
        process.stderr.write(`[stack] ${chunk}`);
    });
    child.once('exit', (code) => reject(new Error(`the stack exited with ${code}:\n${output.join('')}`)));
  });
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as Stack['demo'];
  return { child, url, dataDir, demo };
}

/** Runs the operator CLI against the stack's DATA_DIR; returns its JSON answer. */
function admin(dataDir: string, ...args: string[]): Promise<Record<string, string>> {
  return new Promise((resolveJson, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir };
    delete env.DYNAMODB_ENDPOINT;
    delete env.TABLE_NAME;
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/admin.ts'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolveJson(JSON.parse(stdout) as Record<string, string>) : reject(new Error(`admin ${args.join(' ')}: ${stderr}`)),
    );
  });
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

/** A plausible request for each route (unknown routes get just the channel). */
function paramsFor(route: ApiRoute, channelId: string, context: { automationName?: string }): Record<string, unknown> {
  const phone = `+1415${String(2_000_000 + Math.floor(Math.random() * 3_000)).padStart(7, '0')}`;
  switch (route.path) {
    case 'channels/list':
      return {};
    case 'contacts/list':
      return {
        channelId,
        page: 1 + Math.floor(Math.random() * 3),
        limit: pick([20, 50, 200]),
        ...(Math.random() < 0.3 ? { search: pick(['soak', '1415', 'ann']) } : {}),
      };
    case 'contacts/manage':
      return {
        channelId,
        phoneNumber: phone,
        name: `Soak ${phone.slice(-4)}`,
        labelNames: pick([['new'], ['VIP'], [], ['new', 'VIP']]),
        customFieldsData: { city: pick(['Oslo', 'Lima', 'Pune']) },
      };
    case 'labels/manage':
      return {
        channelId,
        name: `soak-label-${Math.floor(Math.random() * 20)}`,
        color: pick(['#112233', '#AABBCC']),
        displayOrder: Math.floor(Math.random() * 10),
      };
    case 'custom-fields/manage':
      return { channelId, name: `soakfield${Math.floor(Math.random() * 10)}`, isRequired: false };
    case 'chat/message/status':
      return { chatmid: `wamid.soak${randomBytes(6).toString('hex')}` };
    case 'automations/trigger':
      return { channelId, phoneNumber: phone, automationName: context.automationName };
    default:
      return { channelId };
  }
}

interface Observation {
  user: number;
  rateClass: RateLimitClass;
  path: string;
  status: number;
  remaining?: number;
  windowEnd?: number;
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-soak-'));
  console.log(`soak: starting the stack (DATA_DIR ${dataDir}) …`);
  const store = await startStore(undefined);
  await ensureTable(store.endpoint, 'workspace-api');
  const stack = await startStack(dataDir, store.endpoint);
  const acme = stack.demo.workspaces[0];
  const channelId = acme.channels[0].id;
  const adminKey = acme.keys.find((key) => key.role === 'admin')!.apiKey;
  const call = async (path: string, params: Record<string, unknown>) => {
    const response = await fetch(`${stack.url}${API_BASE_PATH}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': adminKey },
      body: JSON.stringify(params),
    });
    return (await response.json()) as { data?: unknown; pagination?: { total: number } };
  };
  try {
    // API users of their own (team keys on the demo channel), so each starts with empty windows.
    const keys: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const key = await admin(dataDir, 'key', 'create', '--workspace', acme.id, '--role', 'team', '--name', `soak ${i}`);
      await admin(dataDir, 'channel', 'assign', '--channel', channelId, '--user', key.userId);
      keys.push(key.apiKey);
    }
    const automations = API_ROUTES.some((route) => route.path === 'automations/list')
      ? ((await call('automations/list', { channelId })).data as Array<{ name: string; status: string }> | undefined)
      : undefined;
    const automationName = automations?.find((automation) => automation.status === 'active')?.name;
    const excluded = new Set((process.env.SOAK_EXCLUDE ?? '').split(',').filter(Boolean));
    const routes = API_ROUTES.filter((route) => !route.readsSecrets && !excluded.has(route.path) && (route.path !== 'automations/trigger' || automationName));
    const contactsBefore = (await call('contacts/list', { channelId, limit: 1 })).pagination?.total ?? 0;
    const started = Date.now();
    const load = await offerLoad({ url: stack.url, keys, routes, channelId, automationName });
    const contactsAfter = (await call('contacts/list', { channelId, limit: 1 })).pagination?.total ?? 0;
    const invariants = await checkInvariants({ endpoint: store.endpoint, tableName: 'workspace-api', workspaceId: acme.id });
    report({
      load,
      routes,
      limiter: limiterWindows(load.observations),
      memory: retainedMemory(dataDir, started),
      contacts: { before: contactsBefore, after: contactsAfter, acknowledgedNew: load.acknowledgedPhones.size },
      invariants,
    });
  } finally {
    await new Promise<void>((resolveStop) => {
      if (stack.child.exitCode !== null) return resolveStop();
      stack.child.once('exit', () => resolveStop());
      stack.child.kill('SIGTERM');
    });
    await store.close();
    if (existsSync(dataDir) && !process.env.SOAK_KEEP_DATA) await rm(dataDir, { recursive: true, force: true });
  }
}

const limitOf = (rateClass: RateLimitClass) => Number(process.env[`RATE_LIMIT_${rateClass.toUpperCase()}`]) || DEFAULT_RATE_LIMITS[rateClass];

/** Every API user × rate class at OVERLOAD × its limit for SECONDS, each answer observed. */
async function offerLoad(target: { url: string; keys: string[]; routes: ApiRoute[]; channelId: string; automationName?: string }) {
  const observations: Observation[] = [];
  const acknowledgedPhones = new Set<string>();
  const classes = [...new Set(target.routes.map((route) => route.rateLimitClass))];
  console.log(
    `soak: ${USERS} API users × ${classes.join(', ')} at ${OVERLOAD}× their limits for ${SECONDS} s over ${target.routes.map((r) => r.path).join(', ')}`,
  );
  const runs = target.keys.flatMap((apiKey, user) =>
    classes.map((rateClass) => {
      const classRoutes = target.routes.filter((route) => route.rateLimitClass === rateClass);
      const perSecond = Math.max(1, Math.ceil((limitOf(rateClass) * OVERLOAD) / 60));
      return autocannon({
        url: target.url,
        connections: Math.min(4, perSecond),
        overallRate: perSecond,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            // The context is per connection, and each connection has one request in flight.
            setupRequest: (request, state) => {
              const context = state as Record<string, string>;
              const route = pick(classRoutes);
              const params = paramsFor(route, target.channelId, { automationName: target.automationName });
              context.path = route.path;
              context.phone = String(params.phoneNumber ?? '');
              return {
                ...request,
                method: 'POST',
                path: `${API_BASE_PATH}/${route.path}`,
                headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
                body: JSON.stringify(params),
              };
            },
            onResponse: (status, _body, state, headers) => {
              const context = state as Record<string, string>;
              observations.push(observation(user, rateClass, context.path, status, headers));
              if (status === 200 && context.path === 'contacts/manage') acknowledgedPhones.add(context.phone.replace(/\D/g, ''));
            },
          },
        ],
      });
    }),
  );
  return { observations, acknowledgedPhones, results: await Promise.all(runs) };
}

/** One answer with the limiter's figures from its RateLimit headers. */
function observation(user: number, rateClass: RateLimitClass, path: string, status: number, headers: Record<string, unknown> | undefined): Observation {
  const header = (name: string) => Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  const reset = Number(header('ratelimit-reset'));
  const remaining = header('ratelimit-remaining');
  return {
    user,
    rateClass,
    path,
    status,
    remaining: remaining === undefined ? undefined : Number(remaining),
    windowEnd: Number.isFinite(reset) ? Math.floor((Date.now() + reset * 1000) / 60_000) * 60_000 : undefined,
  };
}

/** Per user, class and one-minute window: what was accepted and refused, and what the limiter did wrong. */
function limiterWindows(observations: Observation[]) {
  const windows = new Map<string, { limit: number; accepted: number; refused: number; remaining: number[] }>();
  for (const o of observations) {
    // Only answers the limiter counted carry its headers (a 4xx of validation too; not the gateway's 401).
    if (o.windowEnd === undefined || o.remaining === undefined) continue;
    const key = `${o.user}/${o.rateClass}/${o.windowEnd}`;
    const window = windows.get(key) ?? { limit: limitOf(o.rateClass), accepted: 0, refused: 0, remaining: [] };
    if (o.status === 429) window.refused++;
    else {
      window.accepted++;
      if (o.remaining !== undefined) window.remaining.push(o.remaining);
    }
    windows.set(key, window);
  }
  const problems: string[] = [];
  for (const [key, window] of windows) {
    if (window.accepted > window.limit) problems.push(`${key}: ${window.accepted} accepted, limit ${window.limit}`);
    if (window.refused > 0 && window.accepted !== window.limit)
      problems.push(`${key}: refused ${window.refused} with only ${window.accepted} of ${window.limit} accepted`);
    if (new Set(window.remaining).size !== window.remaining.length) problems.push(`${key}: a remaining count was handed out twice`);
  }
  return { windows: windows.size, saturatedWindows: [...windows.values()].filter((w) => w.refused > 0).length, problems };
}

/** Retained memory: the JS heap right after a full GC, sampled by the probe; RSS for information. */
function retainedMemory(dataDir: string, started: number) {
  const memory = readFileSync(join(dataDir, 'memory.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { at: number; rss: number; heapUsed: number })
    .filter((sample) => sample.at >= started)
    .map((sample) => ({ atMs: sample.at - started, heapMb: sample.heapUsed / 2 ** 20, rssMb: sample.rss / 2 ** 20 }));
  const afterWarmUp = memory.filter((sample) => sample.atMs >= WARM_UP_MS);
  const quarter = Math.max(1, Math.floor(afterWarmUp.length / 4));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const early = median(afterWarmUp.slice(0, quarter).map((s) => s.heapMb));
  const late = median(afterWarmUp.slice(-quarter).map((s) => s.heapMb));
  return {
    retainedHeapMbEarly: Math.round(early),
    retainedHeapMbLate: Math.round(late),
    rssMbEarly: Math.round(median(afterWarmUp.slice(0, quarter).map((s) => s.rssMb))),
    rssMbLate: Math.round(median(afterWarmUp.slice(-quarter).map((s) => s.rssMb))),
    heapCapMb: process.env.SOAK_HEAP_MB ? Number(process.env.SOAK_HEAP_MB) : null,
    flat: afterWarmUp.length >= 4 && late <= early + Math.max(10, early * 0.1),
    samples: memory.length,
    retainedHeapMbEvery5s: memory.map((s) => Math.round(s.heapMb)),
    rssMbEvery5s: memory.map((s) => Math.round(s.rssMb)),
  };
}

/** Prints the figures, writes test/artifacts/soak.json, and fails the run unless every check holds. */
function report(run: {
  load: Awaited<ReturnType<typeof offerLoad>>;
  routes: ApiRoute[];
  limiter: ReturnType<typeof limiterWindows>;
  memory: ReturnType<typeof retainedMemory>;
  contacts: { before: number; after: number; acknowledgedNew: number };
  invariants: Awaited<ReturnType<typeof checkInvariants>>;
}): void {
  const { observations, results } = run.load;
  const byStatus: Record<string, number> = {};
  for (const o of observations) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
  const fiveHundreds = observations.filter((o) => o.status >= 500).length + results.reduce((sum, r) => sum + r.errors + r.timeouts, 0);
  const latency = results.map((r) => r.latency);
  const summary = {
    ranAt: new Date().toISOString(),
    seconds: SECONDS,
    apiUsers: USERS,
    overload: OVERLOAD,
    routes: run.routes.map((route) => route.path),
    requests: observations.length,
    requestsPerSecond: Math.round((observations.length / SECONDS) * 10) / 10,
    byStatus,
    responses5xx: fiveHundreds,
    latencyMs: { p50: Math.max(...latency.map((l) => l.p50)), p99: Math.max(...latency.map((l) => l.p99)), max: Math.max(...latency.map((l) => l.max)) },
    limiter: run.limiter,
    memory: run.memory,
    contacts: run.contacts,
    invariants: { checks: run.invariants.checks, contacts: run.invariants.contacts, violations: run.invariants.violations },
  };
  const lostContacts = run.contacts.after < run.contacts.acknowledgedNew;
  const passed = fiveHundreds === 0 && run.limiter.problems.length === 0 && run.memory.flat && run.invariants.violations.length === 0 && !lostContacts;
  mkdirSync(join(ROOT, 'test', 'artifacts'), { recursive: true });
  writeFileSync(join(ROOT, 'test', 'artifacts', 'soak.json'), `${JSON.stringify({ ...summary, passed }, null, 2)}\n`);
  console.log(JSON.stringify({ ...summary, passed }, null, 2));
  if (!passed) {
    console.error('soak: FAILED (see the figures above)');
    process.exitCode = 1;
  } else console.log('soak: passed — zero 5xx, the limiter exact, memory flat, nothing lost');
}

await main();
