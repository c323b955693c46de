import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository is self-contained: a person who clones it has every document it
 * points at. The rules the project keeps are written in README.md ("Rules every
 * endpoint keeps") and docs/, never in documents beside the repository.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * Names of documents that lived beside the repository while it was built. Spelled in
 * pieces so that this file does not name them itself.
 */
const OUTSIDE = new RegExp(['\\b(DECISIONS|INTERFACE)\\.md\\b', 'shared/' + 'reference', 'workspace-api-spec\\.md', 'whatsapp-cloud-api\\.md'].join('|'));

const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'cdk.out', '.data', 'coverage']);

/** Tracked files (git ls-files); without git, every file outside build output and node_modules. */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\0')
      .filter((file) => file !== '' && !file.split('/').includes('node_modules') && existsSync(join(ROOT, file)));
  } catch {
    const walk = (folder: string): string[] =>
      readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
        const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
        if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : walk(path);
        return entry.isFile() ? [path] : [];
      });
    return walk('');
  }
}

/** `file:line: text` of every line that matches. */
function matchingLines(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 160)}`] : [])),
  );
}

describe('the repository is self-contained', () => {
  const files = repositoryFiles();

  it('lists the repository’s files', () => {
    // Assess: the listing itself works (else the checks below would pass on nothing)
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/ARCHITECTURE.md', 'shared/routes.ts', 'package.json']));
  });

  it('no file refers to the documents that lived beside the repository', () => {
    // Act
    const references = matchingLines(files, OUTSIDE);
    // Assess
    expect(references).toEqual([]);
  });

  it('finds such a reference where there is one (the check can fail)', () => {
    // Prepare
    const lines = ['see DECISIONS' + '.md', 'see ../shared/' + 'reference/api.md', 'INTERFACE' + '.md §2', 'the route table'];
    // Act
    const found = lines.filter((line) => OUTSIDE.test(line));
    // Assess
    expect(found).toEqual(lines.slice(0, 3));
  });

  it('every relative link of a markdown file points at a file inside the repository', () => {
    // Prepare
    const markdown = files.filter((file) => file.endsWith('.md'));
    // Act
    const broken = markdown.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => match[1])
        .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
        .filter((target) => {
          const path = resolve(ROOT, dirname(file), target.split('#')[0]);
          return relative(ROOT, path).startsWith(`..${sep}`) || !existsSync(path);
        })
        .map((target) => `${file}: ${target}`),
    );
    // Assess
    expect(broken).toEqual([]);
  });
});
