import { afterAll, describe, expect, it } from 'vitest';
import type { DocBudget } from '../../bench/budgets';
import { countDbCalls, summarize } from '../../bench/counter';
import { proxyEvent } from '../../bench/events';
import { handler as listLabels } from '../../functions/labels-list';
import { handler as manageLabel } from '../../functions/labels-manage';
import { caseOf, floorOf } from '../../bench/floors';
import { documentedScenario, runScenario } from '../../bench/round-trips';
import { resolvePrincipal } from '../../shared/auth/authorize';
import { db } from '../../shared/data/client';
import { findRoute, type ApiRoute } from '../../shared/routes';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

/**
 * What the bench derives for a route that has no CASES, FLOORS or scenario entry
 * (bench/floors.ts, bench/round-trips.ts): its documented request, timed against its own
 * `handle` after the limiter, and counted against the budget row named by its path.
 * Shown on a real endpoint under a path no entry names.
 */

const labelsList = findRoute('labels/list')!;
/** labels/list's function under a path no bench entry names. */
const unlisted: ApiRoute = { ...labelsList, path: 'labels/list-unlisted' };
const counter = countDbCalls(db);
afterAll(() => counter.remove());

describe('the bench for a route without entries', () => {
  it('times the documented request in the principal’s channel', async () => {
    // Act
    const request = await caseOf(unlisted);
    // Assess
    expect(request).toEqual({ method: 'POST', params: {}, note: 'the documented request example' });
  });

  it('floors it with its own handle after the limiter: the answer of the full stack, with the same calls', async () => {
    // Prepare
    const tenant = await createTenant(1);
    await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'VIP' } });
    const { principal } = (await resolvePrincipal(tenant.adminKey))!;
    const floor = await floorOf(unlisted)();
    // Act
    let answer: Awaited<ReturnType<typeof floor>> | undefined;
    const calls = await counter.count(async () => {
      answer = await floor(proxyEvent(await caseOf(unlisted), principal));
    });
    const stack = await callApi(listLabels, { apiKey: tenant.adminKey, method: 'POST', params: {} });
    // Assess
    expect(answer?.statusCode).toBe(200);
    expect(JSON.parse(answer!.body)).toEqual({ success: true, data: stack.body.data, message: stack.body.message });
    // The limiter's update and the labels query, as the stack makes them.
    expect(summarize(calls).calls).toBe(2);
  });

  it('counts its documented request against the budget row named by its path', async () => {
    // Prepare: labels/list as if no scenario named it, its row named by its path
    const docs = new Map<string, DocBudget>([['labels/list', { row: 'labels/list', budget: '2', why: 'limiter; one query', table: 'test' }]]);
    const scenario = documentedScenario(labelsList, docs);
    // Act
    const outcome = await runScenario(scenario, counter);
    // Assess
    expect({ name: scenario.name, doc: scenario.doc, budget: scenario.budget }).toEqual({
      name: 'labels/list (its documented request)',
      doc: { row: 'labels/list', budget: '2' },
      budget: 2,
    });
    expect({ status: outcome.status, calls: summarize(outcome.calls).calls }).toEqual({ status: 200, calls: 2 });
  });

  it('refuses a budget that is not a plain count for a route counted with its documented request', () => {
    // Act
    const scenario = documentedScenario(
      unlisted,
      new Map([['labels/list-unlisted', { row: 'labels/list-unlisted', budget: '2 + pages', why: '', table: 'test' }]]),
    );
    const missing = documentedScenario(unlisted, new Map());
    // Assess
    expect([scenario.budget, missing.budget, missing.doc.budget]).toEqual([Number.NaN, Number.NaN, '(no row)']);
  });
});
