import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Functions stay short enough to read in one screen: every function, method and arrow
 * function of the product (shared/, functions/) and of the local stack, the operator CLI
 * and the other scripts (scripts/) is measured with the TypeScript parser, from its first
 * line to its last (nested functions count toward the function that holds them).
 */
const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * The longest function each folder may hold, in lines: the local stack and the CLI
 * (scripts/) well under the product's bound, so the stand-in never outgrows what it
 * stands in for.
 */
const BUDGETS = { scripts: 60, shared: 80, functions: 80 } as const;

interface MeasuredFunction {
  /** `file:line name`. */
  where: string;
  lines: number;
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** What a reader would call the function: its own name, or the name it is assigned to. */
function nameOf(node: ts.SignatureDeclaration): string {
  const own = node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  if (ts.isConstructorDeclaration(node)) return `${(node.parent as ts.ClassLikeDeclaration).name?.text ?? 'class'}.constructor`;
  if (own && (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) && ts.isClassLike(node.parent))
    return `${node.parent.name?.text ?? 'class'}.${own}`;
  if (own) return own;
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return '(anonymous function)';
}

function measure(file: string, text = readFileSync(join(ROOT, file), 'utf8')): MeasuredFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const found: MeasuredFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(source));
      found.push({ where: `${file}:${first} ${nameOf(node)}`, lines: lineOf(node.getEnd()) - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it.each(Object.entries(BUDGETS))('no function in %s/ is longer than %i lines', (folder, budget) => {
    // Prepare
    const functions = typeScriptFiles(folder).flatMap((file) => measure(file));
    // Act
    const tooLong = functions.filter((fn) => fn.lines > budget).map((fn) => `${fn.where}: ${fn.lines} lines`);
    // Assess
    expect(functions.length).toBeGreaterThan(20);
    expect(tooLong).toEqual([]);
  });

  it('measures a function from its first line to its last, nested ones included', () => {
    // Prepare: a fixture measured as the repository's files are
    const fixture = 'export function outer() {\n  const inner = () => {\n    return 1;\n  };\n  return inner();\n}\nclass A {\n  m() {}\n}\n';
    // Act
    const measured = measure('fixture.ts', fixture);
    // Assess
    expect(measured).toEqual([
      { where: 'fixture.ts:1 outer', lines: 6 },
      { where: 'fixture.ts:2 inner', lines: 3 },
      { where: 'fixture.ts:8 A.m', lines: 1 },
    ]);
  });
});
