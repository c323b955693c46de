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
    it(`"${scenario.doc.row}" states ${scenario.doc.budget}`, () => {
      expect(docs.get(scenario.doc.row)?.budget).toBe(scenario.doc.budget);
    });
  }

  it('covers every function with a scenario, or names where its calls are checked instead', () => {
    // Sends need the sandbox chat network; the others make no per-request table calls of their own.
    const checkedElsewhere: Record<string, string> = {
      'chat/templates/send': 'test/functions/chat-*.test.ts (budget row "chat/templates/send, chat/message/send")',
      'chat/message/send': 'test/functions/chat-*.test.ts (budget row "chat/templates/send, chat/message/send")',
      WhatsAppWebhook: 'test/functions/chat-webhook.test.ts',
      AutomationRunner: 'test/functions/automations.test.ts (one step per message)',
      AutomationRedrive: 'test/functions/automations.test.ts and the outbox design in docs/ARCHITECTURE.md',
      OpenApiDocument: 'no table calls (serves the committed document)',
      DocsPage: 'no table calls (serves a static page)',
    };
    expect(uncoveredFunctions().sort()).toEqual(Object.keys(checkedElsewhere).sort());
    expect(docs.get('chat/templates/send, chat/message/send')?.budget).toBe('9–13');
  });
});
