/**
 * `npx tsx bench/index-reader.ts`: the compact-index reader alone, with and without its
 * hand-written reading of a Query response's items (shared/data/batch.ts,
 * `queryRangePageStrings` / `takeStringItems`). A canned DynamoDB answers every Query of a
 * 100k-entry index (or INDEX_ENTRIES) with pages of ≤ 1 MB, in a process of its own, so
 * the CPU measured here is the client's: the SDK's HTTP exchange, then either the SDK's
 * deserializer for the whole body (`Items` converted to name/value lists afterwards) or
 * the sticky scan of the items plus the SDK's deserializer for the rest. Both layouts of
 * the index are read: import chunks (three attributes of fixed names, entries packed) and
 * hash buckets (one attribute an entry, names no other item shares). Results go to
 * stdout; docs/PERFORMANCE.md quotes them.
 */
import { QueryCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const ENTRIES = Number(process.env.INDEX_ENTRIES ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const PAGE_BYTES = 1024 * 1024;
const PK = 'WS#ws_bench#CH#ch_bench';

/** The index's items as DynamoDB's JSON, in sort-key order. */
function indexItems(layout: 'chunks' | 'buckets'): Array<Record<string, AttributeValue>> {
  const name = (i: number) => `person ${i.toString(36)}`;
  const phone = (i: number) => String(14155000000 + i * 7919);
  const items: Array<Record<string, AttributeValue>> = [];
  if (layout === 'chunks') {
    for (let chunk = 0; chunk * 32 < ENTRIES; chunk++) {
      let packed = '';
      for (let i = chunk * 32; i < Math.min(ENTRIES, chunk * 32 + 32); i++) packed += phone(i) + String.fromCharCode(0x3a + name(i).length) + name(i);
      items.push({ pk: { S: PK }, sk: { S: `CIDX#ct_${String(chunk).padStart(8, '0')}` }, entries: { S: packed } });
    }
  } else {
    const buckets = Array.from(
      { length: 4096 },
      (_, b) => ({ pk: { S: PK }, sk: { S: `CIDX#${b.toString(16).padStart(3, '0')}` } }) as Record<string, AttributeValue>,
    );
    for (let i = 0; i < ENTRIES; i++) buckets[(i * 2654435761) % 4096][phone(i)] = { S: name(i) };
    items.push(...buckets);
  }
  return items;
}

/** The Query answers, ≤ 1 MB each, as DynamoDB writes them (no white space). */
function pages(items: Array<Record<string, AttributeValue>>): string[] {
  const bodies: string[] = [];
  let page: typeof items = [];
  let bytes = 0;
  const flush = (last: boolean) => {
    const end = page[page.length - 1];
    bodies.push(
      JSON.stringify({ Count: page.length, Items: page, ...(last ? {} : { LastEvaluatedKey: { pk: end.pk, sk: end.sk } }), ScannedCount: page.length }),
    );
    page = [];
    bytes = 0;
  };
  for (const item of items) {
    const size = JSON.stringify(item).length;
    if (bytes + size > PAGE_BYTES) flush(false);
    page.push(item);
    bytes += size;
  }
  flush(true);
  return bodies;
}

/** The canned DynamoDB (child process): the page after ExclusiveStartKey of the layout the table name says. */
function serve(): void {
  const answers = { chunks: pages(indexItems('chunks')), buckets: pages(indexItems('buckets')) };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const input = JSON.parse(body) as { TableName: 'chunks' | 'buckets'; ExclusiveStartKey?: { sk: { S: string } } };
      const bodies = answers[input.TableName];
      const after = input.ExclusiveStartKey?.sk.S;
      const index = after === undefined ? 0 : bodies.findIndex((page) => page.includes(`"sk":{"S":"${after}"}},"ScannedCount"`)) + 1;
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'bench' });
      res.end(bodies[index]);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
}

async function measure(read: () => Promise<number>): Promise<{ wallMs: number; cpuMs: number; entries: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const entries = await read();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, entries };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const child = fork(import.meta.filename, ['--serve'], { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolvePort) => child.once('message', (message) => resolvePort(Number(message))));
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}`,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  const { db } = await import('../shared/data/client');
  const { queryRangePageStrings } = await import('../shared/data/batch');
  const { IndexEntryReader } = await import('../shared/data/contact-index');
  const range = { from: 'CIDX#', to: 'CIDX#~' };
  /** Every entry visited, as streamContactIndex's readers do: the count. */
  const visitAll = (items: string[][]) => {
    const reader = new IndexEntryReader(items);
    let count = 0;
    while (reader.next()) count++;
    return count;
  };

  const withParser = (table: string) => async () => {
    process.env.TABLE_NAME = table;
    let entries = 0;
    let next: Record<string, AttributeValue> | undefined;
    do {
      const page = await queryRangePageStrings(PK, range, next);
      entries += visitAll(page.items);
      next = page.next;
    } while (next);
    return entries;
  };
  const withoutParser = (table: string) => async () => {
    let entries = 0;
    let next: Record<string, AttributeValue> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': { S: PK }, ':from': { S: range.from }, ':to': { S: range.to } },
          ExclusiveStartKey: next,
        }),
      );
      entries += visitAll((page.Items ?? []).map((item) => Object.entries(item).flatMap(([name, value]) => [name, value.S ?? ''])));
      next = page.LastEvaluatedKey;
    } while (next);
    return entries;
  };

  const results: Record<string, { wallMs: number; cpuMs: number; entries: number }> = {};
  for (const table of ['chunks', 'buckets']) {
    for (const [name, read] of [
      ['with the parser', withParser(table)],
      ['SDK deserializer', withoutParser(table)],
    ] as const) {
      await read(); // warm-up
      const runs = [];
      for (let round = 0; round < ROUNDS; round++) runs.push(await measure(read));
      results[`${table}, ${name}`] = { wallMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)), entries: runs[0].entries };
    }
  }
  child.kill();
  console.log(JSON.stringify({ entries: ENTRIES, rounds: ROUNDS, medians: results }, null, 2));
}

if (process.argv.includes('--serve')) serve();
else await main();
