import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { PORTAL_PERMISSIONS, PORTAL_USER_ATTRIBUTES } from '../../shared/routes';
import { USER_POOL_PASSWORD_POLICY } from '../../infra/user-pool-settings';
import type { UserPoolTarget } from '../admin/users';
import { listenForUserPool, userPoolFolder, type PoolIds, type UserPoolAddress } from './lazy-user-pool';

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
/** A user-pool API action (`CreateUserPool`, …) as cognito-local's router runs it: the request's JSON body in, the answer's out. */
type Target = (ctx: { logger: Logger }, request: object) => Promise<unknown>;
const require = createRequire(import.meta.url);
const { Router } = require('cognito-local/lib/server/Router') as { Router: (services: Services) => Part<'Router'> & ((target: string) => Target) };
const { createServer } = require('cognito-local/lib/server/server') as {
  createServer: (router: Part<'Router'>, logger: Logger, options: { port: number; hostname: string }) => { application: RequestListener };
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
 * tokens prove nothing outside this machine: it listens on loopback only. `npm start`
 * binds its port at start and builds it here on the first request (lazy-user-pool.ts).
 */

export interface LocalUserPool extends UserPoolAddress {
  client: CognitoIdentityProviderClient;
  close(): Promise<void>;
}

/** The client of a user-pool API at `endpoint` (the stand-in takes any credentials). */
export function localUserPoolClient(endpoint: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** Starts the stand-in on 127.0.0.1 (a free port), built now, with the pool and its app client made when DATA_DIR has none. */
export async function startUserPool(dataDir: string): Promise<LocalUserPool> {
  let built: Promise<RequestListener> | undefined;
  const listener = await listenForUserPool(dataDir, (address) => (built ??= userPoolApp(dataDir, address)));
  try {
    await (built ??= userPoolApp(dataDir, listener));
  } catch (error) {
    await listener.close();
    throw error;
  }
  return { ...listener, client: localUserPoolClient(listener.endpoint) };
}

/**
 * The stand-in of DATA_DIR's pool at `address`: cognito-local's server (its request
 * listener), the pool, app client and permission groups made when missing, then `prepare`
 * (the demo users) run against it through a listener of its own, so that the stand-in's
 * own port answers no one before it is ready.
 */
export async function userPoolApp(dataDir: string, address: UserPoolAddress, prepare?: (pool: UserPoolTarget) => Promise<void>): Promise<RequestListener> {
  // The generator reads the issuer's domain when it signs: the port the stand-in answers on.
  const built = await services(userPoolFolder(dataDir), { IssuerDomain: address.endpoint });
  await ensurePool(built, address);
  const app = createServer(Router(built), pino({ level: 'silent' }), { port: 0, hostname: '127.0.0.1' }).application;
  if (prepare) {
    const own = createHttpServer(app);
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', () => resolve()));
    try {
      await prepare({ client: localUserPoolClient(`http://127.0.0.1:${(own.address() as AddressInfo).port}`), userPoolId: address.userPoolId });
    } finally {
      await new Promise<void>((resolve) => own.close(() => resolve()));
    }
  }
  return app;
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

/**
 * What making the pool reads of cognito-local's CognitoService and UserPoolService
 * (lib/services/cognitoService.d.ts, userPoolService.d.ts): whether the pool, the app
 * client and a group exist, and where a new pool and app client are stored.
 */
interface CognitoCalls {
  getUserPool(ctx: { logger: Logger }, userPoolId: string): Promise<UserPoolCalls>;
  getAppClient(ctx: { logger: Logger }, clientId: string): Promise<object | null | undefined>;
  createUserPool(ctx: { logger: Logger }, pool: { Id: string; Arn: string }): Promise<unknown>;
}
interface UserPoolCalls {
  listGroups(ctx: { logger: Logger }): Promise<Array<{ GroupName?: string }>>;
  saveAppClient(ctx: { logger: Logger }, appClient: { ClientId: string }): Promise<void>;
}

/**
 * Makes what DATA_DIR's pool lacks of the pool (ids from portal-pool.json), its app client
 * and the permission groups, through cognito-local's own CreateUserPool,
 * CreateUserPoolClient and CreateGroup. Those make ids of their own; the ids were chosen
 * (and published in demo.json) before the pool was made, so here the pool and the app
 * client are stored under the chosen ones.
 */
async function ensurePool(built: Services, ids: PoolIds): Promise<void> {
  const ctx = { logger: pino({ level: 'silent' }) };
  const cognito = built.cognito as unknown as CognitoCalls;
  const withChosenIds: CognitoCalls = Object.assign(Object.create(cognito) as CognitoCalls, {
    createUserPool: (context: { logger: Logger }, pool: { Id: string; Arn: string }) =>
      cognito.createUserPool(context, { ...pool, Id: ids.userPoolId, Arn: pool.Arn.replace(pool.Id, ids.userPoolId) }),
    getUserPool: async (context: { logger: Logger }, userPoolId: string) => {
      const pool = await cognito.getUserPool(context, userPoolId);
      return Object.assign(Object.create(pool) as UserPoolCalls, {
        saveAppClient: (inner: { logger: Logger }, appClient: { ClientId: string }) => pool.saveAppClient(inner, { ...appClient, ClientId: ids.clientId }),
      });
    },
  });
  const make = Router({ ...built, cognito: withChosenIds as unknown as Part<'CognitoService'> });
  // getUserPool throws (not rejects) for an unknown pool.
  const existing = async () => (async () => cognito.getUserPool(ctx, ids.userPoolId))().catch(() => undefined);
  if (!(await existing()))
    await make('CreateUserPool')(ctx, {
      PoolName: 'workspace-portal',
      UsernameAttributes: ['email'],
      Policies: { PasswordPolicy: USER_POOL_PASSWORD_POLICY },
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Schema: Object.values(PORTAL_USER_ATTRIBUTES).map((name) => ({ Name: name.replace(/^custom:/, ''), AttributeDataType: 'String', Mutable: true })),
    });
  const pool = (await existing())!;
  if (!(await cognito.getAppClient(ctx, ids.clientId)))
    await make('CreateUserPoolClient')(ctx, {
      UserPoolId: ids.userPoolId,
      ClientName: 'portal',
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    });
  const groups = new Set((await pool.listGroups(ctx)).map((group) => group.GroupName));
  for (const permission of PORTAL_PERMISSIONS)
    if (!groups.has(permission)) await make('CreateGroup')(ctx, { UserPoolId: ids.userPoolId, GroupName: permission });
}
