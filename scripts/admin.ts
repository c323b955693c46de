import { readFile } from 'node:fs/promises';
import { fromTypedFolder, parseCommandLine, type Flags } from './admin/command-line';
import { connect, userPoolOf, type Connection } from './admin/connect';

/**
 * The operator CLI: `npm run --silent admin -- COMMAND [FLAGS]`. Every command
 * prints one JSON object on stdout and exits 0, or prints a message on stderr and
 * exits non-zero. It works against the running `npm start` of DATA_DIR, opens
 * DATA_DIR's store itself when no stack runs, and works against AWS when TABLE_NAME
 * is set (with the usual AWS credentials and region). `help` (or `--help`) prints the
 * commands.
 */

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage: npm run --silent admin -- COMMAND [FLAGS]   (help: npm run admin -- help)

Commands:
  workspace create --name NAME
  key create --workspace WS --role admin|team [--name NAME] [--user USER_ID] [--expires-at ISO8601]
  key revoke --key KEY_ID
  user create --workspace WS --email EMAIL --role admin|team [--permission settings:api] [--password P]   (prints the password once)
  user grant --email EMAIL --permission settings:api
  user revoke --email EMAIL --permission settings:api
  channel create --workspace WS --owner USER_ID --name NAME --phone-number-id PNID [--waba-id WABA] [--access-token TOKEN]
  channel assign --channel CH --user USER_ID
  contacts recount --channel CH   (repair: finish interrupted erasures and pending contacts, rebuild the contact index and history, recount)
  contacts status-history --channel CH --phone PHONE   (audit: every opt-out and opt-in of the number, oldest first)
  contacts import --channel CH --file contacts.csv [--errors FILE]   (progress on stderr; failed rows to FILE, default contacts.csv.errors.csv)
  template sync --channel CH
  automation create --channel CH --name NAME [--status active|inactive] [--steps FILE]
  inbound --channel CH --from PHONE --text TEXT
          [--type image|video|document|audio|sticker --media-id ID [--mime-type T] [--caption C] [--filename F]]
          [--type location --latitude N --longitude N [--name N] [--address A]]
          [--type contacts --contact-name NAME [--contact-phone PHONE]]
          [--type interactive [--reply-type button_reply|list_reply] --reply-id ID --reply-title T [--description D]]
          [--type button --text T [--payload P]]   [--type reaction --message-id WAMID [--emoji E]]   [--type OTHER]
  webhook configure --app-secret SECRET [--verify-token TOKEN]   (AWS: the Meta app secret)

Every command prints one JSON object on stdout. Locally it works on DATA_DIR (default ./.data)
through the running npm start, or on its store directly when none runs; with TABLE_NAME (and
no DATA_DIR) against AWS. Files (--file, --errors, --steps) are read from where the command
was typed.`;

class UsageError extends Error {}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value;
}

type Command = (flags: Flags, connection: Connection) => Promise<object>;

const COMMANDS: Record<string, Command> = {
  'workspace create': async (flags) => (await import('./admin/commands')).workspaceCreate(required(flags, 'name')),
  'key create': keyCreate,
  'key revoke': async (flags, connection) => {
    const revoked = await (await import('./admin/commands')).keyRevoke(required(flags, 'key'), await usagePlanOf(connection));
    return { keyId: revoked.keyId, revoked: revoked.revoked };
  },
  'user create': async (flags, connection) => {
    const role = required(flags, 'role');
    if (role !== 'admin' && role !== 'team') throw new UsageError('--role must be admin or team.');
    const { userCreate } = await import('./admin/users');
    const input = { workspaceId: required(flags, 'workspace'), email: required(flags, 'email'), role, password: flags.password } as const;
    return userCreate(await userPoolOf(connection), { ...input, permissions: flags.permission === undefined ? [] : [flags.permission] });
  },
  'user grant': async (flags, connection) =>
    (await import('./admin/users')).userGrant(await userPoolOf(connection), required(flags, 'email'), required(flags, 'permission')),
  'user revoke': async (flags, connection) =>
    (await import('./admin/users')).userRevoke(await userPoolOf(connection), required(flags, 'email'), required(flags, 'permission')),
  'channel create': channelCreate,
  'channel assign': async (flags) => (await import('./admin/commands')).channelAssign(required(flags, 'channel'), required(flags, 'user')),
  'contacts recount': async (flags) => (await import('./admin/commands')).contactsRecount(required(flags, 'channel')),
  'contacts import': async (flags) => {
    const { contactsImport } = await import('./admin/contacts-import');
    // A terminal gets one line rewritten in place; a log gets a line per update.
    const progress = (line: string, done: boolean) => process.stderr.write(process.stderr.isTTY ? `\r\x1b[K${line}${done ? '\n' : ''}` : `${line}\n`);
    const errorsFile = flags.errors === undefined ? undefined : fromTypedFolder(flags.errors);
    return contactsImport({ channelId: required(flags, 'channel'), file: fromTypedFolder(required(flags, 'file')), errorsFile, progress });
  },
  'contacts status-history': async (flags) => (await import('./admin/commands')).contactStatusHistory(required(flags, 'channel'), required(flags, 'phone')),
  'template sync': async (flags, connection) => (await import('./admin/messaging')).templateSync(connection, required(flags, 'channel')),
  inbound: async (flags, connection) => (await import('./admin/messaging')).inbound(connection, required(flags, 'channel'), required(flags, 'from'), flags),
  'webhook configure': async (flags, connection) => {
    if (connection.mode !== 'aws')
      throw new (await import('./admin/commands')).OperatorError(
        'Locally the webhook secrets are in DATA_DIR/demo.json (chatNetwork); this command sets them in AWS.',
      );
    const { awsSettingsFromEnv, configureWebhookSecret } = await import('./admin/aws');
    return configureWebhookSecret(awsSettingsFromEnv(), required(flags, 'app-secret'), flags['verify-token']);
  },
  'automation create': automationCreate,
};

async function keyCreate(flags: Flags, connection: Connection): Promise<object> {
  const role = required(flags, 'role');
  if (role !== 'admin' && role !== 'team') throw new UsageError('--role must be admin or team.');
  const input = { workspaceId: required(flags, 'workspace'), role, name: flags.name, userId: flags.user, expiresAt: flags['expires-at'] } as const;
  return (await import('./admin/commands')).keyCreate({ ...input, usagePlanId: await usagePlanOf(connection) });
}

/** Against AWS, the usage plan API keys' users join (USAGE_PLAN_ID); locally none. */
async function usagePlanOf(connection: Connection): Promise<string | undefined> {
  return connection.mode === 'aws' ? (await import('./admin/aws')).awsSettingsFromEnv().usagePlanId : undefined;
}

async function channelCreate(flags: Flags, connection: Connection): Promise<object> {
  const input = {
    workspaceId: required(flags, 'workspace'),
    ownerUserId: required(flags, 'owner'),
    name: required(flags, 'name'),
    phoneNumberId: required(flags, 'phone-number-id'),
  };
  const given = { wabaId: flags['waba-id'], accessToken: flags['access-token'] };
  // In AWS the token goes to Secrets Manager; the channel item keeps only the secret's name.
  if (connection.mode === 'aws') return (await (await import('./admin/aws-sync')).createChannelInAws({ ...input, ...given })).view;
  // Locally a missing WABA id or token gets sandbox ones; with the stack running, the channel's templates are synced.
  const messaging = await import('./admin/messaging');
  const { channel, view } = await (await import('./admin/commands')).channelCreate({ ...input, ...messaging.sandboxCredentials(input.phoneNumberId, given) });
  await messaging.afterChannelCreate(connection, channel);
  return view;
}

async function automationCreate(flags: Flags): Promise<object> {
  const commands = await import('./admin/commands');
  let document: unknown;
  if (flags.steps !== undefined) {
    const file = fromTypedFolder(flags.steps);
    try {
      document = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new commands.OperatorError(`Cannot read the steps file ${file}: ${(error as Error).message}`);
    }
  }
  return commands.automationCreate(required(flags, 'channel'), required(flags, 'name'), flags.status, document);
}

/** Runs the command line; returns the exit code. */
async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const command = COMMANDS[parsed.command];
  if (!command) {
    console.error(`${parsed.command ? `Unknown command '${parsed.command}'.` : 'No command given.'}\n\n${USAGE}`);
    return 1;
  }
  const connection = await connect((line) => console.error(line)).catch((error: Error) => {
    console.error(`Cannot open the store: ${error.message}`);
    return process.exit(2);
  });
  try {
    process.stdout.write(`${JSON.stringify(await command(parsed.flags, connection))}\n`);
    return 0;
  } catch (error) {
    const message = (error as Error).message;
    console.error(error instanceof UsageError || (error as Error).name === 'TypeError' ? `${message}\n\n${USAGE}` : message);
    return 1;
  } finally {
    await connection.userPool?.close();
    await connection.store?.close();
  }
}

process.exit(await main(process.argv.slice(2)));
