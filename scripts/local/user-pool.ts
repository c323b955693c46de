import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { PORTAL_PERMISSIONS, PORTAL_USER_ATTRIBUTES } from '../../shared/routes';
import { USER_POOL_PASSWORD_POLICY } from '../../infra/user-pool-settings';

/**
 * The parts of cognito-local that services() wires, required and typed here by hand as its
 * lib/*.d.ts declare them: its own declarations would bring aws-sdk v2's into every type check
 * (lib/services/lambda.d.ts imports them: as many bytes as the rest of the program together).
 * Each part is opaque (`Part<...>`), as only cognito-local reads them, so what TypeScript
 * checks here is the wiring, which part goes to which constructor; that these shapes are
 * cognito-local's is shown by what runs it (the local stack, test/scripts/portal-users.test.ts).
 */
type Part<Name extends string> = { readonly cognitoLocalPart: Name };
interface Services {
  clock: Part<'Clock'>;
  cognito: Part<'CognitoService'>;
  /** Its configuration file, read by its own start-up (createDefaultServer), which services() stands in for. */
  config: undefined;
  messages: Part<'Messages'>;
  otp: () => string;
  tokenGenerator: Part<'TokenGenerator'>;
  triggers: Part<'Triggers'>;
}
const require = createRequire(import.meta.url);
const { Router } = require('cognito-local/lib/server/Router') as { Router: (services: Services) => Part<'Router'> };
const { createServer } = require('cognito-local/lib/server/server') as {
  createServer: (router: Part<'Router'>, logger: Logger, options: { port: number; hostname: string }) => { start(): Promise<Server> };
};
const { DateClock, MessagesService, TriggersService } = require('cognito-local/lib/services') as {
  DateClock: new () => Part<'Clock'>;
  MessagesService: new (triggers: Part<'Triggers'>, delivery: Part<'MessageDelivery'>) => Part<'Messages'>;
  /** `crypto` serves only the Lambda triggers' custom senders, so none is needed where `lambda` enables no trigger. */
  TriggersService: new (clock: Part<'Clock'>, cognito: Part<'CognitoService'>, lambda: { enabled: () => false }, crypto: undefined) => Part<'Triggers'>;
};
const { CognitoServiceFactoryImpl } = require('cognito-local/lib/services/cognitoService') as {
  CognitoServiceFactoryImpl: new (
    folder: string,
    stores: Part<'DataStoreFactory'>,
    userPools: Part<'UserPoolServiceFactory'>,
  ) => { create(context: { logger: Logger }, userPoolDefaults: object): Promise<Part<'CognitoService'>> };
};
const { StormDBDataStoreFactory } = require('cognito-local/lib/services/dataStore/stormDb') as {
  StormDBDataStoreFactory: new (folder: string) => Part<'DataStoreFactory'>;
};
const { ConsoleMessageSender } = require('cognito-local/lib/services/messageDelivery/consoleMessageSender') as {
  ConsoleMessageSender: new () => Part<'MessageSender'>;
};
const { MessageDeliveryService } = require('cognito-local/lib/services/messageDelivery/messageDelivery') as {
  MessageDeliveryService: new (sender: Part<'MessageSender'>) => Part<'MessageDelivery'>;
};
const { otp } = require('cognito-local/lib/services/otp') as { otp: () => string };
const { JwtTokenGenerator } = require('cognito-local/lib/services/tokenGenerator') as {
  JwtTokenGenerator: new (clock: Part<'Clock'>, triggers: Part<'Triggers'>, tokenConfig: { IssuerDomain: string }) => Part<'TokenGenerator'>;
};
const { UserPoolServiceFactoryImpl } = require('cognito-local/lib/services/userPoolService') as {
  UserPoolServiceFactoryImpl: new (clock: Part<'Clock'>, stores: Part<'DataStoreFactory'>) => Part<'UserPoolServiceFactory'>;
};

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
  const triggers = new TriggersService(clock, cognito, { enabled: () => false }, undefined);
  const messages = new MessagesService(triggers, new MessageDeliveryService(new ConsoleMessageSender()));
  return {
    clock,
    cognito,
    config: undefined,
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
