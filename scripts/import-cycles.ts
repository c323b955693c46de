import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The TypeScript files under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The import graph of the TypeScript files under `dirs` (paths relative to the
 * repository): every static import and export-from, type-only ones included (a circle of
 * types is still a circle of modules), dynamic `import()` and `require`, resolved as the
 * compiler resolves them; imports of files outside `dirs` (packages, tooling) are left out.
 */
export function importGraph(dirs: readonly string[]): Map<string, string[]> {
  const files = dirs.flatMap((dir) => sourceFiles(resolve(ROOT, dir)));
  const inGraph = new Set(files);
  const options: ts.CompilerOptions = { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, allowJs: false };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
      .filter((target): target is string => target !== undefined && inGraph.has(target));
    graph.set(relative(ROOT, file), [...new Set(targets.map((target) => relative(ROOT, target)))].sort());
  }
  return graph;
}

/**
 * The import circles of `graph`: each strongly connected component of more than one
 * file (or a file that imports itself), as one circle through it, in file order.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) components.push(component);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return components.map((component) => circleThrough(graph, new Set(component)));
}

/** One circle through a strongly connected component: from its first file, a shortest way back to it. */
function circleThrough(graph: ReadonlyMap<string, readonly string[]>, component: Set<string>): string[] {
  const start = [...component].sort()[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const circle = [file];
        while (circle[0] !== start) circle.unshift(cameFrom.get(circle[0])!);
        return [...circle, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.slice(2);
  const cycles = importCycles(importGraph(dirs.length ? dirs : ['shared', 'functions']));
  for (const cycle of cycles) console.log(cycle.join(' → '));
  console.log(`${cycles.length} import circle(s)`);
  process.exitCode = cycles.length ? 1 : 0;
}
