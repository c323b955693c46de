import { join } from 'node:path';
import { ROOT } from '../infra/bundles';
import type { ApiEndpointHandler } from '../shared/http/api-handler';
import { documentedRequest } from '../shared/openapi/document';
import { API_ROUTES, PORTAL_ROUTES, SUPPORT_FUNCTIONS, type ApiRoute } from '../shared/routes';
import { readDocBudgets } from './budgets';
import type { ChatNetwork } from '../test/support/chat';
import type { TestTenant } from '../test/support/tenants';
import { countDbCalls, summarize, type CallCounter, type DbCall } from './counter';
import type { ProxyHandler, RequestSpec } from './events';
import { SCENARIOS, type Invocation, type RoundTripScenario, type ScenarioContext, type SupportHandler } from './scenarios';

/**
 * 3. DynamoDB round trips and consumed capacity per request, per endpoint case, against
 * the local store (dynalite): the real handlers, called as API Gateway would (callApi:
 * the real authorizer, then the proxy event), counted with SDK middleware on the shared
 * document client. Needs DYNAMODB_ENDPOINT and TABLE_NAME set before it is imported.
 * Support functions (webhook, automation runner and re-drive, public documents) are
 * called with the event their source builds. Only the counted call's own calls count
 * (its async context): a webhook the sandbox chat network delivers meanwhile does not.
 */

export interface ScenarioOutcome {
  scenario: RoundTripScenario;
  status: number;
  body?: unknown;
  calls: DbCall[];
  /** Requests the sandbox chat network received during the counted call (HTTP, not DynamoDB). */
  graphCalls?: number;
}

/** The entry of a route path or of a support function's name. */
function entryOf(path: string): string | undefined {
  return (
    API_ROUTES.find((route) => route.path === path)?.entry ?? [...PORTAL_ROUTES, ...Object.values(SUPPORT_FUNCTIONS)].find((fn) => fn.name === path)?.entry
  );
}

const handlers = new Map<string, unknown>();
async function handlerFor<T = ProxyHandler>(path: string): Promise<T> {
  const entry = entryOf(path);
  if (!entry) throw new Error(`No route or support function ${path} in shared/routes.ts`);
  if (!handlers.has(path)) handlers.set(path, ((await import(join(ROOT, entry))) as { handler: unknown }).handler);
  return handlers.get(path) as T;
}

/**
 * The round trips of a route no scenario names: its documented request example (what its
 * schema states for the OpenAPI document, sent as a POST body in the tenant's channel),
 * against the docs/ARCHITECTURE.md row named by its path, whose budget must then be a
 * plain count. A route whose documented request needs data first gets a scenario of its own.
 */
export function documentedScenario(route: ApiRoute, docs: ReturnType<typeof readDocBudgets>): RoundTripScenario {
  const budget = docs.get(route.path)?.budget ?? '(no row)';
  return {
    name: `${route.path} (its documented request)`,
    path: route.path,
    doc: { row: route.path, budget },
    budget: /^\d+$/.test(budget) ? Number(budget) : Number.NaN,
    request: () => documentedCase(route),
  };
}

async function documentedCase(route: ApiRoute): Promise<RequestSpec> {
  const { schema } = (await handlerFor<ApiEndpointHandler>(route.path)).endpoint;
  const { channelId: _documented, ...params } = documentedRequest(route, schema);
  return { method: 'POST', params };
}

/** The scenarios of bench/scenarios.ts whose function exists in shared/routes.ts (others wait for their function), and each other route's documented request. */
export function activeScenarios(): RoundTripScenario[] {
  const written = SCENARIOS.filter((scenario) => scenario.path === 'authorizer' || entryOf(scenario.path) !== undefined);
  const named = new Set(written.map((scenario) => scenario.path));
  const docs = readDocBudgets();
  return [...written, ...API_ROUTES.filter((route) => !named.has(route.path)).map((route) => documentedScenario(route, docs))];
}

/** Routes and support functions no scenario covers yet. */
export function uncoveredFunctions(): string[] {
  const covered = new Set(activeScenarios().map((scenario) => scenario.path));
  return [
    ...API_ROUTES.map((route) => route.path),
    ...PORTAL_ROUTES.map((route) => route.name),
    ...Object.entries(SUPPORT_FUNCTIONS)
      .filter(([key]) => key !== 'authorizer')
      .map(([, fn]) => fn.name),
  ].filter((path) => !covered.has(path));
}

let chatNetwork: Promise<ChatNetwork> | undefined;

/** The sandbox chat network of test/support/chat.ts, started by the first scenario that needs it. */
function scenarioChatNetwork(): Promise<ChatNetwork> {
  chatNetwork ??= import('../test/support/chat').then((chat) => chat.startChatNetwork());
  return chatNetwork;
}

/** Closes the sandbox chat network, if a scenario started it. */
export async function closeScenarioChatNetwork(): Promise<void> {
  const network = await chatNetwork;
  chatNetwork = undefined;
  if (!network) return;
  await network.sandbox.idle();
  await network.close();
}

/** Runs one scenario in a fresh tenant and returns the handler's counted calls. */
export async function runScenario(scenario: RoundTripScenario, counter: CallCounter): Promise<ScenarioOutcome> {
  const { createTenant } = await import('../test/support/tenants');
  const { callApi } = await import('../test/support/api');
  const { db, tableName } = await import('../shared/data/client');
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');

  const network = scenario.chat ? await scenarioChatNetwork() : undefined;
  const chatTenant = network ? await (await import('../test/support/chat')).createChatTenant(network, 1) : undefined;
  const tenant: TestTenant = chatTenant ?? (await createTenant(1));
  const chat = network && chatTenant ? { network, channel: chatTenant.channels[0] } : undefined;
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
    saved: {},
    chat,
  };
  await scenario.prepare?.(context);
  // Webhooks the setup caused (statuses of a send) are processed before the counted call.
  await chat?.network.sandbox.idle();
  const graphRequests = () => chat?.network.sandbox.requests.filter((request) => request.path.includes(`/${chat.channel.phoneNumberId}/`)).length ?? 0;
  const graphBefore = graphRequests();
  const outcome = await countedCall(scenario, context, counter);
  await chat?.network.sandbox.idle();
  return { scenario, ...outcome, ...(chat ? { graphCalls: graphRequests() - graphBefore } : {}) };
}

/** The scenario's one counted call: the authorizer, a support function, or an API request. */
async function countedCall(scenario: RoundTripScenario, context: ScenarioContext, counter: CallCounter): Promise<Omit<ScenarioOutcome, 'scenario'>> {
  const { callApi } = await import('../test/support/api');
  const { resolvePrincipal, authorize } = await import('../shared/auth/authorize');
  const { tenant } = context;

  if (scenario.path === 'authorizer') {
    let status = 0;
    const calls = await counter.count(async () => {
      const result = await authorize({
        type: 'REQUEST',
        methodArn: 'arn:aws:execute-api:local:1:api/test/GET/x',
        headers: { 'X-API-Key': tenant.adminKey },
        queryStringParameters: null,
      } as never);
      status = result.principalId ? 200 : 401;
    });
    return { status, calls };
  }

  if (scenario.invoke) {
    const handler = await handlerFor<SupportHandler>(scenario.path);
    let invocation: Invocation = { status: 0 };
    const calls = await counter.count(async () => {
      invocation = await scenario.invoke!(handler, context);
    });
    return { ...invocation, calls };
  }

  if (!scenario.request) throw new Error(`scenario "${scenario.name}" has neither request nor invoke`);
  const request = await scenario.request(context);
  const handler = await handlerFor(scenario.path);
  if (scenario.warm) await context.call(scenario.path, request);
  // The authorizer's lookup is warm (a fresh tenant's key, resolved just now): only the endpoint's calls count.
  await resolvePrincipal(tenant.adminKey);
  let calls: DbCall[] = [];
  const counted: ProxyHandler = async (event, lambdaContext) => {
    let result: Awaited<ReturnType<ProxyHandler>> | undefined;
    calls = await counter.count(async () => {
      result = await handler(event, lambdaContext);
    });
    return result!;
  };
  const response = await callApi(counted, { apiKey: tenant.adminKey, method: request.method, params: request.params });
  return { status: response.status, body: response.body, calls };
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
  /** Requests to the sandbox chat network (Graph API, HTTP) during the counted call; chat scenarios only. */
  graphCalls?: number;
  ok: boolean;
}

export async function roundTrips(log: (line: string) => void): Promise<{ rows: RoundTripRow[]; uncovered: string[] }> {
  const { db } = await import('../shared/data/client');
  const counter = countDbCalls(db, { consumedCapacity: true });
  // As the local stack (and the test workers) do: steps go to the durable table queue, one table write the budgets count.
  const { provideStepQueue } = await import('../shared/queue/step-queue');
  const { tableEventQueue, tableStepQueue } = await import('../scripts/local/table-step-queue');
  provideStepQueue(tableStepQueue);
  // Events likewise go to the deliverer's table queue: the one table write an event adds locally.
  const { provideEventQueue } = await import('../shared/queue/event-queue');
  provideEventQueue(tableEventQueue);
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
        graphCalls: outcome.graphCalls,
        ok: outcome.status === 200 && summary.calls <= scenario.budget && summary.scans === 0 && docNow === scenario.doc.budget,
      });
    }
  } finally {
    counter.remove();
    await closeScenarioChatNetwork();
  }
  const uncovered = uncoveredFunctions();
  log(`round trips: ${rows.length} scenarios; no scenario yet: ${uncovered.join(', ') || 'none'}`);
  return { rows, uncovered };
}
