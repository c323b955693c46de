import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isValidPhoneNumber } from 'libphonenumber-js/max';

/**
 * The log audit: after the whole run, every captured log line (workers, local
 * stacks, their service.log, CLI stderr) is searched for API keys, chat-network
 * access tokens, webhook app secrets and verify tokens, Bearer credentials and
 * unmasked phone numbers. A finding fails the run (exit code 1).
 */

export const ARTIFACTS = resolve(import.meta.dirname, '..', 'artifacts');
export const LOG_ROOT = join(ARTIFACTS, 'logs');

export interface Leak {
  kind: 'api key' | 'access token' | 'secret' | 'bearer credential' | 'phone number';
  file: string;
  line: number;
  match: string;
}

const API_KEY = /wsk_[A-Za-z0-9_-]{16,}/g;
const ACCESS_TOKEN = /\bEAA[A-Za-z0-9]{12,}/g;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/-]{12,}/gi;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?/g;
/** Values of these keys are numbers that identify no person (business phone-number ids, WABA ids, times). */
const NON_PERSONAL_KEYS =
  /"(phoneNumberId|phone_number_id|wabaId|displayPhoneNumber|display_phone_number|timestamp|at|latencyMs|requestTimeEpoch|xray_trace_id|windowStart|expiresAt|outboxAt)"\s*:\s*("[^"]*"|-?\d+(\.\d+)?)/g;
/** A run of digits as people write phone numbers: optional +, spaces, dots, dashes, brackets. */
const PHONE_LIKE = /(?<![\w./#*-])\+?\(?\d[\d ().-]{6,22}\d(?![\w*])/g;

/** Phone numbers in a line that are written out in full (a masked one has `*` in it and never matches). */
export function unmaskedPhones(line: string): string[] {
  const text = line.replace(NON_PERSONAL_KEYS, ' ').replace(UUID, ' ').replace(ISO_TIME, ' ');
  const found: string[] = [];
  for (const candidate of text.match(PHONE_LIKE) ?? []) {
    const digits = candidate.replace(/\D/g, '');
    if (digits.length < 8 || digits.length > 15) continue;
    const international = digits.startsWith('00') ? digits.slice(2) : digits;
    if (isValidPhoneNumber(`+${international}`)) found.push(candidate.trim());
  }
  return found;
}

/** Every leak in one text (one file); `secrets` are literal values that must never appear. */
export function findLeaks(text: string, file: string, secrets: string[]): Leak[] {
  const leaks: Leak[] = [];
  const literal = secrets.filter((secret) => secret.length >= 8);
  text.split('\n').forEach((line, i) => {
    const at = (kind: Leak['kind'], match: string) => leaks.push({ kind, file, line: i + 1, match: match.length > 80 ? `${match.slice(0, 80)}…` : match });
    for (const match of line.match(API_KEY) ?? []) at('api key', match);
    for (const match of line.match(ACCESS_TOKEN) ?? []) at('access token', match);
    for (const match of line.match(BEARER) ?? []) at('bearer credential', match);
    for (const secret of literal) if (line.includes(secret)) at('secret', secret);
    for (const match of unmaskedPhones(line)) at('phone number', match);
  });
  return leaks;
}

/** Secrets the suite's fixtures use: every stack's webhook secrets, and the chat tests' fixed ones. */
async function knownSecrets(stackDirs: string[]): Promise<string[]> {
  const secrets: string[] = [];
  for (const dir of stackDirs) {
    try {
      const file = JSON.parse(readFileSync(join(dir, 'chat-network.json'), 'utf8')) as { appSecret?: string; verifyToken?: string };
      secrets.push(file.appSecret ?? '', file.verifyToken ?? '');
    } catch {
      // a stack that never got that far
    }
  }
  for (const module of ['./chat', '../chat/helpers']) {
    try {
      const fixtures = (await import(/* @vite-ignore */ module)) as Record<string, unknown>;
      for (const value of Object.values(fixtures)) {
        if (typeof value === 'string' && /SECRET|TOKEN/i.test(Object.keys(fixtures).find((key) => fixtures[key] === value) ?? '')) secrets.push(value);
        if (value && typeof value === 'object' && 'accessToken' in value) secrets.push(String((value as { accessToken: unknown }).accessToken));
      }
    } catch {
      // fixtures moved: the patterns above still catch keys and Graph tokens
    }
  }
  if (process.env.WHATSAPP_APP_SECRET) secrets.push(process.env.WHATSAPP_APP_SECRET);
  return [...new Set(secrets.filter(Boolean))];
}

export interface AuditReport {
  files: number;
  lines: number;
  bytes: number;
  stacks: number;
  secretsSearched: number;
  leaks: Leak[];
}

/** Reads every captured file of a run (and its stacks' service logs) and searches them. */
export async function auditLogs(dir: string): Promise<AuditReport> {
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.log'))
        .map((name) => join(dir, name))
    : [];
  const stackDirs = existsSync(join(dir, 'stacks.txt')) ? [...new Set(readFileSync(join(dir, 'stacks.txt'), 'utf8').split('\n').filter(Boolean))] : [];
  for (const stackDir of stackDirs) {
    const logs = join(stackDir, 'logs');
    if (existsSync(logs)) for (const name of readdirSync(logs)) files.push(join(logs, name));
  }
  const secrets = await knownSecrets(stackDirs);
  const report: AuditReport = { files: files.length, lines: 0, bytes: 0, stacks: stackDirs.length, secretsSearched: secrets.length, leaks: [] };
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    report.bytes += text.length;
    report.lines += text.split('\n').filter(Boolean).length;
    report.leaks.push(...findLeaks(text, file, secrets));
  }
  return report;
}

/** A fresh capture folder for this run; folders of runs older than a day are removed. */
export function prepareLogCapture(): string {
  mkdirSync(LOG_ROOT, { recursive: true });
  for (const name of readdirSync(LOG_ROOT)) {
    const path = join(LOG_ROOT, name);
    if (Date.now() - statSync(path).mtimeMs > 24 * 3600_000) rmSync(path, { recursive: true, force: true });
  }
  const dir = join(LOG_ROOT, `run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

// ---- Figures for docs/RELIABILITY.md ----------------------------------------------------

const FIGURES_DIR = join(ARTIFACTS, 'reliability');

/** Records one test file's figures (merged into test/artifacts/reliability.json after the run). */
export function recordFigures(section: string, figures: Record<string, unknown>): void {
  mkdirSync(FIGURES_DIR, { recursive: true });
  writeFileSync(join(FIGURES_DIR, `${section}.json`), `${JSON.stringify({ ...figures, recordedAt: new Date().toISOString() }, null, 2)}\n`);
}

/** Merges every section's figures into test/artifacts/reliability.json. */
export function mergeFigures(): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  if (existsSync(FIGURES_DIR)) {
    for (const name of readdirSync(FIGURES_DIR)
      .filter((file) => file.endsWith('.json'))
      .sort()) {
      merged[name.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(FIGURES_DIR, name), 'utf8'));
    }
  }
  writeFileSync(join(ARTIFACTS, 'reliability.json'), `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}

/** The teardown's audit: prints findings and sets a failing exit code when anything leaked. */
export async function auditRun(dir: string): Promise<void> {
  const report = await auditLogs(dir);
  recordFigures('log-audit', {
    files: report.files,
    lines: report.lines,
    bytes: report.bytes,
    localStacks: report.stacks,
    literalSecretsSearched: report.secretsSearched,
    leaks: report.leaks.length,
  });
  mergeFigures();
  if (report.leaks.length === 0) {
    console.log(
      `Log audit: ${report.lines} log lines in ${report.files} files (${report.stacks} local stacks) searched; no key, token, secret or unmasked phone number.`,
    );
    // A clean run's capture is not kept (a failing one is, for the findings).
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  console.error(`\nLOG AUDIT FAILED: ${report.leaks.length} secret(s) or unmasked phone number(s) in the logs of this run (${dir}):`);
  for (const leak of report.leaks.slice(0, 50)) console.error(`  ${leak.kind}: ${leak.match}  (${leak.file}:${leak.line})`);
  process.exitCode = 1;
}
