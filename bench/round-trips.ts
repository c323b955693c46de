import { join } from 'node:path';
import { ROOT } from '../scripts/build';
import { API_ROUTES, SUPPORT_FUNCTIONS } from '../shared/routes';
import { readDocBudgets } from './budgets';
import { countDbCalls, summarize, type CallCounter, type DbCall } from './counter';
import type { ProxyHandler, RequestSpec } from './events';
import { SCENARIOS, type RoundTripScenario, type ScenarioContext } from './scenarios';

/**
 * 3. DynamoDB round trips and consumed capacity per request, per endpoint case, against
 * the local store (dynalite): the real handlers, called as API Gateway would (callApi:
 * the real authorizer, then the proxy event), counted with SDK middleware on the shared
 * document client. Needs DYNAMODB_ENDPOINT and TABLE_NAME set before it is imported.
 */

export interface ScenarioOutcome {
  scenario: RoundTripScenario;
  status: number;
  body?: unknown;
  calls: DbCall[];
}

const handlers = new Map<string, ProxyHandler>();
async function handlerFor(path: string): Promise<ProxyHandler> {
  const route = API_ROUTES.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`No route ${path} in shared/routes.ts`);
  if (!handlers.has(path)) handlers.set(path, ((await import(join(ROOT, route.entry))) as { handler: ProxyHandler }).handler);
  return handlers.get(path)!;
}

/** Scenarios whose endpoint exists in the route table (others wait for their endpoint). */
export const activeScenarios = () => SCENARIOS.filter((scenario) => scenario.path === 'authorizer' || API_ROUTES.some((route) => route.path === scenario.path));

/** Routes (and support functions) no scenario covers yet. */
export function uncoveredFunctions(): string[] {
  const covered = new Set(SCENARIOS.map((scenario) => scenario.path));
  return [
    ...API_ROUTES.filter((route) => !covered.has(route.path)).map((route) => route.path),
    ...Object.entries(SUPPORT_FUNCTIONS)
      .filter(([key]) => key !== 'authorizer')
      .map(([, fn]) => fn.name),
  ];
}

/** Runs one scenario in a fresh tenant and returns the handler's counted calls. */
export async function runScenario(scenario: RoundTripScenario, counter: CallCounter): Promise<ScenarioOutcome> {
  const { createTenant } = await import('../test/support/tenants');
  const { callApi } = await import('../test/support/api');
  const { resolvePrincipal, authorize } = await import('../shared/auth/authorize');
  const { db, tableName } = await import('../shared/data/client');
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');

  const tenant = await createTenant(1);
  const call = async (path: string, request: RequestSpec) => {
    const response = await callApi(await handlerFor(path), { apiKey: tenant.adminKey, method: request.method, params: request.params });
    if (response.status !== 200) throw new Error(`setup call ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response;
  };
  const context: ScenarioContext = {
    tenant,
    call,
    put: async (item) => void (await db.send(new PutCommand({ TableName: tableName(), Item: item }))),
    unique: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
  };
  await scenario.prepare?.(context);
  const request = scenario.request(context);

  if (scenario.path === 'authorizer') {
    counter.start();
    const result = await authorize({ type: 'REQUEST', methodArn: 'arn:aws:execute-api:local:1:api/test/GET/x', headers: { 'X-API-Key': tenant.adminKey }, queryStringParameters: null } as never);
    return { scenario, status: result.principalId ? 200 : 401, calls: counter.stop() };
  }

  const handler = await handlerFor(scenario.path);
  if (scenario.warm) await call(scenario.path, request);
  // The authorizer's lookup is warm (a fresh tenant's key, resolved just now): only the endpoint's calls count.
  await resolvePrincipal(tenant.adminKey);
  const counted: ProxyHandler = async (event, lambdaContext) => {
    counter.start();
    try {
      return await handler(event, lambdaContext);
    } finally {
      counter.stop();
    }
  };
  const response = await callApi(counted, { apiKey: tenant.adminKey, method: request.method, params: request.params });
  return { scenario, status: response.status, body: response.body, calls: [...counter.calls] };
}

export interface RoundTripRow {
  name: string;
  path: string;
  status: number;
  calls: number;
  budget: number;
  expected: number;
  knownIssue?: string;
  docRow: string;
  docBudget: string;
  /** What docs/ARCHITECTURE.md says now for that row (undefined: no such row). */
  docNow?: string;
  commands: string[];
  readUnits: number;
  writeUnits: number;
  itemsRead: number;
  bytesRead: number;
  scans: number;
  ok: boolean;
}

export async function roundTrips(log: (line: string) => void): Promise<{ rows: RoundTripRow[]; uncovered: string[] }> {
  const { db } = await import('../shared/data/client');
  const counter = countDbCalls(db, { consumedCapacity: true });
  const docs = readDocBudgets();
  const rows: RoundTripRow[] = [];
  try {
    for (const scenario of activeScenarios()) {
      const outcome = await runScenario(scenario, counter);
      const summary = summarize(outcome.calls);
      const docNow = docs.get(scenario.doc.row)?.budget;
      rows.push({
        name: scenario.name,
        path: scenario.path,
        status: outcome.status,
        calls: summary.calls,
        budget: scenario.budget,
        expected: scenario.expected ?? scenario.budget,
        knownIssue: scenario.knownIssue,
        docRow: scenario.doc.row,
        docBudget: scenario.doc.budget,
        docNow,
        commands: summary.commands,
        readUnits: summary.readUnits,
        writeUnits: summary.writeUnits,
        itemsRead: summary.itemsRead,
        bytesRead: summary.bytesRead,
        scans: summary.scans,
        ok: outcome.status === 200 && summary.calls <= scenario.budget && summary.scans === 0 && docNow === scenario.doc.budget,
      });
    }
  } finally {
    counter.remove();
  }
  const uncovered = uncoveredFunctions();
  log(`round trips: ${rows.length} scenarios; no scenario yet: ${uncovered.join(', ') || 'none'}`);
  return { rows, uncovered };
}
