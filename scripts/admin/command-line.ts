import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { INBOUND_FLAGS } from '../local/inbound-messages';

/** How the operator CLI (scripts/admin.ts) reads its command line. */

export type Flags = Record<string, string | undefined>;

const FLAGS = [
  'name',
  'workspace',
  'role',
  'user',
  'expires-at',
  'key',
  'owner',
  'phone-number-id',
  'waba-id',
  'access-token',
  'channel',
  'status',
  'steps',
  'from',
  'text',
  'app-secret',
  'verify-token',
  'phone',
  'file',
  'errors',
  'email',
  'permission',
  'password',
  ...INBOUND_FLAGS,
];

/**
 * A file flag's path, resolved from the folder the command was typed in: npm runs
 * scripts from the repository root and says where the person was in INIT_CWD.
 */
export function fromTypedFolder(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/**
 * The command line as parseArgs reads it. A value that starts with `-` and reads as a
 * number (`--longitude -9.14`) is the flag's value, not another flag: it is passed as
 * `--longitude=-9.14`, which parseArgs takes without calling it ambiguous.
 */
export function parseCommandLine(argv: string[]): { command: string; flags: Flags; help: boolean } {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (/^--[^=]+$/.test(argv[i]) && next !== undefined && /^-(\d|\.\d)/.test(next)) args.push(`${argv[i]}=${argv[++i]}`);
    else args.push(argv[i]);
  }
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { ...Object.fromEntries(FLAGS.map((flag) => [flag, { type: 'string' as const }])), help: { type: 'boolean', short: 'h' } },
  });
  const { help, ...flags } = values as Flags & { help?: boolean };
  const command = positionals.join(' ');
  return { command, flags, help: Boolean(help) || command === 'help' };
}
