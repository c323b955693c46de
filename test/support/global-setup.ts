import type { TestProject } from 'vitest/node';
import { buildBundles } from '../../scripts/build';
import { ensureTable, startStore } from '../../scripts/local/store';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

/** One in-memory dynalite for the whole run; every test makes its own workspaces, so files never collide. */
export default async function setup(project: TestProject) {
  // The end-to-end suites start local stacks that run these bundles, as CDK would deploy them.
  await buildBundles();
  const store = await startStore(undefined);
  await ensureTable(store.endpoint);
  project.provide('dynamodbEndpoint', store.endpoint);
  return async () => store.close();
}
