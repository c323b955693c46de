import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm run typecheck` — the type check `npm run lint` runs and test/architecture/new-endpoint.test.ts
 * runs on its copy of the tree, by TypeScript 7 (the native compiler) — can fail: on a project
 * of two files with this project's compiler options, it exits non-zero and names the file with
 * the planted error, and only that file. The whole tree passing it is new-endpoint's claim.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const fixtures: string[] = [];
afterAll(() => {
  for (const fixture of fixtures) rmSync(fixture, { recursive: true, force: true });
});

/** A project whose package.json has only this one's `typecheck` script and whose tsconfig.json extends this one's. */
function projectOf(files: Record<string, string>): string {
  const fixture = mkdtempSync(join(tmpdir(), 'type-check-'));
  fixtures.push(fixture);
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  writeFileSync(join(fixture, 'package.json'), JSON.stringify({ private: true, type: 'module', scripts: { typecheck: scripts.typecheck } }));
  writeFileSync(join(fixture, 'tsconfig.json'), JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: ['*.ts'] }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(fixture, name), text);
  symlinkSync(join(ROOT, 'node_modules'), join(fixture, 'node_modules'), 'dir');
  return fixture;
}

describe('npm run typecheck', () => {
  it('exits non-zero naming the file with a type error that only the project’s strict options catch, and no other', () => {
    // Prepare: clean.ts needs the project's `types: ["node"]`; planted.ts is an error only under `strict`
    const fixture = projectOf({
      'clean.ts': "import { readFileSync } from 'node:fs';\n\nexport const size = (path: string): number => readFileSync(path).length;\n",
      'planted.ts': 'export function length(text: string | undefined): number {\n  return text.length;\n}\n',
    });

    // Act
    // (TypeScript 7 colours its output when FORCE_COLOR is set at all, even to 0; NO_COLOR wins.)
    const result = spawnSync('npm', ['run', '--silent', 'typecheck'], { cwd: fixture, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const output = `${result.stdout}\n${result.stderr}`;

    // Assess
    expect(result.status, output).not.toBe(0);
    expect(output).toContain("planted.ts(2,10): error TS18048: 'text' is possibly 'undefined'.");
    expect(output).not.toContain('clean.ts');
  });
});
