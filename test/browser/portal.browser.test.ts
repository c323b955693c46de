import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { KEY_CACHE_MS } from '../../shared/auth/authorize';
import { ROOT } from '../../infra/bundles';
import { API_BASE_PATH, SUPPORT_FUNCTIONS } from '../../shared/routes';
import { eventually } from '../support/eventually';
import { ARTIFACTS, launchChromium } from '../support/chromium';
import { demoKey, startStack, type RunningStack } from '../support/local-stack';
import { startReceiver } from '../support/receiver';

const PORTAL_PAGE_PATH = SUPPORT_FUNCTIONS.portalPage.publicPath!;

/**
 * The developer portal's page (INTERFACE §17) in headless Chromium on a local stack:
 * a demo user of demo.json signs in through the Cognito stand-in, creates a key, copies
 * it, uses it on the API, finds the call in the key's request log and revokes it; a user
 * without `settings:api` sees why and no key controls; axe-core finds no serious
 * accessibility violation; the strict CSP holds (no violation, no request elsewhere).
 */

interface DemoPortal {
  url: string;
  cognitoEndpoint: string;
  users: Array<{ email: string; password: string; permissions: string[] }>;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

describe('the developer portal (/portal/) in headless Chromium', () => {
  let stack: RunningStack;
  let browser: Browser;
  let portal: DemoPortal;
  let axeSource: string;
  const problems: string[] = [];

  beforeAll(async () => {
    // The request log is the handlers' INFO lines in DATA_DIR/logs/service.log, as npm start writes them by default.
    [stack, browser] = await Promise.all([startStack({ env: { POWERTOOLS_LOG_LEVEL: 'INFO' } }), launchChromium()]);
    portal = (stack.demo as unknown as { portal: DemoPortal }).portal;
    axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** A fresh browser context (nothing shared between users), watched for errors, CSP violations and requests to other hosts. */
  async function openPortal(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // A refused call the page shows (a wrong password, a route a deployment lacks) is no problem; anything else, a CSP violation included, is.
      if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()))
        problems.push(`console error: ${message.text()}`);
    });
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(stack.url) && !url.startsWith(portal.cognitoEndpoint) && !url.startsWith('data:')) problems.push(`external request: ${url}`);
    });
    await page.goto(`${stack.url}${PORTAL_PAGE_PATH}/`);
    return { context, page };
  }

  async function signIn(page: Page, email: string) {
    const user = portal.users.find((candidate) => candidate.email === email)!;
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(`Signed in as ${email}`, { exact: true }).first().waitFor();
  }

  /** The README's walk-through (*Your own key in the developer portal*): its numbered steps, demo user, bold buttons and curl path. */
  async function readmeWalkthrough() {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const section = readme.split('\n## Your own key in the developer portal\n')[1].split('\n## ')[0];
    return {
      steps: section.split('\n').filter((line) => /^\d+\. /.test(line)).length,
      userIndex: Number(/\.portal\.users\[(\d+)\]/.exec(section)![1]),
      buttons: [...section.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]),
      curlPath: new URL(/curl -s -H "X-API-Key: <the key>" ([^\s`]+)/.exec(section)![1]).pathname,
    };
  }

  async function seriousViolations(page: Page): Promise<string[]> {
    // Evaluated through the DevTools protocol, which the page's CSP does not govern (an injected <script> would be refused).
    await page.evaluate(axeSource);
    // Page code as strings: the test is compiled without the DOM's types.
    const violations = (await page.evaluate('axe.run().then((result) => result.violations)')) as AxeViolation[];
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  }

  it('serves the page with the pool it signs in to and a strict Content-Security-Policy', async () => {
    // Act
    const response = await fetch(`${stack.url}${PORTAL_PAGE_PATH}/`);
    const csp = response.headers.get('content-security-policy') ?? '';

    // Assess
    expect(response.status).toBe(200);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toMatch(/script-src 'sha256-[^']+'(;|$)/);
    expect(csp).toContain(`connect-src 'self' ${new URL(portal.cognitoEndpoint).origin};`);
    expect(await response.text()).toContain(JSON.stringify(portal.cognitoEndpoint));
  });

  it("walks the README's five lines: signs in as its demo user, creates a key shown once, copies it, finds its call in the request log, and revokes it", async () => {
    // Arrange: the walk-through as the README tells it (its demo user, its buttons in order, its curl)
    const walk = await readmeWalkthrough();
    expect(walk.steps).toBe(5);
    expect(walk.buttons).toEqual(['Create key', 'Copy', 'Usage', 'Refresh', 'Revoke']);
    const [create, copy, usage, refresh, revoke] = walk.buttons;
    const { context, page } = await openPortal();
    await signIn(page, portal.users[walk.userIndex].email);
    const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;
    const press = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true }).click();

    // Act: create and copy
    await page.getByLabel('Name', { exact: true }).fill('Browser test');
    await page.getByLabel('Expires (optional)').fill(nextYear);
    await press(page, create);
    const newKey = page.locator('[data-testid="new-api-key"]');
    await newKey.filter({ hasText: /\S/ }).waitFor();
    const apiKey = (await newKey.innerText()).trim();
    await press(page, copy);
    await page.getByText('Copied.').waitFor();
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    const row = page.locator('[data-testid="api-key-row"]').filter({ hasText: 'Browser test' });
    await row.waitFor();

    // Act: use it on the API as the README's curl does, then open the key's usage and find the call in its request log
    const used = await fetch(`${stack.url}${walk.curlPath}`, { headers: { 'X-API-Key': copied } });
    await press(row, usage);
    const logged = await eventually(async () => {
      await press(page, refresh);
      const found = page.locator('[data-testid="request-row"]').filter({ hasText: 'channels/list' });
      return (await found.count()) > 0 ? (await found.first().innerText()).replace(/\s+/g, ' ') : undefined;
    });
    const rowText = await row.innerText();
    const usageText = await page.locator('#usage').innerText();
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'portal.png'), fullPage: true });
    const violations = await seriousViolations(page);

    // Act: revoke
    page.once('dialog', (dialog) => void dialog.accept());
    await press(row, revoke);
    await row.getByText('revoked', { exact: true }).waitFor();
    const refused = await eventually(async () => {
      const response = await fetch(`${stack.baseUrl}/channels/list`, { headers: { 'X-API-Key': apiKey } });
      return response.status === 200 ? undefined : response.status;
    }, 3 * KEY_CACHE_MS);
    const stored = await page.evaluate('({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie, url: location.href })');
    await context.close();

    // Assess
    expect(portal.users[walk.userIndex]).toMatchObject({ email: 'team@acme.example', permissions: ['settings:api'] });
    expect(walk.curlPath).toBe(`${API_BASE_PATH}/channels/list`);
    expect(apiKey).toMatch(/^wsk_/);
    expect(copied).toBe(apiKey);
    expect(used.status).toBe(200);
    expect(logged).toMatch(/GET channels\/list 200 \d+ ms$/);
    expect(rowText).toContain(`${nextYear} 23:59:59 UTC`);
    expect(rowText).toContain('active');
    expect(rowText).not.toContain(apiKey);
    expect(usageText).toMatch(/api_read\s+1\s+1/);
    expect(violations).toEqual([]);
    // Within KEY_CACHE_MS of the revocation (test/e2e/portal-api.e2e.test.ts holds the API to the 10 seconds).
    expect(refused).toBe(401);
    expect(stored).toEqual({ local: 0, session: 0, cookie: '', url: `${stack.url}${PORTAL_PAGE_PATH}/` });
  });

  it('rotates a key: the new one is shown once and works, the old row shows revoked and the old key stops', async () => {
    // Arrange
    const { context, page } = await openPortal();
    await signIn(page, 'admin@acme.example');
    await page.getByLabel('Name', { exact: true }).fill('Rotated in the browser');
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const newKey = page.locator('[data-testid="new-api-key"]');
    await newKey.filter({ hasText: /\S/ }).waitFor();
    const oldKey = (await newKey.innerText()).trim();
    const rows = page.locator('[data-testid="api-key-row"]').filter({ hasText: 'Rotated in the browser' });
    await rows.first().waitFor();

    // Act
    page.once('dialog', (dialog) => void dialog.accept());
    await rows.first().getByRole('button', { name: 'Rotate', exact: true }).click();
    await newKey.filter({ hasNotText: oldKey }).filter({ hasText: /\S/ }).waitFor();
    const rotatedKey = (await newKey.innerText()).trim();
    await rows.filter({ hasText: 'revoked' }).waitFor();
    const statuses = await rows.locator('td:nth-child(6)').allInnerTexts();
    const works = await fetch(`${stack.baseUrl}/channels/list`, { headers: { 'X-API-Key': rotatedKey } });
    const refused = await eventually(async () => {
      const response = await fetch(`${stack.baseUrl}/channels/list`, { headers: { 'X-API-Key': oldKey } });
      return response.status === 200 ? undefined : response.status;
    }, 3 * KEY_CACHE_MS);
    await context.close();

    // Assess
    expect(rotatedKey).toMatch(/^wsk_/);
    expect(rotatedKey).not.toBe(oldKey);
    expect(statuses.sort()).toEqual(['active', 'revoked']);
    expect(works.status).toBe(200);
    expect(refused).toBe(401);
  });

  it("shows the channel's webhook subscriptions and their deliveries, and redelivers one with the same webhook-id", async () => {
    // Arrange: the demo admin subscribes a receiver on Acme Support (the team user's channel); a message arrives and is delivered
    const receiver = await startReceiver('/portal-browser');
    onTestFinished(() => receiver.close());
    const channelId = 'ch_demoacmesupport';
    const subscription = await stack.call('webhooks/manage', { apiKey: demoKey(stack), params: { channelId, url: receiver.url, events: 'message.received' } });
    receiver.secrets.push(subscription.body.data.secret);
    await stack.admin('inbound', '--channel', channelId, '--from', '+14155550192', '--text', 'hello page');
    await eventually(async () => (receiver.received.length >= 1 ? true : undefined));
    const eventId = receiver.received[0].webhookId;
    const { context, page } = await openPortal();
    await signIn(page, 'team@acme.example');

    // Act: open the subscription's deliveries
    const hook = page.locator('[data-testid="webhook-row"]').filter({ hasText: receiver.url });
    await hook.getByRole('button', { name: 'Deliveries', exact: true }).click();
    const delivery = hook.locator('[data-testid="delivery-row"]').filter({ hasText: eventId });
    await delivery.waitFor();
    const deliveryText = (await delivery.innerText()).replace(/\s+/g, ' ');
    const hookText = await hook.innerText();
    const violations = await seriousViolations(page);

    // Act: redeliver it
    await delivery.getByRole('button', { name: 'Redeliver', exact: true }).click();
    await page.getByText(`Event ${eventId} queued for delivery again.`).waitFor();
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined));
    await context.close();

    // Assess
    expect(hookText).toContain(`Channel ${channelId} · active · events: message.received`);
    expect(deliveryText).toContain(`${eventId} message.received succeeded 1 200`);
    expect(violations).toEqual([]);
    expect(receiver.received.map((received) => [received.webhookId, received.verifiedBy.length])).toEqual([
      [eventId, 1],
      [eventId, 1],
    ]);
  });

  it('shows a user without settings:api why, and no key controls', async () => {
    // Arrange
    const { context, page } = await openPortal();

    // Act
    await signIn(page, 'viewer@acme.example');
    const message = await page.locator('#no-permission').innerText();
    const createButtons = await page.getByRole('button', { name: 'Create key' }).count();
    const rows = await page.locator('[data-testid="api-key-row"]').count();
    const violations = await seriousViolations(page);
    await context.close();

    // Assess
    expect(message).toContain('settings:api');
    expect(createButtons).toBe(0);
    expect(rows).toBe(0);
    expect(violations).toEqual([]);
  });

  it('has no serious accessibility violations before sign-in, refuses a wrong password in words, and links to the API docs', async () => {
    // Arrange
    const { context, page } = await openPortal();
    const violations = await seriousViolations(page);

    // Act
    await page.getByLabel('Email').fill('team@acme.example');
    await page.getByLabel('Password').fill('Not-the-password-1!');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const error = await page.getByRole('alert').filter({ hasText: /\S/ }).first().innerText();
    await page.getByRole('link', { name: 'API docs' }).click();
    await page.waitForURL(`${stack.url}${SUPPORT_FUNCTIONS.docsPage.publicPath}`);
    const docsTitle = await page.title();
    await context.close();

    // Assess
    expect(violations).toEqual([]);
    expect(error).toMatch(/password|username/i);
    expect(docsTitle).toMatch(/API/);
  });

  it('runs without errors, Content-Security-Policy violations or requests to other hosts', () => {
    // Assess
    expect(problems).toEqual([]);
  });
});
