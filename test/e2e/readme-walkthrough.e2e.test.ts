import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../support/local-stack';
import { scriptCommand } from '../support/script-bundles';

/**
 * Every shell command of the README's walk-through ("Try it" up to "Every endpoint") and
 * of the operator CLI's examples, run in order in one bash as a newcomer pastes them,
 * against a fresh `npm start` (PORT and DATA_DIR set, as the README's setup lines honour
 * them). A command that exits non-zero, or answers `"success":false` where the README
 * shows no failure, fails the test; where the README documents an answer (`# {…}` after
 * the command), the real answer must have its shape: the same keys (more only where the
 * README writes `…`), the same types, the same strings and booleans — a string holding
 * `…` stands for any text in its place (ids, timestamps), numbers are compared by type.
 * A placeholder the README asks the reader to fill in (`wamid.…`, `wh_…`, `<nextCursor>`)
 * gets the value the earlier answers showed, as the reader would copy it.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

/** What the walk-through cannot run as written, and why. */
const NOT_RUN: ReadonlyArray<{ command: RegExp; why: string }> = [
  { command: /automation create --channel ch_… --name NAME/, why: 'a synopsis of the flags, not a command' },
  {
    command: /contacts import --channel ch_… --file contacts\.csv/,
    why: "the reader's own CSV (the import's own tests run it: test/scripts/contacts-import*)",
  },
];

/** The README sections whose shell blocks the walk-through runs: from the first heading up to (not including) the second. */
const SECTIONS: ReadonlyArray<[from: string, to: string]> = [
  ['## Try it', '## Every endpoint'],
  ['## The operator CLI', '### Importing contacts'],
];

interface ReadmeCommand {
  text: string;
  /** The answer the README documents for it, as text (`{…}` with the README's ellipses), if any. */
  documented?: string;
}

/** A complete bash command: it parses, and its last line does not continue. */
function isComplete(text: string): boolean {
  if (text.trimEnd().endsWith('\\')) return false;
  const check = spawnSync('bash', ['-n'], { input: text, encoding: 'utf8' });
  return check.status === 0 && check.stderr === '';
}

/** The first balanced `{…}` of `text` (strings respected), or undefined. */
function firstObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if ((char === '}' || char === ']') && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

/** Where the comment on a command's last line starts (its `#`, outside quotes), if it has one. */
function commentStart(line: string): number | undefined {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote) {
      if (char === '\\' && quote === '"') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '#' && /\s/.test(line[i - 1] ?? ' ')) return i;
  }
  return undefined;
}

/** The commands of one shell block (without their comments), each with the answer documented in the comment lines after it or on its own last line. */
function commandsOf(block: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let pending: string[] = [];
  for (const line of block.split('\n')) {
    if (pending.length === 0 && (line.trim() === '' || line.trimStart().startsWith('#'))) {
      const last = commands.at(-1);
      if (last && line.trimStart().startsWith('#')) last.documented = (last.documented ?? '') + line.replace(/^\s*#\s?/, '');
      continue;
    }
    pending.push(line);
    const text = pending.join('\n');
    if (!isComplete(text)) continue;
    const comment = commentStart(pending.at(-1)!);
    const uncommented = comment === undefined ? text : text.slice(0, text.length - pending.at(-1)!.length + comment).trimEnd();
    commands.push({ text: uncommented, documented: comment === undefined ? undefined : pending.at(-1)!.slice(comment + 1) });
    pending = [];
  }
  expect(pending, 'a shell block ends inside a command').toEqual([]);
  return commands.map(({ text, documented }) => ({ text, documented: documented === undefined ? undefined : firstObject(documented) }));
}

/** The walk-through: the commands of every shell block in SECTIONS, in the README's order. */
function walkThrough(readme: string): ReadmeCommand[] {
  return SECTIONS.flatMap(([from, to]) => {
    const start = readme.indexOf(`\n${from}\n`);
    const end = readme.indexOf(`\n${to}\n`, start);
    expect(
      [start, end].every((at) => at >= 0),
      `README sections ${from} … ${to}`,
    ).toBe(true);
    return [...readme.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => commandsOf(match[1]));
  });
}

/** Marks what the README elides: `,…}` or `,…,` more keys, `,…]` more items, `{…}` any object, a bare `…` any value. */
const MORE = '__more__';
const ANY = '__any__';

/** A documented answer as a value to compare with: the README's ellipses become markers; `{"keyId","apiKey"}` lists keys of any value. */
function parseDocumented(text: string): unknown {
  const marked = text
    .replaceAll('{…}', `{"${MORE}":true}`)
    .replaceAll(',…}', `,"${MORE}":true}`)
    .replaceAll(',…,', `,"${MORE}":true,`)
    .replaceAll(',…]', `,"${MORE}"]`)
    .replace(/:…(?=[,}\]])/g, `:"${ANY}"`)
    .replace(/:N\b/g, `:"${ANY}"`);
  try {
    return JSON.parse(marked) as unknown;
  } catch {
    const keysOnly = marked.replace(/([{,])\s*"([^"]+)"\s*(?=[,}])/g, `$1"$2":"${ANY}"`);
    try {
      return JSON.parse(keysOnly) as unknown;
    } catch (error) {
      throw new Error(`The README documents an answer that is not JSON with ellipses: ${text}`, { cause: error });
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Where `actual` differs from the documented shape `documented` (empty: it matches). */
function differences(documented: unknown, actual: unknown, at = '$'): string[] {
  if (documented === ANY) return [];
  if (typeof documented === 'string' && documented.includes('…')) {
    const pattern = new RegExp(`^${documented.split('…').map(escapeRegExp).join('[\\s\\S]*')}$`);
    return typeof actual === 'string' && pattern.test(actual) ? [] : [`${at}: documented "${documented}", got ${JSON.stringify(actual)}`];
  }
  if (kind(documented) !== kind(actual)) return [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
  if (typeof documented === 'number') return [];
  if (Array.isArray(documented)) {
    const items = documented.filter((item) => item !== MORE);
    const open = items.length < documented.length;
    const list = actual as unknown[];
    if (open ? list.length < items.length : list.length !== items.length)
      return [`${at}: documented ${items.length}${open ? ' or more' : ''} item(s), got ${list.length}: ${JSON.stringify(actual)}`];
    return items.flatMap((item, index) => differences(item, list[index], `${at}[${index}]`));
  }
  if (documented !== null && typeof documented === 'object') {
    const { [MORE]: open, ...keys } = documented as Record<string, unknown>;
    const object = actual as Record<string, unknown>;
    const missing = Object.keys(keys).filter((key) => !(key in object));
    const extra = open ? [] : Object.keys(object).filter((key) => !(key in keys));
    if (missing.length || extra.length)
      return [`${at}: keys missing ${JSON.stringify(missing)}, undocumented ${JSON.stringify(extra)} in ${JSON.stringify(actual)}`];
    return Object.entries(keys).flatMap(([key, value]) => differences(value, object[key], `${at}.${key}`));
  }
  return documented === actual ? [] : [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
}

/** The README's placeholders the reader fills in from earlier answers: `wamid.…`, `wh_…` and the like, and `<nextCursor>`. */
class Placeholders {
  private readonly seen = new Map<string, string>();

  /** Remembers the ids and the cursor an answer shows (the last of each kind wins, as the reader copies the latest). */
  record(output: string): void {
    for (const [id, prefix] of output.matchAll(/\b(wamid\.|(?:ws|usr|ch|key|wh|evt)_)[A-Za-z0-9_=-]+/g)) this.seen.set(`${prefix}…`, id);
    const cursor = /"nextCursor":"([^"]+)"/.exec(output);
    if (cursor) this.seen.set('<nextCursor>', cursor[1]);
  }

  fill(command: string): string {
    return command.replace(/\b(?:wamid\.|(?:ws|usr|ch|key|wh|evt)_)…|<nextCursor>/g, (placeholder) => {
      const value = this.seen.get(placeholder);
      expect(value, `no earlier answer shows a value for ${placeholder}`).toBeDefined();
      return value!;
    });
  }
}

const shellQuote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * What `npm run --silent admin -- ARGS` runs, as a bash function the walk-through's shell
 * defines: npm runs the "admin" script, `tsx scripts/admin.ts`, in the repository root with
 * ARGS appended unchanged and INIT_CWD set to where the command was typed. The function runs
 * the same program (the run's bundle of scripts/admin.ts, test/support/script-bundles.ts)
 * with the same ARGS, directory and INIT_CWD, so each README line still runs as written;
 * only npm and tsx, each started once per command, are left out. Any other npm command goes
 * to npm itself.
 */
function adminThroughBundle(): string {
  const [program, args] = scriptCommand('admin');
  const admin = [program, ...args].map(shellQuote).join(' ');
  return [
    'npm() {',
    '  if [ "$1" = run ] && [ "$2" = --silent ] && [ "$3" = admin ] && [ "$4" = -- ]; then',
    `    shift 4; (INIT_CWD="$PWD" && export INIT_CWD && cd ${shellQuote(ROOT)} && exec ${admin} "$@")`,
    '  else command npm "$@"; fi',
    '}',
  ].join('\n');
}

/** One bash for the whole walk-through, so the variables a command sets (BASE, KEY, STEPS, TOKEN, …) hold for the next. */
class Shell {
  private readonly bash;
  private stdout = '';
  private stderr = '';
  private waiting?: () => void;

  constructor(env: NodeJS.ProcessEnv) {
    this.bash = spawn('bash', ['--norc', '--noprofile'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.bash.stdout.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.waiting?.();
    });
    this.bash.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.bash.stdin.write(`${adminThroughBundle()}\n`);
  }

  /** Runs `command` (its stdin closed) and answers its stdout, stderr and exit code. */
  async run(command: string): Promise<{ stdout: string; stderr: string; code: number }> {
    const marker = `__done_${Math.random().toString(36).slice(2)}__`;
    this.stdout = '';
    this.stderr = '';
    this.bash.stdin.write(`{\n${command}\n} </dev/null\nprintf '\\n${marker}%s\\n' "$?"\n`);
    const done = new RegExp(`\\n${marker}(\\d+)\\n$`);
    while (!done.test(this.stdout)) await new Promise<void>((resolveWait) => (this.waiting = resolveWait));
    const [, code] = done.exec(this.stdout)!;
    return { stdout: this.stdout.replace(done, ''), stderr: this.stderr, code: Number(code) };
  }

  close(): void {
    this.bash.stdin.end();
  }
}

/** A port nothing listens on: the README's receiver port, not started, so the subscription's deliveries fail and wait for a retry. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as { port: number };
  await new Promise((resolveClose) => server.close(resolveClose));
  return port;
}

/** The JSON objects a command printed, in order (`curl …; curl …` prints two). */
function answersIn(stdout: string): unknown[] {
  const answers: unknown[] = [];
  for (let rest = stdout; ;) {
    const object = firstObject(rest);
    if (object === undefined || !rest.trimStart().startsWith('{')) return answers;
    answers.push(JSON.parse(object));
    rest = rest.slice(rest.indexOf(object) + object.length);
  }
}

/**
 * What the reader's pause gives the stack. Between the Welcome Flow's trigger and the
 * webhook subscription the README has a page of prose; by the time a reader registers the
 * subscription, the flow's `hello_world` has long been sent and delivered, so the customer's
 * message is the only event the subscription gets (the deliveries answer the README
 * documents). Run back to back, the flow's message.status events could reach the new
 * subscription first, fail, and hold the customer's message behind them. So before the
 * subscription the walk-through waits for what that pause ensures: the flow's last event,
 * its message's `delivered`, is in the events feed. An event is written to the feed by the
 * step that fans it out, which reads the subscriptions right after that write
 * (shared/domain/event-delivery.ts), well before this feed read and the subscription's
 * own request reach the stack.
 */
const WELCOME_FLOW_RECIPIENT = '14155550177';
const beforeSubscribing = (command: string) => /\/webhooks\/manage\b/.test(command);

/** Whether the events feed, read page by page from its start as events/list documents, holds the Welcome Flow message's `delivered`. */
async function welcomeFlowDelivered(shell: Shell): Promise<boolean> {
  for (let cursor = ''; ;) {
    const { stdout } = await shell.run(`curl -s "$BASE/events/list?channelId=$CH&limit=100${cursor}" -H "X-API-Key: $KEY"`);
    const page = JSON.parse(stdout) as { data: Array<{ type: string; data: { to?: string; status?: string } }>; nextCursor: string | null };
    const delivered = ({ type, data }: (typeof page.data)[number]) =>
      type === 'message.status' && data.to === WELCOME_FLOW_RECIPIENT && data.status === 'delivered';
    if (page.data.some(delivered)) return true;
    if (page.data.length === 0 || page.nextCursor === null) return false;
    cursor = `&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
}

const isRead = (command: string) => /^curl\b[^\n]*\/(?:[a-z-]+\/)*(?:list|status|deliveries)\b/.test(command);

describe('the README’s walk-through, command by command', () => {
  let stack: RunningStack;
  let shell: Shell;
  let receiverPort: string;

  beforeAll(async () => {
    stack = await startStack({ env: { WEBHOOK_RETRY_SCHEDULE: '600' } });
    receiverPort = String(await closedPort());
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: new URL(stack.url).port,
      DATA_DIR: stack.dataDir,
      TMPDIR: await mkdtemp(join(tmpdir(), 'wsapi-readme-')),
    };
    delete env.DYNAMODB_ENDPOINT;
    delete env.TABLE_NAME;
    shell = new Shell(env);
  });
  afterAll(async () => {
    shell?.close();
    await stack?.stop();
  });

  it('runs every command without a failure, each answer in the shape the README documents', { timeout: 600_000 }, async () => {
    // Prepare
    const readme = (await readFile(join(ROOT, 'README.md'), 'utf8')).replaceAll('127.0.0.1:4000', `127.0.0.1:${receiverPort}`);
    const commands = walkThrough(readme).filter(({ text }) => !NOT_RUN.some(({ command }) => command.test(text)));
    const placeholders = new Placeholders();
    for (const { text, documented } of commands) {
      // Act: the command as the reader runs it; a read that documents a later state (delivered, a retry) is asked again until it shows it
      const command = placeholders.fill(text);
      if (beforeSubscribing(command))
        for (const deadline = Date.now() + 60_000; !(await welcomeFlowDelivered(shell));) {
          expect(Date.now() < deadline, 'the Welcome Flow’s message is delivered before the subscription').toBe(true);
          await delay(500);
        }
      const expected = documented === undefined ? undefined : parseDocumented(documented);
      let result = await shell.run(command);
      const answer = () => answersIn(result.stdout)[0];
      if (expected !== undefined && isRead(command) && differences(expected, answer()).length > 0)
        for (const deadline = Date.now() + 30_000; Date.now() < deadline && differences(expected, answer()).length > 0;) {
          await delay(1000); // a reader asks again after a while; faster would spend the read rate limit (120 a minute)
          result = await shell.run(command);
        }
      const assigned = /^([A-Z_]+)=\$\(/.exec(command)?.[1];
      if (assigned && expected !== undefined) result = { ...result, stdout: (await shell.run(`printf '%s' "$${assigned}"`)).stdout }; // the README documents the value it keeps
      placeholders.record(result.stdout);
      // Assess (softly: one run names every command that differs)
      const label = `${command}\n${result.stderr}`;
      expect.soft(result.code, label).toBe(0);
      if (expected !== undefined) expect.soft(differences(expected, answer()), label).toEqual([]);
      if (expected === undefined)
        for (const json of answersIn(result.stdout) as Array<{ success?: boolean }>)
          expect.soft(json.success, `${label}\nanswered ${result.stdout}`).not.toBe(false);
    }
  });
});
