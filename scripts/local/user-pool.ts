import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Router } from 'cognito-local/lib/server/Router';
import { createServer } from 'cognito-local/lib/server/server';
import { DateClock, MessagesService, TriggersService, type Services } from 'cognito-local/lib/services';
import { CognitoServiceFactoryImpl } from 'cognito-local/lib/services/cognitoService';
import { StormDBDataStoreFactory } from 'cognito-local/lib/services/dataStore/stormDb';
import { ConsoleMessageSender } from 'cognito-local/lib/services/messageDelivery/consoleMessageSender';
import { MessageDeliveryService } from 'cognito-local/lib/services/messageDelivery/messageDelivery';
import { otp } from 'cognito-local/lib/services/otp';
import { JwtTokenGenerator } from 'cognito-local/lib/services/tokenGenerator';
import { UserPoolServiceFactoryImpl } from 'cognito-local/lib/services/userPoolService';
import pino from 'pino';
import { PORTAL_PERMISSIONS, PORTAL_USER_ATTRIBUTES } from '../../shared/routes';
import { USER_POOL_PASSWORD_POLICY } from '../../infra/user-pool-settings';

/**
 * The local stand-in for the portal's Amazon Cognito user pool: cognito-local, run in
 * this process on 127.0.0.1 with its data under DATA_DIR/cognito. It speaks the
 * user-pool API (the operator CLI and the portal use @aws-sdk/client-cognito-identity-provider
 * against it as against AWS) and signs RS256 tokens whose keys it publishes at
 * `{issuer}/.well-known/jwks.json`. Its signing key ships inside the package, so its
 * tokens prove nothing outside this machine: it listens on loopback only.
 */

export interface LocalUserPool {
  /** The user-pool API endpoint (a client's `endpoint`). */
  endpoint: string;
  userPoolId: string;
  clientId: string;
  /** The `iss` of its tokens: `{endpoint}/{userPoolId}`, as AWS's `https://cognito-idp.{region}.amazonaws.com/{userPoolId}`. */
  issuer: string;
  client: CognitoIdentityProviderClient;
  close(): Promise<void>;
}

/** What DATA_DIR/cognito/portal-pool.json keeps: the ids of the pool and app client made on first start. */
interface PoolIds {
  userPoolId: string;
  clientId: string;
}

/** The client of a user-pool API at `endpoint` (the stand-in takes any credentials). */
export function localUserPoolClient(endpoint: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** Starts the stand-in on 127.0.0.1 (`port` 0: any free port) and makes the pool and its app client on first start. */
export async function startUserPool(dataDir: string, port = 0): Promise<LocalUserPool> {
  const folder = join(dataDir, 'cognito');
  await mkdir(folder, { recursive: true });
  // The generator reads the issuer's domain when it signs, so it can be set once the port is known.
  const tokenConfig = { IssuerDomain: '' };
  const server = await createServer(Router(await services(folder, tokenConfig)), pino({ level: 'silent' }), { port, hostname: '127.0.0.1' }).start();
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tokenConfig.IssuerDomain = endpoint;
  const client = localUserPoolClient(endpoint);
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    const ids = await poolIds(folder, client);
    return { endpoint, ...ids, issuer: `${endpoint}/${ids.userPoolId}`, client, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** cognito-local's services as its own default server wires them, with its data in `folder` and no Lambda triggers. */
async function services(folder: string, tokenConfig: { IssuerDomain: string }): Promise<Services> {
  const clock = new DateClock();
  const stores = new StormDBDataStoreFactory(folder);
  const ctx = { logger: pino({ level: 'silent' }) };
  const cognito = await new CognitoServiceFactoryImpl(folder, stores, new UserPoolServiceFactoryImpl(clock, stores)).create(ctx, {});
  const noLambda = { enabled: () => false } as unknown as ConstructorParameters<typeof TriggersService>[2];
  const triggers = new TriggersService(clock, cognito, noLambda, undefined as unknown as ConstructorParameters<typeof TriggersService>[3]);
  const messages = new MessagesService(triggers, new MessageDeliveryService(new ConsoleMessageSender()));
  return {
    clock,
    cognito,
    config: undefined as unknown as Services['config'],
    messages,
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, triggers, tokenConfig),
    triggers,
  };
}

/** The pool's and client's ids, made (with the permission groups) when the folder has none. */
async function poolIds(folder: string, client: CognitoIdentityProviderClient): Promise<PoolIds> {
  const file = join(folder, 'portal-pool.json');
  const kept = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as PoolIds,
    () => undefined,
  );
  if (kept) return kept;
  const pool = await client.send(
    new CreateUserPoolCommand({
      PoolName: 'workspace-portal',
      UsernameAttributes: ['email'],
      Policies: { PasswordPolicy: USER_POOL_PASSWORD_POLICY },
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Schema: Object.values(PORTAL_USER_ATTRIBUTES).map((name) => ({ Name: name.replace(/^custom:/, ''), AttributeDataType: 'String', Mutable: true })),
    }),
  );
  const userPoolId = pool.UserPool!.Id!;
  const app = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: 'portal',
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    }),
  );
  for (const permission of PORTAL_PERMISSIONS) await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: permission }));
  const ids = { userPoolId, clientId: app.UserPoolClient!.ClientId! };
  await writeFile(file, JSON.stringify(ids, null, 2), { mode: 0o600 });
  return ids;
}
