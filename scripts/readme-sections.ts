import { DEFAULT_RATE_LIMITS, rateLimitSetting } from '../shared/config';
import type { OpenApiDocument } from '../shared/openapi/document';
import { API_ROUTES, type ApiRoute, type RateLimitClass } from '../shared/routes';

/**
 * The README's generated sections, written by `npm run openapi` with the document and
 * checked fresh by test/openapi/document.test.ts: every endpoint (its summary, its
 * rate-limit class, its documented request as a curl command) and the rate-limit table.
 * Each sits between a begin and an end marker; the rest of the README is prose. So a new
 * route row is in the README without an edit, and the README never lists a class wrongly.
 */

const marker = (name: string, end = false) =>
  `<!-- ${end ? '/' : ''}generated:${name}${end ? '' : ' (npm run openapi writes this; edits here are overwritten)'} -->`;

/** The text between a section's markers, replaced. */
function replaceSection(readme: string, name: string, body: string): string {
  const begin = marker(name);
  const end = marker(name, true);
  const from = readme.indexOf(begin);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no generated section ${name} (${begin} … ${end})`);
  return `${readme.slice(0, from + begin.length)}\n${body}\n${readme.slice(to)}`;
}

/** A route's documented request example, as the document states it. */
function requestExample(document: OpenApiDocument, route: ApiRoute): unknown {
  const post = document.paths[`/${route.path}`]?.post as { requestBody?: { content?: Record<string, { example?: unknown }> } } | undefined;
  return post?.requestBody?.content?.['application/json']?.example ?? {};
}

/** A shell word in single quotes. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function endpointsSection(document: OpenApiDocument, routes: readonly ApiRoute[]): string {
  const table = [
    '| endpoint | what it does | rate-limit class |',
    '|---|---|---|',
    ...routes.map((route) => `| \`${route.path}\` | ${route.summary} | \`${route.rateLimitClass}\` |`),
  ];
  const requests = routes.flatMap((route) => [
    `# ${route.path}`,
    `curl -s $BASE/${route.path} -H "X-API-Key: $KEY" -H 'Content-Type: application/json' -d ${quoted(JSON.stringify(requestExample(document, route)))}`,
  ]);
  return [...table, '', '```sh', ...requests, '```'].join('\n');
}

function rateLimitsSection(routes: readonly ApiRoute[]): string {
  const classes = Object.keys(DEFAULT_RATE_LIMITS) as RateLimitClass[];
  return [
    '| class | endpoints | default | setting |',
    '|---|---|---|---|',
    ...classes.map((rateClass) => {
      const paths = routes.filter((route) => route.rateLimitClass === rateClass).map((route) => route.path);
      return `| \`${rateClass}\` | ${paths.join(', ') || '—'} | ${DEFAULT_RATE_LIMITS[rateClass]} | \`${rateLimitSetting(rateClass)}\` |`;
    }),
  ].join('\n');
}

/** The README with its generated sections written afresh from the document and the route table. */
export function renderReadme(readme: string, document: OpenApiDocument, routes: readonly ApiRoute[] = API_ROUTES): string {
  return replaceSection(replaceSection(readme, 'endpoints', endpointsSection(document, routes)), 'rate-limits', rateLimitsSection(routes));
}
