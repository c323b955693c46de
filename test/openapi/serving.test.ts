import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundlePath } from '../../infra/bundles';
import { OPENAPI_FILE } from '../../scripts/openapi';
import { DOCS_PATH, OPENAPI_PATH, SUPPORT_FUNCTIONS } from '../../shared/routes';

/** The public documentation functions, as bundled for Lambda (the test run builds the bundles first). */
type Handler = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
const load = async (name: string) => ((await import(pathToFileURL(bundlePath(name)).href)) as { handler: Handler }).handler;
const event = (path: string) => ({ httpMethod: 'GET', path, headers: {}, requestContext: { requestId: 'req-1' } }) as unknown as APIGatewayProxyEvent;

/** Lambda's limit for a synchronous response payload. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

describe('the public documentation routes', () => {
  it('are declared as public GET routes of support functions that never write', () => {
    // Act
    const publicRoutes = Object.values(SUPPORT_FUNCTIONS).filter((fn) => fn.publicPath === OPENAPI_PATH || fn.publicPath === DOCS_PATH);

    // Assess
    expect(publicRoutes.map((fn) => [fn.publicPath, fn.publicMethods, fn.tableActions])).toEqual([
      [OPENAPI_PATH, ['GET'], []],
      [DOCS_PATH, ['GET'], []],
    ]);
  });

  it('serve the committed docs/openapi.json byte for byte', async () => {
    // Prepare
    const handler = await load(SUPPORT_FUNCTIONS.openapi.name);

    // Act
    const response = await handler(event(OPENAPI_PATH));

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'req-1', 'X-Content-Type-Options': 'nosniff' });
    expect(response.body).toBe(await readFile(OPENAPI_FILE, 'utf8'));
  });

  it('serve the docs page as one self-contained HTML document, its scripts pinned by the CSP', async () => {
    // Prepare
    const handler = await load(SUPPORT_FUNCTIONS.docsPage.name);

    // Act
    const response = await handler(event(DOCS_PATH));
    const html = response.body;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
    const csp = String(response.headers!['Content-Security-Policy']);

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'Content-Type': 'text/html; charset=utf-8', 'X-Request-Id': 'req-1', 'X-Frame-Options': 'DENY' });
    expect(Buffer.byteLength(html)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    expect(scripts).toHaveLength(2);
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(scripts[0]).toContain('SwaggerUIBundle');
    for (const script of scripts) expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    // No CDN: nothing is loaded from another host.
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//i);
  });
});
