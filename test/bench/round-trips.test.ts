import { afterAll, describe, expect, it } from 'vitest';
import { readDocBudgets } from '../../bench/budgets';
import { countDbCalls, summarize } from '../../bench/counter';
import { activeScenarios, runScenario, uncoveredFunctions } from '../../bench/round-trips';
import { db } from '../../shared/data/client';

/**
 * DynamoDB calls per request, per endpoint case (bench/scenarios.ts), against the
 * budgets written in docs/ARCHITECTURE.md. Counts are deterministic: the real handlers
 * run against dynalite with the authorizer's lookup warm, and an SDK middleware on the
 * shared document client counts the handler's calls. No timings are asserted here;
 * `npm run bench` measures those.
 */

const counter = countDbCalls(db);
afterAll(() => counter.remove());
const docs = readDocBudgets();

describe('DynamoDB round trips per request', () => {
  for (const scenario of activeScenarios()) {
    const test = scenario.knownIssue ? it.fails : it;
    const title = `${scenario.name}: at most ${scenario.budget} call(s), no Scan${scenario.knownIssue ? ` — KNOWN ISSUE: ${scenario.knownIssue}` : ''}`;
    test(title, async () => {
      // Prepare + Act
      const outcome = await runScenario(scenario, counter);
      const summary = summarize(outcome.calls);
      // Assess
      expect({ status: outcome.status, body: outcome.status === 200 ? undefined : outcome.body }).toEqual({ status: 200, body: undefined });
      expect(summary.scans).toBe(0);
      // Deterministic: the exact count (and the commands, in the failure message) catch a change either way.
      expect({ calls: summary.calls, commands: summary.commands }).toEqual({ calls: scenario.expected ?? scenario.budget, commands: expect.any(Array) });
      expect(summary.calls).toBeLessThanOrEqual(scenario.budget);
    });
  }
});

describe('budgets in docs/ARCHITECTURE.md', () => {
  for (const scenario of activeScenarios()) {
    const row = docs.get(scenario.doc.row);
    if (!row) {
      it.todo(`docs/ARCHITECTURE.md: add the budget row "${scenario.doc.row}" (${scenario.doc.budget})`);
      continue;
    }
    it(`"${scenario.doc.row}" states ${scenario.doc.budget}`, () => {
      expect(row.budget).toBe(scenario.doc.budget);
    });
  }
  for (const name of uncoveredFunctions()) it.todo(`bench/scenarios.ts: a round-trip scenario for ${name}`);
});
