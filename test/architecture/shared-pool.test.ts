import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../scripts/import-cycles';
import { SHARED_POOL_FILES, STATE_LEFT_BEHIND } from '../support/shared-pool';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The test modules `file` imports, itself included, through any number of test modules. */
function withTestImports(graph: ReadonlyMap<string, readonly string[]>, file: string): string[] {
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    for (const imported of graph.get(current) ?? []) visit(imported);
  };
  visit(file);
  return [...seen];
}

/** What `file` or a test module it imports leaves behind for the next file in its worker, as "what in which module". */
function stateLeftBehind(graph: ReadonlyMap<string, readonly string[]>, file: string): string[] {
  return withTestImports(graph, file).flatMap((module) => {
    const source = readFileSync(join(ROOT, module), 'utf8');
    return STATE_LEFT_BEHIND.filter(({ pattern }) => pattern.test(source)).map(({ what }) => `${what} in ${module}`);
  });
}

/**
 * The files of the shared pool (vitest.config.ts, project `shared`) share their worker's
 * modules with the files that ran before them, so none may leave state behind
 * (test/support/shared-pool.ts says what that is).
 */
describe('the shared test pool', () => {
  const graph = importGraph(['test']);

  it('holds only test files that exist', () => {
    // Assess
    const missing = SHARED_POOL_FILES.filter((file) => !file.endsWith('.test.ts') || !existsSync(join(ROOT, file)));
    expect(missing).toEqual([]);
  });

  it('holds no file that, or whose test modules, leave state behind', () => {
    // Act
    const found = SHARED_POOL_FILES.flatMap((file) => stateLeftBehind(graph, file).map((what) => `${file}: ${what}`));
    // Assess
    expect(found).toEqual([]);
  });

  it('would refuse files that set the environment, mock an SDK client or provide a queue, themselves or through a helper', () => {
    // Act
    const config = stateLeftBehind(graph, 'test/shared/config.test.ts');
    const httpStack = stateLeftBehind(graph, 'test/shared/http-stack.test.ts');
    const templates = stateLeftBehind(graph, 'test/functions/chat-templates.test.ts');
    const delivery = stateLeftBehind(graph, 'test/events/delivery.test.ts');
    // Assess
    expect(config).toContain('an environment variable set or removed in test/shared/config.test.ts');
    expect(httpStack).toContain('an SDK client mocked or patched in test/shared/http-stack.test.ts');
    expect(templates).toContain('an environment variable set or removed in test/support/chat.ts');
    expect(delivery).toContain('a queue provided in test/support/event-queue.ts');
  });
});
