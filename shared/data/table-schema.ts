/**
 * The single table's physical shape, shared by the CDK stack and the local store so
 * both create exactly the same table.
 */
export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;

/** Items that may expire (rate-limit windows, idempotency records) carry this epoch-seconds attribute. */
export const TTL_ATTRIBUTE = 'expiresAt';

/** Default table name for the local stack; AWS reads TABLE_NAME. */
export const LOCAL_TABLE_NAME = 'workspace-api';

/**
 * The one GSI: a sparse outbox index. Only an execution whose next step has not yet
 * been handed to the queue carries `outboxShard`/`outboxAt`, so the re-drive reads
 * just those (docs/ARCHITECTURE.md, "Automations").
 */
export const OUTBOX_INDEX = { indexName: 'outbox', partitionKey: 'outboxShard', sortKey: 'outboxAt' } as const;

/** Key schema, attribute definitions and the GSI in DynamoDB CreateTable form. */
export const CREATE_TABLE_INPUT = {
  AttributeDefinitions: [
    { AttributeName: TABLE_KEY.partitionKey, AttributeType: 'S' as const },
    { AttributeName: TABLE_KEY.sortKey, AttributeType: 'S' as const },
    { AttributeName: OUTBOX_INDEX.partitionKey, AttributeType: 'S' as const },
    { AttributeName: OUTBOX_INDEX.sortKey, AttributeType: 'N' as const },
  ],
  KeySchema: [
    { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' as const },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: OUTBOX_INDEX.indexName,
      KeySchema: [
        { AttributeName: OUTBOX_INDEX.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: OUTBOX_INDEX.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' as const },
    },
  ],
  BillingMode: 'PAY_PER_REQUEST' as const,
};
