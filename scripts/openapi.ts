import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { generateOpenApiDocument, serializeDocument, type OpenApiDocument } from '../shared/openapi/document';

/**
 * `npm run openapi`: writes the OpenAPI document to docs/openapi.json and the typed
 * client's types to client/generated/api.d.ts. Both are committed; a test regenerates
 * them in memory and fails when they differ, so the docs never drift.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OPENAPI_FILE = join(ROOT, 'docs', 'openapi.json');
export const CLIENT_TYPES_FILE = join(ROOT, 'client', 'generated', 'api.d.ts');

/** The client's types, generated from the document (no network, no file reads). */
export async function generateClientTypes(document: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(document as never, { alphabetize: false, exportType: false, defaultNonNullable: false, silent: true });
  return astToString(ast);
}

export async function generateArtifacts(): Promise<{ json: string; types: string }> {
  const document = await generateOpenApiDocument();
  return { json: serializeDocument(document), types: await generateClientTypes(document) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { json, types } = await generateArtifacts();
  await mkdir(dirname(CLIENT_TYPES_FILE), { recursive: true });
  await writeFile(OPENAPI_FILE, json);
  await writeFile(CLIENT_TYPES_FILE, types);
  console.log(`Wrote ${OPENAPI_FILE} (${json.length} bytes) and ${CLIENT_TYPES_FILE}`);
}
