import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { keys } from '../../shared/data/keys';
import { checkInvariants } from '../support/invariants';
import { demoAdmin, startStack, type RunningStack } from '../support/local-stack';
import { countItems } from '../support/table';

/**
 * The local stack the contacts/import crash files run against (`npm start`'s program), one
 * per file, with rate limits that never refuse an import, and what they read from it.
 */
export const IMPORT_LIMITS = { RATE_LIMIT_API_WRITE: '1000000', RATE_LIMIT_API_READ: '1000000', RATE_LIMIT_API_IMPORT: '1000000' };

export interface ImportStack {
  stack: RunningStack;
  adminKey: string;
  channelId: string;
  /** Starts the stack again on its DATA_DIR (after a SIGKILL). */
  restart(): Promise<void>;
  /** The channel's contact count, as contacts/list reports it. */
  total(): Promise<number>;
  /** The stack's store, for checkInvariants. */
  storeEndpoint(): Promise<string>;
  /**
   * The channel's contact items in the store whose normalized numbers start with `phonePrefix`
   * (default: all), by a Query of that key range of its partition, no Scan: rows committed so
   * far. A run's own prefix keeps a poll from reading the contacts earlier tests stored.
   */
  contactsStored(phonePrefix?: string): Promise<number>;
}

/** Starts the file's stack before its tests (the demo workspace's second channel) and stops it after them. */
export function useImportStack(): ImportStack {
  const state = {} as ImportStack;
  beforeAll(async () => {
    state.stack = await startStack({ env: IMPORT_LIMITS });
    ({ adminKey: state.adminKey, channelId: state.channelId } = demoAdmin(state.stack, 1));
  });
  afterAll(async () => {
    await state.stack?.stop();
  });
  state.restart = async () => {
    state.stack = await startStack({ dataDir: state.stack.dataDir, env: IMPORT_LIMITS });
  };
  state.total = async () =>
    (await state.stack.call('contacts/list', { apiKey: state.adminKey, params: { channelId: state.channelId, limit: 1 } })).body.pagination.total;
  state.storeEndpoint = async () =>
    (JSON.parse(await readFile(join(state.stack.dataDir, 'stack.json'), 'utf8')) as { dynamodbEndpoint: string }).dynamodbEndpoint;
  state.contactsStored = async (phonePrefix = '') => {
    const head = keys.contactHead({ workspaceId: state.stack.demo.workspaces[0].id, channelId: state.channelId });
    return countItems({ endpoint: await state.storeEndpoint() }, head.pk, `${head.sk}${phonePrefix}`);
  };
  return state;
}

/**
 * After the re-run every contact is there once and indexed, and every ledger finished;
 * only a crash that fell between a claim and its count (one update to the next) can
 * leave the count short, by at most 40 contacts per call in flight (4), for the recount.
 */
export function expectRerunComplete(report: Awaited<ReturnType<typeof checkInvariants>>, contacts: number, shortBy: number) {
  expect(report.contacts).toBe(contacts);
  expect(report.violations.filter((violation) => !violation.check.startsWith('contact head count'))).toEqual([]);
  expect(shortBy).toBeGreaterThanOrEqual(0);
  expect(shortBy).toBeLessThanOrEqual(4 * 40);
}
