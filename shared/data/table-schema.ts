/**
 * The single table's physical shape, shared by the CDK stack and the local store so
 * both create exactly the same table.
 */
export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;

/** Items that may expire (rate-limit windows, idempotency records) carry this epoch-seconds attribute. */
export const TTL_ATTRIBUTE = 'expiresAt';

/** Default table name for the local stack; AWS reads TABLE_NAME. */
export const LOCAL_TABLE_NAME = 'workspace-api';

/** Key schema and attribute definitions in DynamoDB CreateTable form (no GSI is needed: see docs/ARCHITECTURE.md). */
export const CREATE_TABLE_INPUT = {
  AttributeDefinitions: [
    { AttributeName: TABLE_KEY.partitionKey, AttributeType: 'S' as const },
    { AttributeName: TABLE_KEY.sortKey, AttributeType: 'S' as const },
  ],
  KeySchema: [
    { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' as const },
  ],
  BillingMode: 'PAY_PER_REQUEST' as const,
};
