import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The per-endpoint DynamoDB call budgets written in docs/ARCHITECTURE.md: the
 * "DynamoDB calls per request (warm authorizer)" table (endpoint | budget | why) and
 * the "Access patterns" table (pattern | key condition | index | calls).
 */

export const ARCHITECTURE_DOC = join(fileURLToPath(new URL('..', import.meta.url)), 'docs', 'ARCHITECTURE.md');

export interface DocBudget {
  row: string;
  budget: string;
  why: string;
  table: string;
}

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

/** Every row of the doc's markdown tables that have a budget/calls column, by its first cell. */
export function readDocBudgets(text = readFileSync(ARCHITECTURE_DOC, 'utf8')): Map<string, DocBudget> {
  const rows = new Map<string, DocBudget>();
  let heading = '';
  let header: string[] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
    if (!line.trim().startsWith('|')) {
      header = undefined;
      continue;
    }
    const cells = cellsOf(line);
    if (!header) {
      header = cells.map((cell) => cell.toLowerCase());
      continue;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    const budgetColumn = header.findIndex((name) => name === 'budget' || name === 'calls');
    if (budgetColumn < 0) continue;
    const whyColumn = header.findIndex((name) => name.startsWith('why'));
    const row = cells[0].replace(/`/g, '');
    // The per-request table wins over the access-pattern table for a row named in both.
    if (rows.has(row) && !/per request/i.test(heading)) continue;
    rows.set(row, { row, budget: cells[budgetColumn] ?? '', why: whyColumn >= 0 ? (cells[whyColumn] ?? '') : '', table: heading });
  }
  return rows;
}

/**
 * chat/messages/list is a list endpoint with its own round-trip target: one contact's
 * history is not a query of the channel. It checks the contact first (an unknown number
 * or id is a 404, not an empty page; a contactId needs its pointer), queries that
 * contact's history entries, and reads the page's delivery statuses in one batch (they
 * live on the chatmid pointers, which status webhooks update without touching the
 * history). Every one of those calls is constant in the channel's size and the history's
 * length. bench/scenarios.ts measures both cases against these numbers and names the
 * docs/ARCHITECTURE.md row "chat/messages/list", which must state them
 * (test/bench/round-trips.test.ts).
 */
const HISTORY_CALLS = { byPhoneNumber: 4, byContactId: 5 };
export const MESSAGE_HISTORY_TARGET = {
  path: 'chat/messages/list',
  ...HISTORY_CALLS,
  target: `chat/messages/list: ≤ ${HISTORY_CALLS.byPhoneNumber} DynamoDB calls by phoneNumber, ≤ ${HISTORY_CALLS.byContactId} by contactId (limiter, [id pointer], the contact, one history query page, one status batch: constant in channel and history size)`,
};
