/**
 * The cost model: what a stage costs a month whatever its traffic (from the synthesized
 * templates' own resources), what a request costs (from the bench's measured capacity and
 * CPU), an event delivered, an import, a stored gigabyte and a channel. It renders the
 * *Cost model* section of docs/PERFORMANCE.md (`npm run infra-docs`, and `npm run bench`
 * after a full run); test/infra/generated-docs.test.ts fails when the committed section
 * differs from what this writes from the current templates and bench/results.json.
 */
import { API_ROUTES, SUPPORT_FUNCTIONS } from '../shared/routes';
import { PLANNED_REQUESTS_PER_SECOND } from '../infra/config';
import type { SynthesizedStage } from '../infra/synth-offline';
import type { BenchResults } from './report';

/** AWS list prices (us-east-1), and the assumptions beside them. */
export const PRICES = {
  /** API Gateway REST requests a month: each tier's size and price per million (first 333M, next 667M, next 19B, beyond). */
  apiGatewayRestTiers: [
    { requests: 333e6, perMillion: 3.5 },
    { requests: 667e6, perMillion: 2.8 },
    { requests: 19e9, perMillion: 2.38 },
    { requests: Infinity, perMillion: 1.51 },
  ],
  /** CloudWatch Logs standard ingestion, per GB; storage, per GB-month (compressed). */
  logsIngestPerGb: 0.5,
  logsStoragePerGbMonth: 0.03,
  /**
   * Log bytes a request writes (docs/PERFORMANCE.md, *Cost model*): the trimmed access log
   * line (≈ 200 B), the function's request line (≈ 350 B), its EMF line (≈ 300 B), and
   * START/END/REPORT (with the X-Ray line) of two invocations (≈ 2 × 360 B).
   */
  logBytesPerRequest: 1565,
  /** X-Ray: $5 per million traces recorded; the default rule samples 1 a second + 5 % of the rest. */
  xrayPerMillionTraces: 5,
  xraySampledShare: 0.05,
  /** Data transfer out to the internet, first 10 TB a month, per GB. */
  transferOutPerGb: 0.09,
  /** Response headers (envelope headers, rate-limit headers, CORS) on top of the body. */
  responseHeaderBytes: 500,
  /** Body of a response whose size the bench does not record (round-trip rows): a small JSON envelope. */
  smallResponseBytes: 1024,
  lambdaRequestPerMillion: 0.2,
  lambdaArmPerGbSecond: 0.0000133334,
  dynamoWriteUnitPerMillion: 0.625,
  dynamoReadUnitPerMillion: 0.125,
  dynamoStoragePerGbMonth: 0.25,
  /** Point-in-time recovery (continuous backups), per GB-month of table. */
  pitrPerGbMonth: 0.2,
  /** Assumed in-region DynamoDB round trip for a small item or query page (not measured here). */
  dynamoCallMs: 6,
  /** Lambda CPU is proportional to memory: 1,769 MB is one vCPU. */
  mbPerVcpu: 1769,
  /** Assumed per-MB cost of receiving and unmarshalling query pages at 256 MB (not measured here). */
  msPerMbRead: 120,
  /** The REQUEST authorizer runs on every request (gateway caching is off); warm key cache. */
  authorizerBilledMs: 3,
  alarmPerMonth: 0.1,
  /** Per dashboard and month (an account's first 3 are free). */
  dashboardPerMonth: 3,
  /** Custom metrics, per metric and month (first 10,000). */
  metricPerMonth: 0.3,
  /** A customer-managed key, per month (each of its first two yearly rotations adds $1); requests per 10,000. */
  kmsKeyPerMonth: 1,
  kmsPerTenThousandRequests: 0.03,
  secretPerMonth: 0.4,
  secretsPerTenThousandCalls: 0.05,
  wafWebAclPerMonth: 5,
  wafRulePerMonth: 1,
  wafPerMillionRequests: 0.6,
  /** API Gateway cache cluster, per hour, by size (GB). */
  cacheClusterPerHour: { '0.5': 0.02, '1.6': 0.038, '6.1': 0.2, '13.5': 0.25, '28.4': 0.5, '58.2': 1, '118': 1.9, '237': 3.8 } as Record<string, number>,
  /** S3 Standard: storage per GB-month; PUT (and other write) requests and GET requests per 1,000. DELETE is free. */
  s3StoragePerGbMonth: 0.023,
  s3PutPer1000: 0.005,
  s3GetPer1000: 0.0004,
  sqsStandardPerMillion: 0.4,
  sqsFifoPerMillion: 0.5,
  /** An idle SQS event source mapping long-polls with about 5 pollers, a 20-second poll each. */
  idlePollsPerMappingMonth: 5 * 3 * 60 * 730,
  hoursPerMonth: 730,
};

/** The month the planned load makes (PLANNED_REQUESTS_PER_SECOND, infra/config.ts, also sizes the stage's throttle). */
const SECONDS_PER_MONTH = PRICES.hoursPerMonth * 3600;
export const PLANNED_REQUESTS_PER_MONTH = PLANNED_REQUESTS_PER_SECOND * SECONDS_PER_MONTH;

/** API Gateway REST's price for a month of `requests`, through the tiers. */
export function apiGatewayMonthly(requests: number): number {
  let left = requests;
  let total = 0;
  for (const tier of PRICES.apiGatewayRestTiers) {
    const here = Math.min(left, tier.requests);
    total += (here / 1e6) * tier.perMillion;
    left -= here;
    if (left <= 0) break;
  }
  return total;
}

const perGbMillion = 1e6 / 2 ** 30;

/** $ per million requests of the per-request extras: logs, X-Ray, data transfer of a response of `responseBytes`. */
export function extrasPerMillion(responseBytes: number): { logs: number; xray: number; transfer: number } {
  return {
    logs: PRICES.logBytesPerRequest * perGbMillion * PRICES.logsIngestPerGb,
    xray: PRICES.xraySampledShare * PRICES.xrayPerMillionTraces,
    transfer: (responseBytes + PRICES.responseHeaderBytes) * perGbMillion * PRICES.transferOutPerGb,
  };
}

/** What the cost model reads from a stage's templates. */
export interface StageFacts {
  stage: string;
  count: (type: string) => number;
  apiEndpoints: number;
  /** Memory (MB) of the API functions, the authorizer, contacts/import and the event deliverer, as deployed. */
  memoryMb: { api: number; authorizer: number; import: number; deliverer: number };
  wafRules: number;
  cacheClusterGb?: string;
  /** Event source mappings on FIFO and on standard queues. */
  mappings: { fifo: number; standard: number };
  /** Invocations a month of the scheduled functions. */
  scheduledInvocations: number;
}

/** Reads the facts the cost model needs from a synthesized stage. */
export function stageFacts({ config, template, monitoring }: SynthesizedStage): StageFacts {
  const resources = [...Object.values(template.Resources), ...Object.values(monitoring.Resources)];
  const ofType = (type: string) => resources.filter((resource) => resource.Type === type);
  const functions = Object.entries(template.Resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
  const memoryOf = (name: string) => {
    const found = functions.find(([id]) => id.startsWith(name) && id.slice(name.length).startsWith('Function'));
    if (!found) throw new Error(`the template has no function ${name}`);
    return Number(found[1].Properties!.MemorySize);
  };
  const apiFunction = API_ROUTES.find((route) => route.memoryMb === undefined)!;
  const importRoute = API_ROUTES.find((route) => route.path === 'contacts/import')!;
  const [stage] = ofType('AWS::ApiGateway::Stage');
  const queueIsFifo = (arn: unknown) => {
    const id = (arn as { 'Fn::GetAtt'?: [string] })['Fn::GetAtt']?.[0];
    return Boolean(id && template.Resources[id]?.Properties?.FifoQueue);
  };
  const mappings = ofType('AWS::Lambda::EventSourceMapping');
  const perMonth = (expression: string) => {
    const [, amount, unit] = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression) ?? [];
    if (!amount) throw new Error(`schedule ${expression} is not a rate the cost model reads`);
    const minutes = Number(amount) * (unit.startsWith('minute') ? 1 : unit.startsWith('hour') ? 60 : 1440);
    return (PRICES.hoursPerMonth * 60) / minutes;
  };
  return {
    stage: config.stage,
    count: (type) => ofType(type).length,
    apiEndpoints: functions.filter(([, resource]) =>
      Object.keys(resource.Properties?.Environment?.Variables ?? {}).some((name) => name.startsWith('RATE_LIMIT_')),
    ).length,
    memoryMb: {
      api: memoryOf(apiFunction.name),
      authorizer: memoryOf(SUPPORT_FUNCTIONS.authorizer.name),
      import: memoryOf(importRoute.name),
      deliverer: memoryOf(SUPPORT_FUNCTIONS.eventDeliverer.name),
    },
    wafRules: ofType('AWS::WAFv2::WebACL').reduce((sum, acl) => sum + ((acl.Properties?.Rules as unknown[]) ?? []).length, 0),
    cacheClusterGb: stage?.Properties?.CacheClusterEnabled ? String(stage.Properties.CacheClusterSize) : undefined,
    mappings: {
      fifo: mappings.filter((mapping) => queueIsFifo(mapping.Properties?.EventSourceArn)).length,
      standard: mappings.filter((mapping) => !queueIsFifo(mapping.Properties?.EventSourceArn)).length,
    },
    scheduledInvocations: ofType('AWS::Events::Rule').reduce((sum, rule) => sum + perMonth(String(rule.Properties?.ScheduleExpression)), 0),
  };
}

/**
 * CloudWatch metrics the functions write (EMF, shared/observability/metrics.ts): one metric
 * per name and set of dimension values that occurs — the most there can be.
 */
export function emfMetrics(apiEndpoints: number): Array<[string, number]> {
  return [
    ['Requests: per endpoint and status class (2xx, 4xx, 5xx)', apiEndpoints * 3],
    ['RateLimitRefusals: per endpoint', apiEndpoints],
    ['MessagesSent, MessagesFailed: per message type (template, text, image, video, document, audio)', 2 * 6],
    ['WebhookDeliveries (4 outcomes), WebhookDeliveryFailures (3)', 4 + 3],
    ['AutomationsTriggered, WebhookStatusMismatches, SendsToOptedOut', 3],
  ];
}

export interface FixedLine {
  item: string;
  quantity: string;
  price: string;
  monthly: number;
}

/** What a stage costs a month before its first request, from its templates. */
export function fixedMonthly(facts: StageFacts): FixedLine[] {
  const usd = (value: number) => `$${value.toFixed(2)}`;
  const metricFilters = facts.count('AWS::Logs::MetricFilter');
  const metrics = emfMetrics(facts.apiEndpoints).reduce((sum, [, count]) => sum + count, 0) + metricFilters;
  const alarms = facts.count('AWS::CloudWatch::Alarm');
  const dashboards = facts.count('AWS::CloudWatch::Dashboard');
  const keys = facts.count('AWS::KMS::Key');
  const secrets = facts.count('AWS::SecretsManager::Secret');
  const acls = facts.count('AWS::WAFv2::WebACL');
  const idlePolls = (mappings: number) => mappings * PRICES.idlePollsPerMappingMonth;
  const scheduledSeconds = facts.scheduledInvocations * 0.1;
  const lines: FixedLine[] = [
    { item: 'CloudWatch alarms', quantity: String(alarms), price: `${usd(PRICES.alarmPerMonth)} each`, monthly: alarms * PRICES.alarmPerMonth },
    {
      item: 'CloudWatch dashboard',
      quantity: String(dashboards),
      price: `${usd(PRICES.dashboardPerMonth)} (an account's first 3 are free)`,
      monthly: dashboards * PRICES.dashboardPerMonth,
    },
    {
      item: `custom metrics: the functions' EMF metrics (at most ${metrics - metricFilters}) and ${metricFilters} metric filters`,
      quantity: String(metrics),
      price: `${usd(PRICES.metricPerMonth)} each`,
      monthly: metrics * PRICES.metricPerMonth,
    },
    {
      item: 'KMS key (webhook signing secrets; decrypts are cached per container)',
      quantity: String(keys),
      price: `${usd(PRICES.kmsKeyPerMonth)} (+$1 after each of its first two yearly rotations)`,
      monthly: keys * PRICES.kmsKeyPerMonth,
    },
    {
      item: "Secrets Manager: the stack's secrets (webhook app secret, cursor-signing key, suppression key)",
      quantity: String(secrets),
      price: `${usd(PRICES.secretPerMonth)} each`,
      monthly: secrets * PRICES.secretPerMonth,
    },
    {
      item: 'WAF: web ACL and its rules (requests: per request below)',
      quantity: acls ? `${acls} + ${facts.wafRules} rules` : '–',
      price: `${usd(PRICES.wafWebAclPerMonth)} + ${usd(PRICES.wafRulePerMonth)} a rule`,
      monthly: acls * PRICES.wafWebAclPerMonth + facts.wafRules * PRICES.wafRulePerMonth,
    },
    {
      item: 'API Gateway cache cluster (the OpenAPI document)',
      quantity: facts.cacheClusterGb ? `${facts.cacheClusterGb} GB` : '–',
      price: facts.cacheClusterGb ? `${usd(PRICES.cacheClusterPerHour[facts.cacheClusterGb])} an hour` : '–',
      monthly: facts.cacheClusterGb ? PRICES.cacheClusterPerHour[facts.cacheClusterGb] * PRICES.hoursPerMonth : 0,
    },
    {
      item: 'SQS: idle long polls of the event source mappings (≈ 5 pollers × a 20 s poll each)',
      quantity: `${facts.mappings.fifo} FIFO + ${facts.mappings.standard} standard`,
      price: `${usd(PRICES.sqsFifoPerMillion)} / ${usd(PRICES.sqsStandardPerMillion)} per million`,
      monthly: (idlePolls(facts.mappings.fifo) * PRICES.sqsFifoPerMillion + idlePolls(facts.mappings.standard) * PRICES.sqsStandardPerMillion) / 1e6,
    },
    {
      item: 'scheduled functions (the re-drives and the inbound drain every minute, the retention sweep hourly): invocations at ≈ 100 ms, up to 16 empty index queries each (the event re-drive: outbox and lane-sweep shards)',
      quantity: `${Math.round(facts.scheduledInvocations).toLocaleString('en-US')} invocations`,
      price: 'Lambda + up to 8 RRU each',
      monthly:
        (facts.scheduledInvocations * PRICES.lambdaRequestPerMillion) / 1e6 +
        scheduledSeconds * (facts.memoryMb.api / 1024) * PRICES.lambdaArmPerGbSecond +
        (facts.scheduledInvocations * 8 * PRICES.dynamoReadUnitPerMillion) / 1e6,
    },
  ];
  return lines;
}

export interface CostRow {
  endpointClass: string;
  source: string;
  calls: number;
  readUnits: number;
  writeUnits: number;
  lambdaMs: number;
  /** API Gateway at its first tier (the monthly table applies the tiers). */
  apiGateway: number;
  lambda: number;
  dynamodb: number;
  /** CloudWatch Logs, X-Ray and data transfer out: what a request costs beside the three services it calls. */
  logs: number;
  xray: number;
  transfer: number;
  total: number;
}

/** Per-request cost of the measured endpoint classes ($ per million), from the bench's results. */
export function costModel(results: Omit<BenchResults, 'targets' | 'costModel'>, memoryMb = { api: 256, authorizer: 256 }): CostRow[] {
  const rows: CostRow[] = [];
  const warmMs = (path: string) => results.warmCpu?.rows.find((row) => row.path === path)?.stackMs ?? 0.5;
  const firstTier = PRICES.apiGatewayRestTiers[0].perMillion;
  const add = (
    endpointClass: string,
    source: string,
    path: string,
    measured: { calls: number; readUnits: number; writeUnits: number; bytesRead: number; responseBytes?: number } | undefined,
  ) => {
    if (!measured) return;
    const lambdaMs = Math.ceil(
      warmMs(path) * (PRICES.mbPerVcpu / memoryMb.api) + measured.calls * PRICES.dynamoCallMs + (measured.bytesRead / 2 ** 20) * PRICES.msPerMbRead,
    );
    const gbSeconds = (lambdaMs / 1000) * (memoryMb.api / 1024) + (PRICES.authorizerBilledMs / 1000) * (memoryMb.authorizer / 1024);
    const lambda = 2 * PRICES.lambdaRequestPerMillion + gbSeconds * PRICES.lambdaArmPerGbSecond * 1e6;
    const dynamodb = measured.readUnits * PRICES.dynamoReadUnitPerMillion + measured.writeUnits * PRICES.dynamoWriteUnitPerMillion;
    const extras = extrasPerMillion(measured.responseBytes ?? PRICES.smallResponseBytes);
    const total = firstTier + lambda + dynamodb + extras.logs + extras.xray + extras.transfer;
    rows.push({
      endpointClass,
      source,
      calls: measured.calls,
      readUnits: measured.readUnits,
      writeUnits: measured.writeUnits,
      lambdaMs,
      apiGateway: firstTier,
      lambda,
      dynamodb,
      ...extras,
      total,
    });
  };
  const trip = (name: string) => results.roundTrips?.rows.find((row) => row.name.startsWith(name));
  const scaled = (contacts: number, prefix: string) =>
    results.scale?.rows.find((row) => row.contacts === contacts && row.labels === 4 && `${row.path}: ${row.case}`.startsWith(prefix));
  const largest = Math.max(0, ...(results.scale?.rows.filter((row) => row.labels === 4).map((row) => row.contacts) ?? []));
  add('read: a list page (contacts/list page 1, 50 contacts)', `scale, ${largest} contacts`, 'contacts/list', scaled(largest, 'contacts/list: page 1'));
  add('read: small list (labels/list, custom-fields/list, channels/list)', 'round trips', 'labels/list', trip('labels/list'));
  add('read: chat/message/status', 'round trips', 'chat/message/status', trip('chat/message/status'));
  // A deep page reads the container's kept phone order (2 reads); a search still reads the whole index.
  add(`read: contacts/list deep page, ${largest} contacts`, `scale, ${largest} contacts`, 'contacts/list', scaled(largest, 'contacts/list: deep page'));
  add(`read: contacts/list search, ${largest} contacts`, `scale, ${largest} contacts`, 'contacts/list', scaled(largest, 'contacts/list: search by name'));
  add('write: contacts/manage update', 'round trips', 'contacts/manage', trip('contacts/manage update'));
  add(
    `write: contacts/manage create, ${largest} contacts`,
    `scale, ${largest} contacts`,
    'contacts/manage',
    scaled(largest, 'contacts/manage: contacts/manage create'),
  );
  add('write: labels/manage or custom-fields/manage update', 'round trips', 'labels/manage', trip('labels/manage update'));
  return rows;
}

/** The per-request rows as a table (the doc's section and the bench's terminal print it). */
export function costTable(rows: CostRow[]): { headers: string[]; rows: string[][] } {
  return {
    headers: [
      'endpoint class',
      'measured in',
      'DynamoDB calls',
      'RRU',
      'WRU',
      'Lambda ms (est.)',
      'API GW',
      'Lambda ×2',
      'DynamoDB',
      'logs',
      'X-Ray',
      'transfer',
      '$ per million',
    ],
    rows: rows.map((row) => [
      row.endpointClass,
      row.source,
      String(row.calls),
      String(row.readUnits),
      String(row.writeUnits),
      String(row.lambdaMs),
      usd(row.apiGateway),
      usd(row.lambda),
      usd(row.dynamodb),
      usd(row.logs),
      usd(row.xray),
      usd(row.transfer),
      usd(row.total),
    ]),
  };
}

/** An event delivered to one subscription, per million: the hand-off to the deliverer, its table calls, and the time it waits for the receiver. */
export function eventDeliveryPerMillion(facts: StageFacts, receiverMs: number): Record<string, number> {
  const gb = facts.memoryMb.deliverer / 1024;
  return {
    // SendMessage, then (at worst one event a batch) the mapping's ReceiveMessage and DeleteMessage.
    'SQS FIFO (3 requests)': 3 * PRICES.sqsFifoPerMillion,
    // The lane's own wake-up, where the attempt runs (docs/EVENTS.md, Delivery): the same three on the standard lane queue.
    'SQS standard, the lane wake-up (3 requests)': 3 * PRICES.sqsStandardPerMillion,
    // Five writes of a small item a delivery (docs/EVENTS.md, Delivery) and three reads: the delivery and the subscriptions
    // item consistent, the event; and the lane's entry in the outbox index (its EVLANE# shard, for the lane sweep), written
    // when the event joins and takes the lock and removed when the lane empties: ≈ 2 index writes more.
    'DynamoDB (≈ 5 WRU + 2 WRU of the lane index + 2.5 RRU)': 7 * PRICES.dynamoWriteUnitPerMillion + 2.5 * PRICES.dynamoReadUnitPerMillion,
    [`Lambda (${facts.memoryMb.deliverer} MB, one invocation waiting ${receiverMs} ms)`]:
      PRICES.lambdaRequestPerMillion + ((receiverMs + 20) / 1000) * gb * PRICES.lambdaArmPerGbSecond * 1e6,
    'logs (≈ 900 B: a delivery line, EMF, START/END/REPORT)': 900 * perGbMillion * PRICES.logsIngestPerGb,
    'X-Ray (5 % sampled)': PRICES.xraySampledShare * PRICES.xrayPerMillionTraces,
    'transfer out (≈ 1 KB event + 1 KB of headers)': 2048 * perGbMillion * PRICES.transferOutPerGb,
  };
}

/** One contacts/import call of 1,000 new contacts, from the bench's large-channel import. */
export function importCall(facts: StageFacts, results: Omit<BenchResults, 'targets' | 'costModel'>): Record<string, number> | undefined {
  const run = results.largeChannel?.imports.at(-1);
  if (!run) return undefined;
  const calls = run.rows / 1000;
  // The bench keeps 4 calls in flight, so one call took 4 / (calls a second) of wall time.
  const seconds = (4 * run.seconds) / calls;
  const firstTier = PRICES.apiGatewayRestTiers[0].perMillion / 1e6;
  return {
    'API Gateway (1 request)': firstTier,
    [`Lambda (${facts.memoryMb.import} MB × ${seconds.toFixed(1)} s, the local wall time of one call)`]:
      PRICES.lambdaRequestPerMillion / 1e6 + seconds * (facts.memoryMb.import / 1024) * PRICES.lambdaArmPerGbSecond,
    [`DynamoDB (${Math.round(run.writeUnits / calls)} WRU + ${Math.round(run.readUnits / calls)} RRU)`]:
      ((run.writeUnits / calls) * PRICES.dynamoWriteUnitPerMillion + (run.readUnits / calls) * PRICES.dynamoReadUnitPerMillion) / 1e6,
  };
}

const usd = (value: number, digits = 2) => `$${value.toFixed(digits)}`;
const thousands = (value: number) => `$${(value / 1000).toFixed(1)}k`;
const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);
const table = (headers: string[], rows: string[][]) =>
  [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

/**
 * The *Cost model* section of docs/PERFORMANCE.md, between its markers: written from the
 * dev and prod templates and the committed bench results, so it changes when they do.
 */
export function costSection(dev: SynthesizedStage, prod: SynthesizedStage, results: Omit<BenchResults, 'targets' | 'costModel'>): string {
  const [devFacts, prodFacts] = [stageFacts(dev), stageFacts(prod)];
  const [devFixed, prodFixed] = [fixedMonthly(devFacts), fixedMonthly(prodFacts)];
  const rows = costModel(results, prodFacts.memoryMb);
  const tiered = apiGatewayMonthly(PLANNED_REQUESTS_PER_MONTH);
  const month = PLANNED_REQUESTS_PER_MONTH / 1e6;
  const prodFixedTotal = sum(prodFixed.map((line) => line.monthly));
  const waf = prodFacts.count('AWS::WAFv2::WebACL') ? PRICES.wafPerMillionRequests * month : 0;
  const events = [100, 1000].map((receiverMs) => ({ receiverMs, parts: eventDeliveryPerMillion(prodFacts, receiverMs) }));
  const imported = importCall(prodFacts, results);
  const parts: string[] = [
    `Prices: AWS list prices in us-east-1 (\`PRICES\` in \`bench/cost-model.ts\`); counts from the synthesized dev and prod templates (\`infra/synth-offline.ts\`), capacity and CPU from \`bench/results.json\` (${results.date.slice(0, 10)}). Free tiers are left out.`,
    '',
    '### Per stage and month, whatever the traffic',
    '',
    table(
      ['item', 'dev', 'prod', 'price', '$ dev', '$ prod'],
      [
        ...devFixed.map((line, i) => [line.item, line.quantity, prodFixed[i].quantity, line.price, usd(line.monthly), usd(prodFixed[i].monthly)]),
        ['**total**', '', '', '', `**${usd(sum(devFixed.map((line) => line.monthly)))}**`, `**${usd(prodFixedTotal)}**`],
      ],
    ),
    '',
    `EMF metrics counted: ${emfMetrics(prodFacts.apiEndpoints)
      .map(([what, count]) => `${what} ${count}`)
      .join('; ')} (${prodFacts.apiEndpoints} endpoints). Stored data is priced per GB below.`,
    '',
    '### Per request ($ per million)',
    '',
    `Measured per endpoint class; API Gateway at its first tier ($${PRICES.apiGatewayRestTiers[0].perMillion}/M, the tiers apply per month below), Lambda at ${prodFacts.memoryMb.api} MB for two invocations (the authorizer, ${PRICES.authorizerBilledMs} ms, and the endpoint: local warm CPU × ${(PRICES.mbPerVcpu / prodFacts.memoryMb.api).toFixed(1)} for the CPU share + ${PRICES.dynamoCallMs} ms a DynamoDB call + ${PRICES.msPerMbRead} ms a MB read), DynamoDB on demand ($${PRICES.dynamoWriteUnitPerMillion}/M WRU, $${PRICES.dynamoReadUnitPerMillion}/M RRU; the RRU/WRU measured), logs ${PRICES.logBytesPerRequest} B a request at $${PRICES.logsIngestPerGb}/GB, X-Ray ${PRICES.xraySampledShare * 100} % sampled at $${PRICES.xrayPerMillionTraces}/M, transfer out $${PRICES.transferOutPerGb}/GB of uncompressed body + ${PRICES.responseHeaderBytes} B of headers (${PRICES.smallResponseBytes} B bodies where not measured). WAF (prod) adds $${PRICES.wafPerMillionRequests}/M.`,
    '',
    table(costTable(rows).headers, costTable(rows).rows),
    '',
    `### A month at ${PLANNED_REQUESTS_PER_SECOND.toLocaleString('en-US')} requests a second (prod)`,
    '',
    `${(PLANNED_REQUESTS_PER_MONTH / 1e9).toFixed(2)} billion requests a month, all of one class. API Gateway through its tiers (${PRICES.apiGatewayRestTiers
      .map((tier) => `${Number.isFinite(tier.requests) ? `${tier.requests / 1e6}M` : 'beyond'} at $${tier.perMillion}`)
      .join(', ')}): **${thousands(tiered)}** (flat $3.50/M would say ${thousands(3.5 * month)}).`,
    '',
    table(
      ['endpoint class', 'API Gateway (tiered)', 'Lambda, DynamoDB, logs, X-Ray, transfer', 'WAF', 'fixed', '$ a month'],
      rows.map((row) => {
        const rest = (row.total - row.apiGateway) * month;
        return [row.endpointClass, thousands(tiered), thousands(rest), thousands(waf), usd(prodFixedTotal, 0), thousands(tiered + rest + waf + prodFixedTotal)];
      }),
    ),
    '',
    '### Per event delivered to a subscription ($ per million)',
    '',
    `The deliverer's Lambda time is the receiver's response time (it waits for the POST; ${SUPPORT_FUNCTIONS.eventDeliverer.name} times out at 10 s). A subscription's signing secret is decrypted once per container (KMS requests: per cold start, not per event).`,
    '',
    table(
      ['item', ...events.map(({ receiverMs }) => `receiver answers in ${receiverMs} ms`)],
      [
        ...Object.keys(events[0].parts).map((item, i) => [
          item.replace(/waiting \d+ ms/, 'waiting for the receiver'),
          ...events.map(({ parts: eventParts }) => usd(Object.values(eventParts)[i])),
        ]),
        ['**total**', ...events.map(({ parts: eventParts }) => `**${usd(sum(Object.values(eventParts)))}**`)],
      ],
    ),
    '',
  ];
  if (imported) {
    const perCall = sum(Object.values(imported));
    parts.push(
      '### Per contacts/import call (1,000 new contacts)',
      '',
      table(
        ['item', '$ a call', '$ per million contacts'],
        [
          ...Object.entries(imported).map(([item, cost]) => [item, usd(cost, 6), usd(cost * 1000)]),
          ['**total**', `**${usd(perCall, 6)}**`, `**${usd(perCall * 1000)}**`],
        ],
      ),
      '',
    );
  }
  parts.push(
    '### Per stored GB, per channel and per subscription, a month',
    '',
    table(
      ['item', 'price', 'note'],
      [
        ['DynamoDB storage', `${usd(PRICES.dynamoStoragePerGbMonth)} a GB`, 'a contact ≈ 330 B with its index entry; a message with its records ≈ 1 KB'],
        ['point-in-time recovery', `${usd(PRICES.pitrPerGbMonth)} a GB`, 'on for every stage (the table)'],
        [
          'CloudWatch Logs storage',
          `${usd(PRICES.logsStoragePerGbMonth)} a GB (compressed)`,
          `kept ${prod.config.logRetention} days in prod, ${dev.config.logRetention} elsewhere`,
        ],
        [
          'KMS requests on the webhook signing secrets',
          `${usd(PRICES.kmsPerTenThousandRequests)} per 10,000`,
          'an Encrypt per subscription created or secret rotated (webhooks/manage), a Decrypt per subscription and deliverer container (cached there)',
        ],
        [
          'media storage (S3 Standard)',
          `${usd(PRICES.s3StoragePerGbMonth, 3)} a GB`,
          'inbound media, kept as long as the message content (the bucket expires them with the retention); a WhatsApp photo ≈ 100–300 KB',
        ],
        [
          'media requests (S3)',
          `${usd(PRICES.s3PutPer1000, 3)} per 1,000 stored, ${usd(PRICES.s3GetPer1000, 4)} per 1,000 opened`,
          'a PutObject per inbound media fetched (the automation runner); a GetObject per presigned link opened; erasure deletes are free',
        ],
        [
          'media transfer out',
          `${usd(PRICES.transferOutPerGb)} a GB`,
          'the bytes of each presigned link opened from outside AWS (the fetch from the chat network comes in free)',
        ],
        [
          'a channel: its access-token secret (made by the operator CLI)',
          `${usd(PRICES.secretPerMonth)} + ${usd(PRICES.secretsPerTenThousandCalls)} per 10,000 reads`,
          'read once per container that sends for the channel',
        ],
      ],
    ),
  );
  return parts.join('\n');
}

/** The bench's own terminal table of the per-request rows. */
export function costModelNote(): string {
  return 'API Gateway at its first tier; the monthly figures, the fixed per-stage block and the per-event and per-import rows are in docs/PERFORMANCE.md, *Cost model* (npm run infra-docs).';
}
