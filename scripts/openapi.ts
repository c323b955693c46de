import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, transformSchemaObject, tsIntersection, type SchemaObject, type TransformNodeOptions } from 'openapi-typescript';
import ts from 'typescript';
import {
  buildOpenApiDocument,
  serializeDocument,
  type OpenApiDocument,
  type PortalContract,
  type PortalContracts,
  type RouteContract,
  type RouteContracts,
} from '../shared/openapi/document';
import { API_ROUTES, PORTAL_ROUTES, type ApiRoute } from '../shared/routes';
import { renderEventsDoc, renderReadme } from './readme-sections';

/**
 * `npm run openapi`: writes the OpenAPI document to docs/openapi.json, the typed client's
 * types to client/generated/api.d.ts, the README's generated sections (every endpoint,
 * the rate-limit table: scripts/readme-sections.ts) and docs/EVENTS.md's (every event
 * type's fields, from the document's `webhooks` section). All are committed; a test regenerates
 * them in memory and fails when they differ, so the docs never drift.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OPENAPI_FILE = join(ROOT, 'docs', 'openapi.json');
export const CLIENT_TYPES_FILE = join(ROOT, 'client', 'generated', 'api.d.ts');
export const README_FILE = join(ROOT, 'README.md');
export const EVENTS_DOC_FILE = join(ROOT, 'docs', 'EVENTS.md');

/** Imports every route's function file for its exported `schema` and `response` (new rows join by themselves). */
export async function loadRouteContracts(routes: readonly ApiRoute[] = API_ROUTES): Promise<RouteContracts> {
  const entries = await Promise.all(
    routes.map(async (route) => {
      const module = (await import(pathToFileURL(join(ROOT, route.entry)).href)) as Partial<RouteContract>;
      if (!module.schema) throw new Error(`${route.entry} exports no valibot \`schema\`; the OpenAPI document needs it`);
      if (!module.response)
        throw new Error(`${route.entry} exports no \`response\` (endpointResponse in shared/schema/responses.ts); the OpenAPI document needs it`);
      return [route.path, { schema: module.schema, response: module.response }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Imports every portal route's function file for its `schema` and `response` (shared/domain/portal-views.ts). */
export async function loadPortalContracts(): Promise<PortalContracts> {
  const entries = await Promise.all(
    PORTAL_ROUTES.map(async (route) => {
      const module = (await import(pathToFileURL(join(ROOT, route.entry)).href)) as Partial<PortalContract>;
      if (!module.schema || !module.response) throw new Error(`${route.entry} exports no \`schema\` or \`response\`; the OpenAPI document needs both`);
      return [route.name, { schema: module.schema, response: module.response }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Builds the document from the current route tables and function files. */
export async function generateOpenApiDocument(): Promise<OpenApiDocument> {
  return buildOpenApiDocument(await loadRouteContracts(), API_ROUTES, await loadPortalContracts());
}

/** The client's types, generated from the document (no network, no file reads). */
export async function generateClientTypes(document: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(document as never, {
    alphabetize: false,
    exportType: false,
    defaultNonNullable: false,
    silent: true,
    transform: typedPatternProperties,
  });
  return astToString(ast);
}

/** A name pattern of `patternProperties` that TypeScript can state: a fixed prefix, then digits (`^body[1-9][0-9]{0,2}$`). */
const NUMBERED_NAME = /^\^([A-Za-z_][A-Za-z0-9_]*)((?:\[[0-9-]+\](?:\{\d+(?:,\d+)?\}|[*+?])?)+)\$$/;

/**
 * openapi-typescript turns `patternProperties` into a `string` index signature over every
 * key, which then refuses the object's other properties of other types (chat/templates/send's
 * `variables: string[]` beside `body1`, `body2`, …). A numbered-name pattern becomes a
 * template-literal index signature instead (`` [key: `body${number}`]: string ``), which
 * leaves the named properties their own types.
 */
function typedPatternProperties(schema: SchemaObject, options: TransformNodeOptions): ts.TypeNode | undefined {
  if (!('patternProperties' in schema) || !schema.patternProperties) return undefined;
  const { patternProperties, ...rest } = schema;
  const signatures = Object.entries(patternProperties).map(([pattern, valueSchema]) => {
    const prefix = NUMBERED_NAME.exec(pattern)?.[1];
    if (prefix === undefined) throw new Error(`patternProperties ${pattern}: only a prefix followed by digits can be typed (scripts/openapi.ts)`);
    const key = ts.factory.createTemplateLiteralType(ts.factory.createTemplateHead(prefix), [
      ts.factory.createTemplateLiteralTypeSpan(ts.factory.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword), ts.factory.createTemplateTail('')),
    ]);
    const parameter = ts.factory.createParameterDeclaration(undefined, undefined, 'key', undefined, key);
    return ts.factory.createIndexSignature(undefined, [parameter], transformSchemaObject(valueSchema, options));
  });
  return tsIntersection([transformSchemaObject(rest as SchemaObject, options), ts.factory.createTypeLiteralNode(signatures)]);
}

export async function generateArtifacts(): Promise<{ json: string; types: string; readme: string; eventsDoc: string }> {
  const document = await generateOpenApiDocument();
  const readme = renderReadme(await readFile(README_FILE, 'utf8'), document);
  const eventsDoc = renderEventsDoc(await readFile(EVENTS_DOC_FILE, 'utf8'), document);
  return { json: serializeDocument(document), types: await generateClientTypes(document), readme, eventsDoc };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { json, types, readme, eventsDoc } = await generateArtifacts();
  await mkdir(dirname(CLIENT_TYPES_FILE), { recursive: true });
  await writeFile(OPENAPI_FILE, json);
  await writeFile(CLIENT_TYPES_FILE, types);
  await writeFile(README_FILE, readme);
  await writeFile(EVENTS_DOC_FILE, eventsDoc);
  console.log(`Wrote ${OPENAPI_FILE} (${json.length} bytes), ${CLIENT_TYPES_FILE} and the generated sections of ${README_FILE} and ${EVENTS_DOC_FILE}`);
}
