import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../scripts/local/store';

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: Record<string, unknown>) => import('node:http').Server;

/**
 * ensureTable against a dynalite that, like DynamoDB, keeps a new table CREATING for a
 * while (the local store's own dynalite does it for no time, but flips the status in a
 * later tick): every item call on a CREATING table fails with ResourceNotFoundException, so
 * the operator CLI's first command on a new DATA_DIR failed when that tick came late.
 */
let server: import('node:http').Server;
let endpoint: string;

beforeAll(async () => {
  server = dynalite({ createTableMs: 300 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('ensureTable', () => {
  it('returns once the table it created is ACTIVE, and leaves an existing table as it is, saying which it did', async () => {
    // Act
    const createdHere = await ensureTable(endpoint, 'fresh-table');
    const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const created = await client.send(new DescribeTableCommand({ TableName: 'fresh-table' }));
    const createdAgain = await ensureTable(endpoint, 'fresh-table');
    const again = await client.send(new DescribeTableCommand({ TableName: 'fresh-table' }));
    client.destroy();
    // Assess
    expect(created.Table?.TableStatus).toBe('ACTIVE');
    expect(created.Table?.GlobalSecondaryIndexes?.map((index) => index.IndexStatus)).toEqual(['ACTIVE']);
    expect(again.Table?.CreationDateTime).toEqual(created.Table?.CreationDateTime);
    expect([createdHere, createdAgain]).toEqual([true, false]);
  });
});
