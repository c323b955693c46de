/**
 * An in-memory dynalite with the table, in its own process (so seeding 100k items uses
 * the second core), for the round-trip and scale sections. Prints its endpoint as one
 * JSON line and runs until its parent disconnects or sends SIGTERM.
 */
import { ensureTable, startStore } from '../scripts/local/store';

const store = await startStore(undefined);
await ensureTable(store.endpoint);
process.stdout.write(`${JSON.stringify({ endpoint: store.endpoint })}\n`);
const stop = () => void store.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
