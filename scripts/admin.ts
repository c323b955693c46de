import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureTable, runningStack, startStore, type LocalStore, type StackInfo } from './local/store';
import { INBOUND_FLAGS } from './local/inbound-messages';

/**
 * The operator CLI: `npm run --silent admin -- COMMAND [FLAGS]`. Every command
 * prints one JSON object on stdout and exits 0, or prints a message on stderr and
 * exits non-zero. It works against the running `npm start` of DATA_DIR, opens
 * DATA_DIR's store itself when no stack runs, and works against AWS when TABLE_NAME
 * is set (with the usual AWS credentials and region).
 */

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Commands:
  workspace create --name NAME
  key create --workspace WS --role admin|team [--name NAME] [--user USER_ID] [--expires-at ISO8601]
  key revoke --key KEY_ID
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
  webhook configure --app-secret SECRET [--verify-token TOKEN]   (AWS: the Meta app secret)`;

class UsageError extends Error {}

function required(flags: Record<string, string | undefined>, name: string): string {
  const value = flags[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value;
}

interface Connection {
  mode: 'aws' | 'local';
  stack?: StackInfo;
  store?: LocalStore;
}

/** Points the data layer at AWS, the running stack's store, or DATA_DIR's store opened here. */
async function connect(): Promise<Connection> {
  if (process.env.TABLE_NAME && !process.env.DYNAMODB_ENDPOINT && !process.env.DATA_DIR) return { mode: 'aws' };
  if (process.env.DYNAMODB_ENDPOINT) return { mode: 'local' };
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const stack = await runningStack(dataDir);
  if (stack) {
    process.env.DYNAMODB_ENDPOINT = stack.dynamodbEndpoint;
    return { mode: 'local', stack };
  }
  const store = await startStore(dataDir);
  await ensureTable(store.endpoint);
  process.env.DYNAMODB_ENDPOINT = store.endpoint;
  return { mode: 'local', store };
}

async function run(argv: string[], connection: Connection): Promise<object> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: Object.fromEntries(
      [
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
        ...INBOUND_FLAGS,
      ].map((flag) => [flag, { type: 'string' as const }]),
    ),
  });
  const flags = values as Record<string, string | undefined>;
  const commands = await import('./admin/commands');
  const messaging = await import('./admin/messaging');
  const command = positionals.join(' ');
  switch (command) {
    case 'workspace create':
      return commands.workspaceCreate(required(flags, 'name'));
    case 'key create': {
      const role = required(flags, 'role');
      if (role !== 'admin' && role !== 'team') throw new UsageError('--role must be admin or team.');
      const created = await commands.keyCreate({
        workspaceId: required(flags, 'workspace'),
        role,
        name: flags.name,
        userId: flags.user,
        expiresAt: flags['expires-at'],
      });
      if (connection.mode === 'aws') await (await import('./admin/aws-sync')).afterKeyCreate(required(flags, 'workspace'), created.userId);
      return created;
    }
    case 'key revoke': {
      const revoked = await commands.keyRevoke(required(flags, 'key'));
      if (connection.mode === 'aws') await (await import('./admin/aws-sync')).afterKeyRevoke(revoked.user);
      return { keyId: revoked.keyId, revoked: revoked.revoked };
    }
    case 'channel create': {
      const phoneNumberId = required(flags, 'phone-number-id');
      const given = { wabaId: flags['waba-id'], accessToken: flags['access-token'] };
      if (connection.mode === 'aws') {
        // In AWS the token goes to Secrets Manager; the channel item keeps only the secret's name.
        const { view } = await (
          await import('./admin/aws-sync')
        ).createChannelInAws({
          workspaceId: required(flags, 'workspace'),
          ownerUserId: required(flags, 'owner'),
          name: required(flags, 'name'),
          phoneNumberId,
          wabaId: given.wabaId,
          accessToken: given.accessToken,
        });
        return view;
      }
      // Locally a missing WABA id or token gets sandbox ones; with the stack running, the channel's templates are synced.
      const { channel, view } = await commands.channelCreate({
        workspaceId: required(flags, 'workspace'),
        ownerUserId: required(flags, 'owner'),
        name: required(flags, 'name'),
        phoneNumberId,
        ...(connection.mode === 'local' ? messaging.sandboxCredentials(phoneNumberId, given) : given),
      });
      await messaging.afterChannelCreate(connection, channel);
      return view;
    }
    case 'channel assign':
      return commands.channelAssign(required(flags, 'channel'), required(flags, 'user'));
    case 'contacts recount':
      return commands.contactsRecount(required(flags, 'channel'));
    case 'contacts import': {
      const { contactsImport } = await import('./admin/contacts-import');
      // A terminal gets one line rewritten in place; a log gets a line per update.
      const progress = (line: string, done: boolean) => process.stderr.write(process.stderr.isTTY ? `\r\x1b[K${line}${done ? '\n' : ''}` : `${line}\n`);
      return contactsImport({ channelId: required(flags, 'channel'), file: required(flags, 'file'), errorsFile: flags.errors, progress });
    }
    case 'contacts status-history':
      return commands.contactStatusHistory(required(flags, 'channel'), required(flags, 'phone'));
    case 'template sync':
      return messaging.templateSync(connection, required(flags, 'channel'));
    case 'inbound':
      return messaging.inbound(connection, required(flags, 'channel'), required(flags, 'from'), flags);
    case 'webhook configure': {
      if (connection.mode !== 'aws')
        throw new commands.OperatorError('Locally the webhook secrets are in DATA_DIR/demo.json (chatNetwork); this command sets them in AWS.');
      const { awsSettingsFromEnv, configureWebhookSecret } = await import('./admin/aws');
      return configureWebhookSecret(awsSettingsFromEnv(), required(flags, 'app-secret'), flags['verify-token']);
    }
    case 'automation create': {
      const file = flags.steps;
      let document: unknown;
      if (file !== undefined) {
        try {
          document = JSON.parse(await readFile(file, 'utf8'));
        } catch (error) {
          throw new commands.OperatorError(`Cannot read the steps file ${file}: ${(error as Error).message}`);
        }
      }
      return commands.automationCreate(required(flags, 'channel'), required(flags, 'name'), flags.status, document);
    }
    default:
      throw new UsageError(command ? `Unknown command '${command}'.` : 'No command given.');
  }
  void connection;
}

const connection = await connect().catch((error: Error) => {
  console.error(`Cannot open the store: ${error.message}`);
  process.exit(2);
});
let exitCode = 0;
try {
  const result = await run(process.argv.slice(2), connection);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  const message = (error as Error).message;
  console.error(error instanceof UsageError || (error as Error).name === 'TypeError' ? `${message}\n\n${USAGE}` : message);
  exitCode = 1;
} finally {
  await connection.store?.close();
}
process.exit(exitCode);
