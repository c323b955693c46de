/**
 * The single table's physical shape, shared by the CDK stack (infra/data.ts) and the
 * local store (scripts/local/store.ts) so both create exactly the same table.
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
