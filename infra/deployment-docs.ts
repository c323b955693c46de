/**
 * The tables of docs/DEPLOYMENT.md that state what the template holds — its outputs, each
 * function's environment, memory and timeout, and the resource budget — written from the
 * synthesized templates (`npm run infra-docs`), so they cannot drift from the stack:
 * test/infra/generated-docs.test.ts fails when the committed tables differ.
 */
import { DEFAULT_RATE_LIMITS } from '../shared/config';
import { API_ROUTES, PORTAL_API_PATH, PORTAL_ROUTES, SUPPORT_FUNCTIONS } from '../shared/routes';
import { endpointHeadroom, PLANNED_FEATURES, RESOURCE_BUDGET_PER_STACK, resourceBudget } from './resource-budget';
import { CLOUDFORMATION_RESOURCES_PER_STACK } from './platform-limits';
import type { CfnJson, SynthesizedStage, TemplateJson } from './synth-offline';

/** What each function variable means; a variable the template sets without an entry here fails the docs test. */
export const VARIABLE_MEANINGS: Record<string, string> = {
  TABLE_NAME: 'The table',
  STAGE: 'The stage: the `stage` dimension of the EMF metrics (`shared/observability/metrics.ts`; `local` when unset)',
  POWERTOOLS_SERVICE_NAME: '`workspace-api`',
  POWERTOOLS_LOG_LEVEL: 'context `logLevel`',
  ...Object.fromEntries(
    Object.keys(DEFAULT_RATE_LIMITS).map((rateClass) => [
      `RATE_LIMIT_${rateClass.toUpperCase()}`,
      `The per-minute limit of class \`${rateClass}\` (context \`rateLimits\`), read by \`rateLimitFor\``,
    ]),
  ),
  AUTOMATION_QUEUE_URL: 'The automation queue (rows with `sendsToQueue`)',
  EVENT_QUEUE_URL: 'The event queue, FIFO (rows with `sendsToEventQueue`)',
  EVENT_LANE_QUEUE_URL: 'The event lane queue (rows with `sendsToEventQueue`)',
  WEBHOOK_SECRETS_KMS_KEY_ID: "The webhook signing secrets' KMS key (`sealsWebhookSecrets`, `opensWebhookSecrets`)",
  WEBHOOK_SECRET_ARN: 'The webhook secret (the support function whose `publicPath` is `/webhooks/whatsapp`)',
  CURSOR_SIGNING_KEY_SECRET_ARN: 'The cursor-signing key’s secret, read at run time (route rows with `signsCursors`; `GetSecretValue` on it alone)',
  SUPPRESSION_KEY_SECRET_ARN:
    'The suppression key’s secret (the HMAC key of suppression records and erasure tombstones), read at run time (rows with `hashesNumbers`; `GetSecretValue` on it alone)',
  MESSAGE_CONTENT_RETENTION_DAYS: 'context `messageContentRetentionDays`, when above 0',
  USAGE_PLAN_NAME: "The usage plan's name, by which the portal's key-making functions find it (docs/PORTAL.md)",
  REQUEST_LOG_GROUPS: "The API functions' log groups, which the portal's request-log readers query with Logs Insights (docs/PORTAL.md)",
  PORTAL_COGNITO_ENDPOINT: "The user pool's regional Cognito endpoint, which the portal page's sign-in calls (docs/PORTAL.md)",
  PORTAL_USER_POOL_ID: 'The user pool the portal page signs in to',
  PORTAL_CLIENT_ID: "The portal's app client (no secret), named in the page's sign-in",
  MEDIA_BUCKET: 'The media bucket: inbound media are stored there (`writesMedia`) and opened by presigned GETs (`readsMedia`)',
};

const table = (headers: string[], rows: string[][]) =>
  [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

/** Every function of a template by its route-table or support-function name, with its properties. */
function functionsOf(template: TemplateJson): Map<string, Record<string, CfnJson>> {
  const names = [...API_ROUTES, ...PORTAL_ROUTES, ...Object.values(SUPPORT_FUNCTIONS)].map((fn) => fn.name);
  const functions = new Map<string, Record<string, CfnJson>>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const name = names.find((candidate) => id.startsWith(`${candidate}Function`));
    if (!name) throw new Error(`function ${id} is neither a route nor a support function`);
    functions.set(name, resource.Properties!);
  }
  return functions;
}

/** How a doc names a function: an endpoint by its path, a support function by its name. */
const displayName = (name: string) => {
  const portal = PORTAL_ROUTES.find((route) => route.name === name);
  return API_ROUTES.find((route) => route.name === name)?.path ?? (portal ? `${portal.method} ${PORTAL_API_PATH}/${portal.path}` : name);
};

/** A set of functions in words: "all (30)", "all but …", "every API endpoint but …", or their names. */
function describeFunctions(names: readonly string[], all: readonly string[]): string {
  if (names.length === all.length) return `all (${all.length})`;
  const missing = all.filter((name) => !names.includes(name));
  if (missing.length <= 3) return `all but ${missing.map(displayName).join(', ')} (${names.length})`;
  const endpoints = API_ROUTES.map((route) => route.name);
  const ownEndpoints = names.filter((name) => endpoints.includes(name));
  const missingEndpoints = endpoints.filter((name) => !names.includes(name));
  const described =
    missingEndpoints.length === 0
      ? [`every API endpoint (${endpoints.length})`]
      : ownEndpoints.length > endpoints.length / 2
        ? [`every API endpoint but ${missingEndpoints.map(displayName).join(', ')} (${ownEndpoints.length})`]
        : ownEndpoints.map(displayName);
  return [...described, ...names.filter((name) => !endpoints.includes(name))].join(', ');
}

/** The stack outputs: name and description. */
export function outputsTable({ template }: SynthesizedStage): string {
  return table(
    ['Output', 'What'],
    Object.entries(template.Outputs ?? {}).map(([name, output]) => [`\`${name}\``, output.Description ?? '']),
  );
}

/** Every variable a function of the template gets, which functions, and what it holds. */
export function environmentTable({ template }: SynthesizedStage): string {
  const functions = functionsOf(template);
  const all = [...functions.keys()];
  const holders = new Map<string, string[]>();
  for (const [name, properties] of functions)
    for (const variable of Object.keys(properties.Environment?.Variables ?? {})) holders.set(variable, [...(holders.get(variable) ?? []), name]);
  const undocumented = [...holders.keys()].filter((variable) => !(variable in VARIABLE_MEANINGS));
  if (undocumented.length) throw new Error(`infra/deployment-docs.ts VARIABLE_MEANINGS lacks ${undocumented.join(', ')}`);
  return table(
    ['Variable', 'Functions', 'Value'],
    Object.keys(VARIABLE_MEANINGS)
      .filter((variable) => holders.has(variable))
      .map((variable) => [`\`${variable}\``, describeFunctions(holders.get(variable)!, all), VARIABLE_MEANINGS[variable]]),
  );
}

/** Memory and timeout of every function, grouped. */
export function sizingTable({ template }: SynthesizedStage): string {
  const functions = functionsOf(template);
  const all = [...functions.keys()];
  const groups = new Map<string, string[]>();
  for (const [name, properties] of functions) {
    const key = `${properties.MemorySize} MB | ${properties.Timeout} s`;
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  return table(
    ['Functions', 'Memory', 'Timeout'],
    [...groups].map(([key, names]) => [describeFunctions(names, all), ...key.split(' | ')]),
  );
}

/** The resource budget of each stage's stacks, with the planned features added. */
export function budgetTable(stages: readonly SynthesizedStage[]): string {
  const rows: string[][] = [];
  for (const synth of stages) {
    const budget = resourceBudget(synth);
    const headroom = endpointHeadroom(budget);
    for (const line of budget.lines) rows.push([synth.config.stage, line.what, String(line.stage), String(line.monitoring)]);
    rows.push([
      synth.config.stage,
      `**${budget.total.what}** (≤ ${RESOURCE_BUDGET_PER_STACK} each; then ${headroom.underBudget} more endpoints fit under ${RESOURCE_BUDGET_PER_STACK}, ${headroom.underLimit} under CloudFormation's ${CLOUDFORMATION_RESOURCES_PER_STACK})`,
      `**${budget.total.stage}**`,
      `**${budget.total.monitoring}**`,
    ]);
  }
  const [first] = stages;
  const { perEndpoint } = resourceBudget(first);
  return [
    table([`Stage`, 'Resources', `\`WorkspaceApi-<stage>\``, 'monitoring (nested)'], rows),
    '',
    `An endpoint costs ${perEndpoint.stage} resources in the stage's stack (its function, role, policy and log group, its API Gateway resource, three methods (GET, POST and the mock ANY that answers 405), one invoke permission for its path) and ${perEndpoint.monitoring} alarms in the monitoring stack, counted in the template (\`resourcesPerEndpoint\`, infra/resource-budget.ts).${plannedFeaturesSentence()}`,
  ].join('\n');
}

function plannedFeaturesSentence(): string {
  if (PLANNED_FEATURES.length === 0) return ' No feature is planned beyond the template.';
  return ` The planned features are estimates: ${PLANNED_FEATURES.map((feature) => `${feature.name} ${feature.endpoints} endpoints`).join(', ')}.`;
}

/** Every generated table of docs/DEPLOYMENT.md by its marker name. */
export function deploymentTables(dev: SynthesizedStage, prod: SynthesizedStage, devWithRetention: SynthesizedStage): Record<string, string> {
  return {
    outputs: outputsTable(dev),
    environment: environmentTable(devWithRetention),
    sizing: sizingTable(dev),
    budget: budgetTable([dev, prod]),
  };
}
