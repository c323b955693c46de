/**
 * `npm run --silent sam-env`: writes the `--env-vars` file with which
 * `sam local start-api` runs the synthesized template beside a running `npm start`,
 * on its dynalite table, its sandbox chat network and its local queue.
 *
 * Why a file: SAM resolves a `Ref` in an environment value to the resource's logical
 * id (TABLE_NAME would be "TableCD117FA1"), and it passes a function only the
 * variables its template declares. So the template is synthesized with
 * `-c samLocal=true` (into cdk.out.sam/), which declares the local stack's variables
 * (infra/functions.ts SAM_LOCAL_VARIABLES), and this file gives every function a value
 * for each variable it declares that has no usable value in the template:
 * - TABLE_NAME: the local table; DYNAMODB_ENDPOINT: npm start's dynalite;
 * - AUTOMATION_QUEUE_URL: the automation queue's URL at npm start's local SQS
 *   endpoint, and AWS_ENDPOINT_URL_SQS that endpoint (the SDK sends there): its
 *   SendMessage puts the step into the durable table queue npm start's runner loop
 *   drains (the bundles carry only the SQS queue, and nothing provides another in
 *   SAM's containers);
 * - WEBHOOK_SECRET_ARN: empty, so the webhook reads WHATSAPP_APP_SECRET and
 *   WHATSAPP_VERIFY_TOKEN, set to this DATA_DIR's chat-network secrets;
 * - GRAPH_API_BASE_URL: the sandbox chat network;
 * - WEBHOOK_SECRETS_KMS_KEY_ID: empty, and WEBHOOK_SECRETS_KEY (declared only for the
 *   functions that seal or open webhook secrets) this DATA_DIR's local key, so a secret
 *   webhooks/manage seals under SAM opens in npm start's deliverer (the file stays 0600;
 *   the env-vars file is written 0600 too), and WEBHOOK_ALLOW_LOOPBACK true, as npm start
 *   sets it (receivers on this machine);
 * - a secret the template resolves at deploy time (`{{resolve:secretsmanager:…}}`), and
 *   CURSOR_SIGNING_KEY (the functions read the key's secret at run time, which SAM cannot
 *   serve): a fixed local value; SUPPRESSION_KEY (read at run time too): npm start's own
 *   (scripts/local/suppression-key.ts), so an opt-out one side keeps the other finds.
 * - PORTAL_COGNITO_ENDPOINT, PORTAL_USER_POOL_ID, PORTAL_CLIENT_ID (the portal page): npm
 *   start's user-pool stand-in, its pool and app client.
 * - MEDIA_BUCKET: empty, and MEDIA_DIR, MEDIA_URL_BASE, MEDIA_SIGNING_KEY (declared only
 *   for the media functions) npm start's (scripts/local/media-links.ts): its media folder,
 *   its gateway and its link key, so chat/media/get under SAM signs links npm start's
 *   gateway opens. MEDIA_DIR is a path on this machine: the runner that stores fetched
 *   media runs in npm start (its queue), not under SAM; a function SAM runs in a container
 *   sees the folder only if it is mounted there.
 * Prints one JSON object: the file, the template and the command to run.
 *
 * HOST (default 127.0.0.1) is how the functions' containers reach this machine:
 * 127.0.0.1 with `--docker-network host` (Linux), host.docker.internal on Docker Desktop.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { LOCAL_TABLE_NAME } from '../shared/data/table-schema';
import { localKeyFile, readOrCreateLocalKey } from '../shared/events/secret-box';
import { localMediaSettings } from './local/media-links';
import { localSuppressionKey } from './local/suppression-key';
import { runningStack } from './local/store';
import { consumedQueues, ensureSynth, readTemplate, SAM_CDK_OUT, type CfnTemplate } from './local/template';

interface LocalTargets {
  tableName: string;
  dynamodbEndpoint: string;
  /** npm start's SQS endpoint, and the URL there of the queue its runner loop drains. */
  sqsEndpoint: string;
  stepQueueUrl: string;
  /** The event queues' URLs there, the FIFO queue of new events and the lane queue (both reach the deliverer's table queue). */
  eventQueueUrl: string;
  eventLaneQueueUrl: string;
  graphBaseUrl: string;
  appSecret: string;
  verifyToken: string;
  /** npm start's local webhook-secrets key (base64): what SAM's webhooks/manage seals with, npm start's deliverer opens. */
  webhookSecretsKey: string;
  /** npm start's user-pool stand-in (the portal page signs in there). */
  userPool: { endpoint: string; userPoolId: string; clientId: string };
  /** npm start's media settings: its folder and link key, and its gateway (which opens the links). */
  media: { MEDIA_DIR: string; MEDIA_SIGNING_KEY: string; MEDIA_URL_BASE: string };
  /** npm start's suppression key (scripts/local/suppression-key.ts): an opt-out SAM's functions keep, npm start's find. */
  suppressionKey: { SUPPRESSION_KEY: string };
}

/** What the cursor-signing key (read at run time) or a deploy-time secret reference is locally: any fixed value works for one local stack. */
const LOCAL_RESOLVED_SECRET = 'sam-local-resolved-secret';

/** The value a function's variable gets locally, or undefined when the template's own value works under SAM. */
function localValue(template: CfnTemplate, name: string, value: unknown, targets: LocalTargets): string | undefined {
  const byName: Record<string, string> = {
    DYNAMODB_ENDPOINT: targets.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: targets.sqsEndpoint,
    GRAPH_API_BASE_URL: targets.graphBaseUrl,
    WHATSAPP_APP_SECRET: targets.appSecret,
    WHATSAPP_VERIFY_TOKEN: targets.verifyToken,
    CURSOR_SIGNING_KEY: LOCAL_RESOLVED_SECRET,
    WEBHOOK_SECRETS_KEY: targets.webhookSecretsKey,
    // Receivers on this machine, as npm start allows them (scripts/local/stack.ts).
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    PORTAL_COGNITO_ENDPOINT: targets.userPool.endpoint,
    PORTAL_USER_POOL_ID: targets.userPool.userPoolId,
    PORTAL_CLIENT_ID: targets.userPool.clientId,
    // The portal's keys live in npm start's key store (no usage plan locally), its request log in DATA_DIR's log.
    USAGE_PLAN_NAME: '',
    REQUEST_LOG_GROUPS: '',
    ...targets.media,
    ...targets.suppressionKey,
  };
  if (name in byName) return byName[name];
  if (typeof value !== 'object' || value === null) return undefined;
  // A secret resolved at deploy time (`{{resolve:secretsmanager:…}}`): SAM does not resolve it, so a local value.
  if (JSON.stringify(value).includes('{{resolve:secretsmanager:')) return LOCAL_RESOLVED_SECRET;
  // A reference: SAM would pass the logical id. Map it by what it refers to.
  const target = (value as { Ref?: string }).Ref;
  const type = target ? template.Resources[target]?.Type : undefined;
  if (type === 'AWS::DynamoDB::Table') return targets.tableName;
  if (type === 'AWS::SQS::Queue') {
    // Locally the consumed queues take messages: the table queues standing in for the runner's and the event deliverer's.
    if (!consumedQueues(template).includes(target ?? ''))
      throw new Error(`no local queue for ${name} (${target}): only the consumed queues are served locally`);
    const byVariable: Record<string, string> = { EVENT_QUEUE_URL: targets.eventQueueUrl, EVENT_LANE_QUEUE_URL: targets.eventLaneQueueUrl };
    return byVariable[name] ?? targets.stepQueueUrl;
  }
  if (type === 'AWS::SecretsManager::Secret') return '';
  // The media bucket: none under SAM; the media functions use npm start's folder and links (MEDIA_DIR) instead.
  if (type === 'AWS::S3::Bucket') return '';
  // The webhook secrets' KMS key: none under SAM; the functions seal with the local key (WEBHOOK_SECRETS_KEY_FILE) instead.
  const attribute = (value as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
  if (attribute && template.Resources[attribute[0]]?.Type === 'AWS::KMS::Key') return '';
  throw new Error(`no local value for ${name} (${JSON.stringify(value)}): extend scripts/sam-env.ts`);
}

/** The env-vars file's content: function logical id → the variables SAM must override. */
function samEnvVars(template: CfnTemplate, targets: LocalTargets): Record<string, Record<string, string>> {
  const file: Record<string, Record<string, string>> = {};
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const variables = (resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
    const overrides: Record<string, string> = {};
    for (const [name, value] of Object.entries(variables)) {
      const local = localValue(template, name, value, targets);
      if (local !== undefined) overrides[name] = local;
    }
    if (Object.keys(overrides).length > 0) file[id] = overrides;
  }
  return file;
}

async function main() {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const stack = await runningStack(dataDir);
  if (!stack?.graphBaseUrl)
    throw new Error(`No npm start is running with DATA_DIR ${dataDir}: start it first (the file points at its dynalite, SQS endpoint and sandbox).`);
  if (!stack.sqsEndpoint || !stack.stepQueueUrl || !stack.eventQueueUrl || !stack.eventLaneQueueUrl || !stack.userPool)
    throw new Error(`The npm start running with DATA_DIR ${dataDir} serves no SQS endpoint: restart it with this version.`);
  const secrets = JSON.parse(await readFile(join(dataDir, 'chat-network.json'), 'utf8')) as { appSecret: string; verifyToken: string };
  const host = process.env.HOST ?? '127.0.0.1';
  const onHost = (url: string) => url.replace('127.0.0.1', host);
  await ensureSynth({ cdkOut: SAM_CDK_OUT, context: { samLocal: 'true' }, log: (line) => console.error(line) });
  const { template, file: templateFile } = readTemplate(SAM_CDK_OUT);
  const envVars = samEnvVars(template, {
    tableName: process.env.TABLE_NAME ?? LOCAL_TABLE_NAME,
    dynamodbEndpoint: onHost(stack.dynamodbEndpoint),
    sqsEndpoint: onHost(stack.sqsEndpoint),
    stepQueueUrl: onHost(stack.stepQueueUrl),
    eventQueueUrl: onHost(stack.eventQueueUrl),
    eventLaneQueueUrl: onHost(stack.eventLaneQueueUrl),
    graphBaseUrl: onHost(stack.graphBaseUrl),
    appSecret: secrets.appSecret,
    verifyToken: secrets.verifyToken,
    // The key file npm start uses (scripts/local/stack.ts resolves it the same way).
    webhookSecretsKey: readOrCreateLocalKey(localKeyFile(dataDir)).toString('base64'),
    userPool: { ...stack.userPool, endpoint: onHost(stack.userPool.endpoint) },
    media: { ...localMediaSettings(dataDir), MEDIA_URL_BASE: stack.url },
    suppressionKey: localSuppressionKey(dataDir),
  });
  const envVarsFile = join(dataDir, 'sam-env.json');
  await writeFile(envVarsFile, JSON.stringify(envVars, null, 2), { mode: 0o600 });
  // Paths below the current directory are shown relative to it, others whole.
  const shown = (path: string) => (relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path));
  const templatePath = shown(templateFile);
  const network = host === '127.0.0.1' ? ' --docker-network host' : '';
  const command = `sam local start-api -t ${templatePath} --env-vars ${shown(envVarsFile)}${network} --port 3001`;
  console.log(JSON.stringify({ envVarsFile, template: templatePath, functions: Object.keys(envVars).length, command }));
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
