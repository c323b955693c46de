import { ensureTable, startStore, type LocalStore } from '../../scripts/local/store';

/**
 * A dynalite of this test file's own, for tests that compare the whole table
 * before and after (other files write to the shared store meanwhile). Call it
 * before anything imports the data layer (it reads DYNAMODB_ENDPOINT at import),
 * then import handlers and helpers dynamically.
 */
export async function usePrivateStore(): Promise<LocalStore> {
  const store = await startStore(undefined);
  await ensureTable(store.endpoint, process.env.TABLE_NAME);
  process.env.DYNAMODB_ENDPOINT = store.endpoint;
  return store;
}
