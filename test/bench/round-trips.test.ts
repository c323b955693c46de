import { afterAll, describe, expect, it } from 'vitest';
import { readDocBudgets } from '../../bench/budgets';
import { usePrivateStore } from '../support/private-store';

/**
 * DynamoDB calls per request, per endpoint case (bench/scenarios.ts), against the
 * budgets written in docs/ARCHITECTURE.md. Counts are deterministic: the real handlers
 * run against dynalite with the authorizer's lookup warm, and an SDK middleware on the
 * shared document client counts the handler's calls (only the counted call's own: not a
 * webhook the sandbox chat network delivers meanwhile). No timings are asserted here;
 * `npm run bench` measures those.
 *
 * The file has a store of its own, as the bench does: the outbox index and the local
 * queue span every tenant, so other files' automations would change the counts of the
 * re-drive and the runner.
 */

const store = await usePrivateStore();
const { countDbCalls, summarize } = await import('../../bench/counter');
const { activeScenarios, closeScenarioChatNetwork, runScenario, uncoveredFunctions } = await import('../../bench/round-trips');
const { db } = await import('../../shared/data/client');
const { getChannelPointer } = await import('../../shared/data/channels');

const counter = countDbCalls(db);
afterAll(async () => {
  counter.remove();
  await closeScenarioChatNetwork();
  await store.close();
});
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

describe('the webhook with an inbound media message', () => {
  it("records the media pending and queues its fetch, and none of the fetch's calls is on its path", async () => {
    // Prepare
    const scenario = activeScenarios().find((candidate) => candidate.name.startsWith('WhatsAppWebhook, an inbound image'))!;
    // Act
    const outcome = await runScenario(scenario, counter);
    const media = summarize(outcome.calls).commands.filter((command) => command.endsWith(' MEDIA'));
    // Assess: 200 only when the chat network saw no request for the media (the scenario checks); the fetch reads the
    // media record (Get MEDIA) and records its outcome (Update MEDIA), the webhook only Puts it (a Put names no key target)
    expect(outcome.status).toBe(200);
    expect(media).toEqual([]);
    expect(summarize(outcome.calls).calls).toBe(scenario.budget);
  });
});

describe('budgets in docs/ARCHITECTURE.md', () => {
  for (const scenario of activeScenarios()) {
    it(`"${scenario.doc.row}" states ${scenario.doc.budget}`, () => {
      expect(docs.get(scenario.doc.row)?.budget).toBe(scenario.doc.budget);
    });
  }

  it('covers every function of API_ROUTES and SUPPORT_FUNCTIONS with a scenario', () => {
    // Act
    const uncovered = uncoveredFunctions();
    // Assess
    expect(uncovered).toEqual([]);
  });
});

describe('the call counter', () => {
  it('counts only the calls of the counted work, not those other work in the process makes meanwhile', async () => {
    // Prepare: work started outside the count, which makes its call while the count runs
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const elsewhere = (async () => {
      await gate;
      await getChannelPointer('pn_elsewhere');
    })();
    // Act
    const calls = await counter.count(async () => {
      release();
      await elsewhere;
      await getChannelPointer('pn_counted');
    });
    // Assess
    expect(calls.map((call) => call.command)).toEqual(['GetItemCommand']);
  });
});
