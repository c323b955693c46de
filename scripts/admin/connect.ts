import { resolve } from 'node:path';
import { keepFilesPrivate } from '../local/data-dir';
import { ensureTable, runningStack, stackAt, startStore, type LocalStore, type StackInfo } from '../local/store';
import type { LocalUserPool } from '../local/user-pool';
import type { UserPoolTarget } from './users';

/**
 * Where the operator CLI's commands run: AWS (TABLE_NAME without DATA_DIR), the running
 * `npm start` of a DATA_DIR, or a DATA_DIR's store opened by the CLI itself when no stack
 * runs. Locally it says on stderr which DATA_DIR it works on whenever that is not a
 * running stack's, so "No channel ch_…" is never a mystery.
 */

export interface Connection {
  mode: 'aws' | 'local';
  stack?: StackInfo;
  store?: LocalStore;
  /** The user-pool stand-in the CLI started itself on DATA_DIR (no stack runs); closed with the store. */
  userPool?: LocalUserPool;
}

/**
 * The portal's user pool: AWS's (USER_POOL_ID, the stack's output), the running stack's
 * stand-in, or the stand-in started here on DATA_DIR when no stack runs.
 */
export async function userPoolOf(connection: Connection): Promise<UserPoolTarget> {
  if (connection.mode === 'aws') {
    const userPoolId = process.env.USER_POOL_ID;
    if (!userPoolId) throw new Error('Set USER_POOL_ID (the stack output UserPoolId) to manage portal users in AWS.');
    const { CognitoIdentityProviderClient } = await import('@aws-sdk/client-cognito-identity-provider');
    return { client: new CognitoIdentityProviderClient({}), userPoolId };
  }
  const { localUserPoolClient, startUserPool } = await import('../local/user-pool');
  const running = connection.stack?.userPool;
  if (running) return { client: localUserPoolClient(running.endpoint), userPoolId: running.userPoolId };
  connection.userPool ??= await startUserPool(resolve(process.env.DATA_DIR ?? '.data'));
  return connection.userPool;
}

/** Points the data layer at AWS, a running stack's store, or a DATA_DIR's store opened here. */
export async function connect(note: (line: string) => void): Promise<Connection> {
  if (process.env.TABLE_NAME && !process.env.DYNAMODB_ENDPOINT && !process.env.DATA_DIR) return { mode: 'aws' };
  if (process.env.DYNAMODB_ENDPOINT) return { mode: 'local' };
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const stack = (await runningStack(dataDir)) ?? (process.env.DATA_DIR === undefined ? await stackOnPort(note) : undefined);
  if (stack) {
    process.env.DYNAMODB_ENDPOINT = stack.dynamodbEndpoint;
    return { mode: 'local', stack };
  }
  keepFilesPrivate();
  note(`No npm start answers for DATA_DIR ${dataDir}: working on its store directly (commands that need the chat network need the stack running).`);
  const store = await startStore(dataDir);
  await ensureTable(store.endpoint);
  process.env.DYNAMODB_ENDPOINT = store.endpoint;
  return { mode: 'local', store };
}

/**
 * Without DATA_DIR: the stack that answers on PORT (default 3000), whatever DATA_DIR it
 * was started with, so `DATA_DIR=/elsewhere npm start` and a plain `npm run admin` meet.
 */
async function stackOnPort(note: (line: string) => void): Promise<StackInfo | undefined> {
  const url = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  const identity = await stackAt(url);
  const stack = identity ? await runningStack(identity.dataDir) : undefined;
  if (stack) note(`Using the npm start at ${url} (DATA_DIR ${stack.dataDir}).`);
  return stack;
}
