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
function replaceSection(readme: string, name: string, body: string, file = 'README.md'): string {
  const begin = marker(name);
  const end = marker(name, true);
  const from = readme.indexOf(begin);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no generated section ${name} (${begin} … ${end})`);
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

/** The parts of a JSON Schema the events section reads. */
interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
}
interface WebhookItem {
  post: { description: string; requestBody: { content: { 'application/json': { schema: JsonSchema } } } };
}

/** A schema's type as a reader says it: `string`, `"sent" | "delivered"`, `integer or null`, `object`. */
function typeText(schema: JsonSchema, resolve: (node: JsonSchema) => JsonSchema = (node) => node): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((value: unknown) => `\`${JSON.stringify(value)}\``).join(' \\| ');
  const parts: JsonSchema[] | undefined = (schema.anyOf ?? schema.oneOf)?.map(resolve);
  if (parts) {
    const shapes = parts.filter((part) => part.properties).length;
    const names = [...new Set(parts.map((part) => (part.properties ? 'object' : typeText(part, resolve))))];
    return `${names.join(' or ')}${shapes > 1 ? ' (one of the shapes below)' : ''}`;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  return types.map((type) => (type === 'array' ? `array of ${typeText(schema.items ?? {})}` : type)).join(' or ');
}

/** One row per field below `schema` (objects opened, nested objects' fields after their own row). */
function fieldRows(document: OpenApiDocument, schema: JsonSchema, prefix: string, seen: Set<string>): string[] {
  const resolve = (node: JsonSchema): JsonSchema => (node.$ref ? (document.components.schemas[node.$ref.split('/').pop()!] as JsonSchema) : node);
  const node = resolve(schema);
  const parts: JsonSchema[] = [...(node.anyOf ?? []), ...(node.oneOf ?? [])].map(resolve);
  if (parts.length) return parts.flatMap((part) => fieldRows(document, part, prefix, seen));
  const item = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array')) ? resolve(node.items ?? {}) : undefined;
  const object = item ?? node;
  const entries = Object.entries<JsonSchema>(object.properties ?? {});
  return entries.flatMap(([name, property]) => {
    const path = `${prefix}${item ? '[]' : ''}.${name}`;
    if (seen.has(path)) return [];
    seen.add(path);
    const field = resolve(property);
    const required = (object.required ?? []).includes(name) ? '' : ' (optional)';
    const description = (property.description ?? field.description ?? '').replaceAll('|', '\\|').replaceAll('\n', ' ');
    return [`| \`${path}\` | ${typeText(field, resolve)}${required} | ${description} |`, ...fieldRows(document, field, path, seen)];
  });
}

function eventsSection(document: OpenApiDocument): string {
  const webhooks = (document as { webhooks?: Record<string, WebhookItem> }).webhooks ?? {};
  return Object.entries(webhooks)
    .flatMap(([type, { post }]) => {
      const event = post.requestBody.content['application/json'].schema as JsonSchema;
      const body = document.components.schemas[event.$ref!.split('/').pop()!] as JsonSchema;
      return [
        `#### \`${type}\``,
        '',
        post.description.split('\n')[0],
        '',
        '| field | type | description |',
        '|---|---|---|',
        ...fieldRows(document, body.properties!.data, 'data', new Set()),
        '',
      ];
    })
    .join('\n')
    .trimEnd();
}

/** docs/EVENTS.md with its generated section (every event type's fields, from the `webhooks` section) written afresh. */
export function renderEventsDoc(eventsDoc: string, document: OpenApiDocument): string {
  return replaceSection(eventsDoc, 'event-types', eventsSection(document), 'docs/EVENTS.md');
}
