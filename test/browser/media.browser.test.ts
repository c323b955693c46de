import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium';
import { eventually } from '../support/eventually';
import { demoAdmin, startStack, type RunningStack } from '../support/local-stack';

/**
 * The README's media walk-through ends in a browser: the link chat/media/get answers for a
 * customer's inbound photo opens in headless Chromium as the photo itself (decoded, its
 * real size), with no API key and nothing but the link.
 */
describe('an inbound photo opened in headless Chromium', () => {
  let stack: RunningStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows the photo at the link chat/media/get answers, without an API key', async () => {
    // Prepare: the customer's photo arrives and is stored
    const { adminKey, channelId } = demoAdmin(stack);
    const from = '+1 415 555 0178';
    const photo = await readFile('docs/samples/photo.jpg');
    const inbound = await stack.admin('inbound', '--channel', channelId, '--from', from, '--type', 'image', '--file', 'docs/samples/photo.jpg');
    const mediaId = await eventually(async () => {
      const history = await stack.call('chat/messages/list', { apiKey: adminKey, params: { channelId, phoneNumber: from } });
      const content = history.body.data[0]?.content;
      return content?.mediaStatus === 'stored' ? (content.mediaId as string) : undefined;
    });
    const media = await stack.call('chat/media/get', { apiKey: adminKey, params: { channelId, mediaId } });
    const page = await browser.newPage();
    const requestHeaders: Array<Record<string, string>> = [];
    page.on('request', (request) => requestHeaders.push(request.headers()));

    // Act
    const response = await page.goto(media.body.data.url);
    // Chromium shows an image it opens in an <img>: decoded, it has the photo's own size.
    const image = (await page.evaluate(
      "(async () => { const img = document.querySelector('img'); await img.decode(); return { width: img.naturalWidth, height: img.naturalHeight }; })()",
    )) as { width: number; height: number };

    // Assess
    expect(inbound.code).toBe(0);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('image/jpeg');
    expect(Buffer.from((await response?.body()) ?? []).equals(photo)).toBe(true);
    expect(image.width).toBeGreaterThan(0);
    expect(image.height).toBeGreaterThan(0);
    expect(requestHeaders.every((headers) => !('x-api-key' in headers) && !('authorization' in headers))).toBe(true);
    await page.close();
  });
});
