import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/bundles';

/**
 * `dependencies` are what the service needs to run — the Lambda bundles (functions/,
 * shared/), the local stack and the operator CLI (scripts/), the typed client (client/);
 * a package only the bench, the tests or the CDK app import is a devDependency, so an
 * install for running the service (`npm ci --omit=dev`) does not fetch it.
 */
const RUNTIME_FOLDERS = ['functions', 'shared', 'scripts', 'client'];

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });

/** The packages a file imports (static and dynamic imports of bare specifiers). */
const importedPackages = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^'./][^']*)'/g)]
    .map((match) => match[1])
    .filter((specifier) => !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );

describe('package.json', () => {
  it('lists as dependencies only packages the service imports at run time (the bench-only Scheduler client is a devDependency)', () => {
    // Prepare
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };

    // Act
    const imported = new Set(RUNTIME_FOLDERS.flatMap((folder) => sources(join(ROOT, folder))).flatMap(importedPackages));
    const unused = Object.keys(pkg.dependencies).filter((name) => !imported.has(name));

    // Assess
    expect(unused).toEqual([]);
    expect(pkg.devDependencies['@aws-sdk/client-scheduler']).toBeDefined();
    expect(pkg.dependencies['@aws-sdk/client-scheduler']).toBeUndefined();
  });
});
