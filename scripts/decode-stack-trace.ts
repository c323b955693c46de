/**
 * `npm run --silent decode-trace -- <index.mjs.map> [trace file]`: turns the positions of a
 * minified bundle in a stack trace (`…/index.mjs:1:23456`) into the repository's files and
 * lines, using the function's source map. The maps are not in the Lambda assets: synthesis
 * publishes them in `cdk.out/source-maps/<stack>/<function>/` (docs/DEPLOYMENT.md, *Source
 * maps*), and `npm run build` writes the same ones beside dist/functions. Reads the trace
 * from the file, or from stdin.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each `index.mjs:<line>:<column>` of `trace` followed by the original position, `(src/file.ts:line:column)`. */
export function decodeStackTrace(trace: string, map: SourceMap): string {
  return trace.replace(/index\.m?js:(\d+):(\d+)/g, (position, line: string, column: string) => {
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (!entry.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return position;
    // Sources are relative to where the map was written (a bundling folder); the repository path is what is left.
    const source = entry.originalSource.replace(/^(\.\.?\/)+/, '');
    return `${position} (${source}:${entry.originalLine + 1}:${entry.originalColumn + 1})`;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [mapFile, traceFile] = process.argv.slice(2);
  if (!mapFile) {
    console.error('usage: npm run --silent decode-trace -- <index.mjs.map> [trace file]   (the trace on stdin when no file is given)');
    process.exit(2);
  }
  const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
  process.stdout.write(decodeStackTrace(readFileSync(traceFile ?? 0, 'utf8'), map));
}
