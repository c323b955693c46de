/**
 * `npm run bench:merge`: merges the sections of the last subset run
 * (bench/tmp/results.partial.json, written by `BENCH_ONLY=… npm run bench`) into the full
 * run's bench/results.json, records that run's date, command and load beside them, and
 * rewrites the results section of docs/PERFORMANCE.md and the generated tables that read
 * it. For a section measured again at full scale on its own (a quick run is refused: its
 * numbers are not the scale).
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { BenchResults } from './report';
import { mergedResults, PARTIAL_RESULTS_FILE, RESULTS_FILE, writeResultsSection } from './results-doc';

const read = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as BenchResults;

const subset = await read(PARTIAL_RESULTS_FILE);
if (subset.command.includes('BENCH_QUICK')) throw new Error(`${PARTIAL_RESULTS_FILE} is a quick run (${subset.command}): not merged`);
const merged = mergedResults(await read(RESULTS_FILE), subset);
await writeFile(RESULTS_FILE, `${JSON.stringify(merged, null, 2)}\n`);
console.log(`merged ${merged.merged!.at(-1)!.sections.join(', ')} of ${subset.command} (${subset.date}) into ${RESULTS_FILE}`);
console.log(`updated the results section of ${await writeResultsSection(merged)}`);
const { writeGeneratedDocs } = await import('./infra-docs');
console.log(`regenerated: ${writeGeneratedDocs().join(', ') || 'nothing changed'}`);
for (const target of merged.targets.filter((candidate) => subset.targets.some((measured) => measured.target === candidate.target)))
  console.log(`${target.ok === true ? 'ok  ' : 'FAIL'} ${target.target}: ${target.detail}`);
