/**
 * The developer portal's page (docs/PORTAL.md): portal/index.html with portal/portal.css
 * and portal/portal.js placed into it, and the user pool the browser signs in to as a
 * JSON data block (`#portal-config`, never executed). Nothing runs that the
 * Content-Security-Policy does not pin by hash: no 'unsafe-inline', no inline handlers
 * or style attributes, and the page may connect to its own origin (the portal API) and
 * the user pool's endpoint only.
 */

export interface PortalPageAssets {
  html: string;
  css: string;
  script: string;
}

/** What the browser needs to sign in: the user-pool API endpoint, the pool and its app client. */
export interface PortalConfig {
  cognitoEndpoint: string;
  userPoolId: string;
  clientId: string;
}

export interface PortalPage {
  html: string;
  headers: Record<string, string>;
}

/** The slots of portal/index.html the renderer fills; each appears exactly once. */
const SLOTS = { css: '/*PORTAL_CSS*/', script: '/*PORTAL_SCRIPT*/', config: '/*PORTAL_CONFIG*/' } as const;

/** Text safe inside <script> or <style>: no sequence the HTML parser would act on (`\u003c` is "<" in JSON and JavaScript alike). */
const inlineSafe = (text: string) => text.replace(/<(!--|\/?script|\/style)/gi, '\\u003c$1');

export async function renderPortalPage(assets: PortalPageAssets, portal: PortalConfig): Promise<PortalPage> {
  const { createHash } = await import('node:crypto');
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  // CSS has no \u escape in that sense, and the page's own stylesheet holds no "<".
  if (assets.css.includes('<')) throw new Error('portal/portal.css may not contain "<"');
  const script = inlineSafe(assets.script);
  const config = inlineSafe(JSON.stringify(portal));
  let html = assets.html;
  for (const [slot, value] of [
    [SLOTS.css, assets.css],
    [SLOTS.script, script],
    [SLOTS.config, config],
  ] as const) {
    if (html.split(slot).length !== 2) throw new Error(`portal/index.html must hold ${slot} exactly once`);
    html = html.replace(slot, () => value);
  }
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(assets.css)}`,
    // The page's favicon is the empty data: URL (no request for /favicon.ico).
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(portal.cognitoEndpoint).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    },
  };
}
