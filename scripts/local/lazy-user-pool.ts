import { randomInt } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sharedUntilFailure } from './shared-until-failure';

/**
 * The user-pool stand-in's address and ids, without the stand-in: `npm start` binds its
 * port and knows its pool's ids at start (they are in demo.json and stack.json), and
 * loads cognito-local, makes the pool and seeds the demo users on the first request
 * to that port (scripts/local/user-pool.ts). A stack whose portal nobody opens never
 * loads it; one that is asked answers as if it had started with the stack.
 */

/** What DATA_DIR/cognito/portal-pool.json keeps: the ids of the pool and its app client. */
export interface PoolIds {
  userPoolId: string;
  clientId: string;
}

/** The folder under DATA_DIR that holds the stand-in's data. */
export const userPoolFolder = (dataDir: string) => join(dataDir, 'cognito');

const randomOf = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
const DIGITS_AND_LOWER = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * The pool's and app client's ids: those kept in portal-pool.json, else new ones in the
 * forms cognito-local gives (`local_` and 8 letters or digits; 26 lowercase letters or
 * digits), kept before the pool is made, which then takes them (user-pool.ts `ensurePool`).
 */
export async function poolIdsOf(folder: string): Promise<PoolIds> {
  const file = join(folder, 'portal-pool.json');
  const kept = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as PoolIds,
    () => undefined,
  );
  if (kept) return kept;
  await mkdir(folder, { recursive: true });
  const ids = { userPoolId: `local_${randomOf(`${DIGITS_AND_LOWER}ABCDEFGHIJKLMNOPQRSTUVWXYZ`, 8)}`, clientId: randomOf(DIGITS_AND_LOWER, 26) };
  await writeFile(file, JSON.stringify(ids, null, 2), { mode: 0o600 });
  return ids;
}

export interface UserPoolAddress extends PoolIds {
  /** The user-pool API endpoint (a client's `endpoint`). */
  endpoint: string;
  /** The `iss` of its tokens: `{endpoint}/{userPoolId}`. */
  issuer: string;
}

/**
 * Listens on 127.0.0.1 (a free port) for the stand-in of DATA_DIR's pool; `load` builds
 * it on the first request (given this address: the tokens' issuer names this port), and
 * every request waits for that one load. A load that fails answers that request 500 and
 * is tried again by the next.
 */
export async function listenForUserPool(
  dataDir: string,
  load: (address: UserPoolAddress) => Promise<RequestListener>,
): Promise<UserPoolAddress & { close(): Promise<void> }> {
  const ids = await poolIdsOf(userPoolFolder(dataDir));
  const loaded = sharedUntilFailure(() => load(address));
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    loaded().then(
      (app) => app(request, response),
      (error: unknown) => {
        response.writeHead(500, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ __type: 'InternalErrorException', message: `The user-pool stand-in did not start: ${(error as Error).message}` }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const address: UserPoolAddress = { endpoint, ...ids, issuer: `${endpoint}/${ids.userPoolId}` };
  return { ...address, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
