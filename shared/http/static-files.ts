import { readFile } from 'node:fs/promises';
import { keptOnceLoaded } from '../cache/ttl-cache';
import type { SupportFunction } from '../routes';

export { keptOnceLoaded };

/**
 * A static file a function ships beside its bundle (`staticFiles` of its row in
 * shared/routes.ts), read as text on first use and kept for the container's life.
 * Loading it lazily keeps it out of init: Swagger UI or the OpenAPI document would
 * otherwise be parsed as part of the bundle on every cold start (docs/PERFORMANCE.md,
 * "Static files are not code").
 *
 * In a bundle (Lambda, `npm start`) the file sits next to index.mjs; run from source
 * (tests, tsx) it is read from its place in the repository.
 */
export function staticFile(owner: SupportFunction, name: string): () => Promise<string> {
  const repositoryPath = owner.staticFiles?.[name];
  if (!repositoryPath) throw new Error(`${owner.name} declares no static file ${name} in shared/routes.ts`);
  const fromSource = import.meta.url.endsWith('.ts');
  const location = fromSource ? new URL(`../../${repositoryPath}`, import.meta.url) : new URL(`./${name}`, import.meta.url);
  return keptOnceLoaded(() => readFile(location, 'utf8'));
}
