/**
 * `npm run infra-docs`: writes the generated parts of docs/DEPLOYMENT.md (outputs,
 * environment, memory and timeouts, resource budget) and docs/PERFORMANCE.md (the cost
 * model) from the synthesized templates (no bundling, no credentials) and the committed
 * bench results. Each part sits between `<!-- generated:<name> begin … -->` and
 * `<!-- generated:<name> end -->`; test/infra/generated-docs.test.ts fails when a committed
 * part differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { costSection } from './cost-model';
import type { BenchResults } from './report';
import { deploymentTables } from '../infra/deployment-docs';
import { DOCUMENTED_STAGES, synthStage, type SynthesizedStage } from '../infra/synth-offline';
import { ROOT } from '../infra/bundles';

export const DEPLOYMENT_DOC = join(ROOT, 'docs', 'DEPLOYMENT.md');
export const PERFORMANCE_DOC = join(ROOT, 'docs', 'PERFORMANCE.md');
export const BENCH_RESULTS = join(ROOT, 'bench', 'results.json');

const begin = (name: string) => `<!-- generated:${name} begin (npm run infra-docs; edits here are overwritten) -->`;
const end = (name: string) => `<!-- generated:${name} end -->`;

/** The syntheses the generated parts are written from: the documented stages, and dev with its optional settings on. */
export function documentedSyntheses(): Record<'dev' | 'prod' | 'devWithRetention', SynthesizedStage> {
  return {
    dev: synthStage(DOCUMENTED_STAGES.dev),
    prod: synthStage(DOCUMENTED_STAGES.prod),
    // Optional variables appear only when their setting is on: the environment table is read from a synthesis that turns them on.
    devWithRetention: synthStage({ ...DOCUMENTED_STAGES.dev, messageContentRetentionDays: '30' }),
  };
}

/** The generated parts of each doc, by file and part name (from `syntheses` when given: a synthesis takes seconds). */
export function generatedParts({ dev, prod, devWithRetention } = documentedSyntheses()): Record<string, Record<string, string>> {
  const results = JSON.parse(readFileSync(BENCH_RESULTS, 'utf8')) as BenchResults;
  return {
    [DEPLOYMENT_DOC]: deploymentTables(dev, prod, devWithRetention),
    [PERFORMANCE_DOC]: { 'cost-model': costSection(dev, prod, results) },
  };
}

/** The doc's text with each named part replaced; a part whose markers are missing is an error. */
export function withParts(text: string, parts: Record<string, string>): string {
  let next = text;
  for (const [name, content] of Object.entries(parts)) {
    const [from, to] = [next.indexOf(begin(name)), next.indexOf(end(name))];
    if (from < 0 || to < from) throw new Error(`the doc has no markers for the generated part "${name}": ${begin(name)} … ${end(name)}`);
    next = `${next.slice(0, from)}${begin(name)}\n\n${content}\n\n${next.slice(to)}`;
  }
  return next;
}

/** Writes every generated part into its doc; returns the files that changed. */
export function writeGeneratedDocs(): string[] {
  const changed: string[] = [];
  for (const [file, parts] of Object.entries(generatedParts())) {
    const text = readFileSync(file, 'utf8');
    const next = withParts(text, parts);
    if (next !== text) {
      writeFileSync(file, next);
      changed.push(file);
    }
  }
  return changed;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = writeGeneratedDocs();
  console.log(changed.length ? `Updated ${changed.map((file) => file.slice(ROOT.length + 1)).join(', ')}` : 'The generated docs are current.');
}
