import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../shared/events/event-types';
import { API_ROUTES, DOCS_PATH } from '../../shared/routes';
import { ARTIFACTS, launchChromium } from '../support/chromium';
import { demoKey, startStack, type RunningStack } from '../support/local-stack';

/**
 * The docs page in a real browser: headless Chromium (Debian's chromium package)
 * driven by playwright-core opens /docs on a local stack, finds every endpoint and every
 * event type (the webhooks section),
 * authorizes with the demo key and sends a first request with "Try it out".
 */

describe('the docs page (/docs) in headless Chromium', () => {
  let stack: RunningStack;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    // Nothing may leave the local stack: no CDN, no validator badge, no fonts.
    page.on('request', (request) => {
      if (!request.url().startsWith(stack.url) && !request.url().startsWith('data:')) problems.push(`external request: ${request.url()}`);
    });
    await page.goto(`${stack.url}${DOCS_PATH}`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('lists every endpoint of the route table, with POST and GET', async () => {
    // Act
    const listed = await page
      .locator('.opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (block) =>
            `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );

    // Assess
    for (const route of API_ROUTES) {
      expect(listed, route.path).toContain(`POST /${route.path}`);
      expect(listed, route.path).toContain(`GET /${route.path}`);
    }
    expect(listed).toContain('GET /openapi.json');
    expect(await page.locator('.info .title').innerText()).toContain('Workspace messaging API');
  });

  it('shows the webhooks section: one POST per event type, its body schema under it', async () => {
    // Act
    const section = page.locator('.webhooks');
    const listed = await section
      .locator('.opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (block) =>
            `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );

    // Assess
    expect(await section.locator('h2').first().innerText({ timeout: 5_000 })).toMatch(/Webhooks/i);
    expect(listed.sort()).toEqual(EVENT_TYPES.map((type) => `POST ${type}`).sort());
  });

  it('sends a first request with the demo key: Authorize, then channels/list with Try it out', async () => {
    // Prepare
    const adminKey = demoKey(stack);
    await page.click('.auth-wrapper .authorize');
    const apiKeyForm = page.locator('.modal-ux .auth-container').filter({ hasText: 'ApiKeyAuth' });
    await apiKeyForm.locator('input').fill(adminKey);
    await apiKeyForm.locator('button.authorize').click();
    await page.click('.modal-ux .btn-done');

    // Act
    const operation = page.locator('#operations-Channels-channelsList');
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.execute').click();
    const live = operation.locator('.live-responses-table');
    await live.locator('tr.response .response-col_status').first().waitFor({ timeout: 15_000 });

    // Assess
    expect(await live.locator('tr.response .response-col_status').first().innerText()).toContain('200');
    const body = await live.locator('tr.response .response-col_description pre').first().innerText();
    expect(JSON.parse(body)).toMatchObject({
      success: true,
      message: 'Found 2 channel(s)',
      data: [expect.objectContaining({ id: 'ch_demoacmesales' }), expect.objectContaining({ id: 'ch_demoacmesupport' })],
    });
    expect(await operation.locator('.request-url').innerText()).toContain(`${stack.url}/api/workspace/v1/channels/list`);
    expect(await operation.locator('.curl-command').innerText()).toContain(`X-API-Key: ${adminKey}`);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: true });
    await live
      .locator('tr.response')
      .first()
      .evaluate((row) => row.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it.png') });
  });

  it('renders without errors, Content-Security-Policy violations or requests to other hosts', () => {
    // Assess
    expect(problems).toEqual([]);
  });
});
