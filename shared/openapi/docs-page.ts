import { API_BASE_PATH, DOCS_PATH, OPENAPI_PATH } from '../routes';

/**
 * The docs page: one HTML document with Swagger UI (from the swagger-ui-dist npm
 * package, inlined: no CDN, no further requests for assets) that loads the served
 * OpenAPI document and lets a visitor "try it" against the same deployment.
 *
 * The page works out where the API is from its own URL, so it also works under an API
 * Gateway stage prefix (`/prod/docs` → `/prod/api/workspace/v1`). The API key is kept
 * in memory only (no persisted authorization). Scripts are pinned by hash in the
 * Content-Security-Policy.
 */

export interface DocsPageAssets {
  /** swagger-ui.css */
  css: string;
  /** swagger-ui-bundle.js */
  script: string;
}

export interface DocsPage {
  html: string;
  headers: Record<string, string>;
}

/** Makes text safe inside <script> or <style>: no sequence the HTML parser would act on. */
function inlineSafe(text: string, kind: 'script' | 'style'): string {
  if (kind === 'style') return text.replace(/<\/(style)/gi, '<\\/$1');
  // \x3C is "<" in JavaScript strings, regular expressions and templates alike.
  return text.replace(/<(!--|script|\/script)/gi, '\\x3C$1');
}

/** The page's own script: fetch the document, point "try it" at this deployment, start Swagger UI. */
const INIT_SCRIPT = `
(function () {
  var prefix = location.pathname.replace(/\\/+$/, '').replace(new RegExp(${JSON.stringify(`${DOCS_PATH}$`)}), '');
  var apiBase = prefix + ${JSON.stringify(API_BASE_PATH)};
  var documentUrl = prefix + ${JSON.stringify(OPENAPI_PATH)};
  var root = document.getElementById('swagger-ui');
  fetch(documentUrl, { headers: { Accept: 'application/json' } })
    .then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status);
      return response.json();
    })
    .then(function (spec) {
      spec.servers = [{ url: location.origin + apiBase, description: 'This deployment' }];
      window.ui = SwaggerUIBundle({
        spec: spec,
        dom_id: '#swagger-ui',
        deepLinking: true,
        docExpansion: 'list',
        defaultModelsExpandDepth: 0,
        displayRequestDuration: true,
        tryItOutEnabled: true,
        persistAuthorization: false,
        validatorUrl: null,
        presets: [SwaggerUIBundle.presets.apis],
        layout: 'BaseLayout'
      });
    })
    .catch(function (error) {
      root.textContent = 'Could not load the OpenAPI document from ' + documentUrl + ': ' + error.message;
    });
})();
`;

/**
 * Builds the page. Async because it loads node:crypto itself: the docs function has no
 * AWS SDK (which loads crypto anyway), so a top-level import would be its largest init cost.
 */
export async function renderDocsPage(assets: DocsPageAssets): Promise<DocsPage> {
  const { createHash } = await import('node:crypto');
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const css = inlineSafe(assets.css, 'style');
  const script = inlineSafe(assets.script, 'script');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)} ${sha256(INIT_SCRIPT)}`,
    // Swagger UI sets style attributes while it renders.
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Workspace messaging API · docs</title>
<link rel="icon" href="data:,">
<style>${css}</style>
<style>body { margin: 0; } .swagger-ui .info { margin: 32px 0 16px; }</style>
</head>
<body>
<div id="swagger-ui"><p style="font-family: sans-serif; padding: 2em">Loading the API documentation…</p></div>
<script>${script}</script>
<script>${INIT_SCRIPT}</script>
</body>
</html>
`;
  return {
    html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Cache-Control': 'public, max-age=300',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    },
  };
}
