/**
 * One local AWS endpoint per function in the template-driven mode: DynamoDB calls go
 * on to dynalite, SQS SendMessage into the local queue, Secrets Manager
 * GetSecretValue to the local secrets. Because each function has its own endpoint
 * (its own port, in its own environment), every call is attributable: it is checked
 * against that function's IAM policy from the template, refused with
 * AccessDeniedException when the role would refuse it, and recorded.
 * And the one SQS endpoint `npm start` serves in either mode for `sam local`
 * (startSqsEndpoint): SendMessage into the same local queue, unchecked.
 */
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OUTBOX_INDEX, TABLE_KEY } from '../../shared/data/table-schema';
import type { SecretBox } from '../../shared/events/secret-box';
import { type AwsCall, type CallVerdict, type PolicyStatementLocal, evaluateCall } from './iam';

/** A request body, untyped as JSON.parse returns it. */
type Json = Record<string, ReturnType<typeof JSON.parse>>;
type AttributeValue = { S?: string; N?: string; B?: string };

export interface LocalSecret {
  arn: string;
  name: string;
  value: string;
}

export interface AwsEndpointOptions {
  functionName: string;
  policy: PolicyStatementLocal[];
  dynamodbEndpoint: string;
  region: string;
  account: string;
  secrets: LocalSecret[];
  /** Queue names the template defines → where their messages go. */
  queues: LocalQueues;
  /** Every call, allowed or refused (the stack appends them to DATA_DIR/aws-calls.jsonl). */
  onCall(verdict: CallVerdict): void;
  /** KMS Encrypt/Decrypt under this local key (the webhook secrets' key): AES-256-GCM, as the local stack seals them. */
  kms?: SecretBox;
}

export interface AwsEndpoint {
  url: string;
  close(): Promise<void>;
}

/** The partition key's value of a key or item. */
const leadingKey = (key: Json | undefined, attribute: string = TABLE_KEY.partitionKey) => {
  const value = (key?.[attribute] as AttributeValue | undefined) ?? {};
  return value.S ?? value.N ?? value.B;
};

/** The partition key value a Query's key condition fixes (`pk = :v`, names through ExpressionAttributeNames). */
function queryLeadingKey(input: Json): string | undefined {
  const attribute = input.IndexName === OUTBOX_INDEX.indexName ? OUTBOX_INDEX.partitionKey : TABLE_KEY.partitionKey;
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  for (const [, name, placeholder] of String(input.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    if ((names[name] ?? name) === attribute) return leadingKey({ [attribute]: input.ExpressionAttributeValues?.[placeholder] }, attribute);
  }
  return undefined;
}

/** The IAM view of one DynamoDB request: the action (or, for transactions, the per-item actions), resources and leading keys. */
export function dynamodbCalls(functionName: string, operation: string, input: Json, tableArn: (table: string) => string): AwsCall[] {
  const keysOf = (values: (string | undefined)[]) => values.filter((value): value is string => value !== undefined);
  switch (operation) {
    case 'GetItem':
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [
        {
          functionName,
          action: `dynamodb:${operation}`,
          resource: tableArn(input.TableName as string),
          leadingKeys: keysOf([leadingKey((input.Key ?? input.Item) as Json)]),
        },
      ];
    case 'Query':
    case 'Scan': {
      const resource = input.IndexName ? `${tableArn(input.TableName as string)}/index/${input.IndexName as string}` : tableArn(input.TableName as string);
      return [{ functionName, action: `dynamodb:${operation}`, resource, leadingKeys: operation === 'Query' ? keysOf([queryLeadingKey(input)]) : [] }];
    }
    case 'BatchGetItem':
      return Object.entries((input.RequestItems ?? {}) as Record<string, { Keys: Json[] }>).map(([table, { Keys }]) => ({
        functionName,
        action: 'dynamodb:BatchGetItem',
        resource: tableArn(table),
        leadingKeys: keysOf(Keys.map((key) => leadingKey(key))),
      }));
    case 'BatchWriteItem':
      return Object.entries((input.RequestItems ?? {}) as Record<string, Json[]>).map(([table, requests]) => ({
        functionName,
        action: 'dynamodb:BatchWriteItem',
        resource: tableArn(table),
        leadingKeys: keysOf(requests.map((item) => leadingKey((item.PutRequest?.Item ?? item.DeleteRequest?.Key) as Json))),
      }));
    case 'TransactWriteItems':
    case 'TransactGetItems': {
      // IAM has no transaction action: each item is authorized as its own action.
      const actions: Record<string, string> = {
        Put: 'PutItem',
        Update: 'UpdateItem',
        Delete: 'DeleteItem',
        ConditionCheck: 'ConditionCheckItem',
        Get: 'GetItem',
      };
      return ((input.TransactItems ?? []) as Json[]).flatMap((item) =>
        Object.entries(item).map(([kind, detail]: [string, Json]) => ({
          functionName,
          action: `dynamodb:${actions[kind] ?? kind}`,
          resource: tableArn(detail.TableName as string),
          leadingKeys: keysOf([leadingKey((detail.Key ?? detail.Item) as Json)]),
        })),
      );
    }
    default:
      return [{ functionName, action: `dynamodb:${operation}`, resource: input.TableName ? tableArn(input.TableName as string) : '*', leadingKeys: [] }];
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: Json, contentType = 'application/x-amz-json-1.0') {
  res.writeHead(status, { 'Content-Type': contentType });
  res.end(JSON.stringify(body));
}

/** Passes a DynamoDB request on to dynalite unchanged and streams its answer back. */
function forward(target: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers };
    delete headers.host;
    const upstream = request(target, { method: 'POST', headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 500, answer.headers);
      answer.pipe(res);
      answer.on('end', resolve);
    });
    upstream.on('error', reject);
    upstream.end(body);
  });
}

/** Starts one function's endpoint on a free port of 127.0.0.1. */
export async function startAwsEndpoint(options: AwsEndpointOptions): Promise<AwsEndpoint> {
  const arn = (service: string, rest: string) => `arn:aws:${service}:${options.region}:${options.account}:${rest}`;
  const tableArn = (table: string) => arn('dynamodb', `table/${table}`);

  /** Checks the calls; answers the first refusal as AWS would and returns false. */
  function authorize(calls: AwsCall[], res: ServerResponse, errorType: string, contentType?: string): boolean {
    for (const call of calls) {
      const verdict = evaluateCall(options.policy, call);
      options.onCall(verdict);
      if (!verdict.allowed) {
        const message = `User: arn:aws:sts::${options.account}:assumed-role/${options.functionName}/local is not authorized to perform: ${call.action} on resource: ${call.resource} (${verdict.reason})`;
        sendJson(res, 400, { __type: errorType, message, Message: message }, contentType);
        return false;
      }
    }
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    const [service, operation] = String(req.headers['x-amz-target'] ?? '').split('.');
    const input = (body.length ? JSON.parse(body.toString('utf8')) : {}) as Json;
    if (service.startsWith('DynamoDB_')) {
      const calls = dynamodbCalls(options.functionName, operation, input, tableArn);
      if (authorize(calls, res, 'com.amazonaws.dynamodb.v20120810#AccessDeniedException')) await forward(options.dynamodbEndpoint, req, body, res);
      return;
    }
    if (service === 'AmazonSQS') {
      const allowed = (queueName: string) =>
        authorize([{ functionName: options.functionName, action: 'sqs:SendMessage', resource: arn('sqs', queueName) }], res, 'com.amazonaws.sqs#AccessDenied');
      return sqsSendMessage(operation, input, res, options.queues, allowed);
    }
    if (service === 'secretsmanager') return secretsManagerCall(options, authorize, operation, input, res);
    if (service === 'TrentService' && options.kms) return kmsCall(options, authorize, operation, input, res);
    sendJson(res, 400, { __type: 'UnknownOperationException', message: `${service}.${operation} is not served by the local AWS endpoint` });
  }

  return listen(`local AWS endpoint of ${options.functionName}`, handle);
}

/**
 * Secrets Manager GetSecretValue (JSON 1.1) of the local secrets, checked against the
 * secret's ARN. A local secret is never rotated: it has no version but the current one, and
 * AWSPREVIOUS is ResourceNotFoundException, as AWS answers before the first rotation.
 */
function secretsManagerCall(
  options: AwsEndpointOptions,
  authorize: (calls: AwsCall[], res: ServerResponse, errorType: string, contentType?: string) => boolean,
  operation: string,
  input: Json,
  res: ServerResponse,
): void {
  const json11 = 'application/x-amz-json-1.1';
  const secretId = String(input.SecretId ?? '');
  const secret = options.secrets.find((candidate) => candidate.arn === secretId || candidate.name === secretId);
  const resource = secret?.arn ?? (secretId.startsWith('arn:') ? secretId : `arn:aws:secretsmanager:${options.region}:${options.account}:secret:${secretId}`);
  if (!authorize([{ functionName: options.functionName, action: `secretsmanager:${operation}`, resource }], res, 'AccessDeniedException', json11)) return;
  if (operation !== 'GetSecretValue') return sendJson(res, 400, { __type: 'InvalidRequestException', Message: `${operation} is not served locally` }, json11);
  if (!secret) return sendJson(res, 400, { __type: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret." }, json11);
  const stage = String(input.VersionStage ?? 'AWSCURRENT');
  if (stage !== 'AWSCURRENT') {
    const Message = `Secrets Manager can't find the specified secret value for staging label: ${stage}`;
    return sendJson(res, 400, { __type: 'ResourceNotFoundException', Message }, json11);
  }
  const answer = { ARN: secret.arn, Name: secret.name, SecretString: secret.value, VersionId: 'local', VersionStages: ['AWSCURRENT'], CreatedDate: 0 };
  sendJson(res, 200, answer, json11);
}

/**
 * KMS Encrypt and Decrypt (JSON 1.1) under the local key: the ciphertext blob carries
 * the key's ARN (as KMS's does), so Decrypt is checked against the key it names.
 */
async function kmsCall(
  options: AwsEndpointOptions,
  authorize: (calls: AwsCall[], res: ServerResponse, errorType: string, contentType?: string) => boolean,
  operation: string,
  input: Json,
  res: ServerResponse,
): Promise<void> {
  const json11 = 'application/x-amz-json-1.1';
  const context = (input.EncryptionContext ?? {}) as Record<string, string>;
  if (operation === 'Encrypt') {
    const keyId = String(input.KeyId ?? '');
    if (!authorize([{ functionName: options.functionName, action: 'kms:Encrypt', resource: keyId }], res, 'AccessDeniedException', json11)) return;
    const sealed = await options.kms!.seal(Buffer.from(String(input.Plaintext ?? ''), 'base64').toString('utf8'), context);
    return sendJson(res, 200, { KeyId: keyId, CiphertextBlob: Buffer.from(`${keyId}|${sealed}`).toString('base64') }, json11);
  }
  if (operation === 'Decrypt') {
    const blob = Buffer.from(String(input.CiphertextBlob ?? ''), 'base64').toString('utf8');
    const [keyId, sealed] = [blob.slice(0, blob.indexOf('|')), blob.slice(blob.indexOf('|') + 1)];
    if (!authorize([{ functionName: options.functionName, action: 'kms:Decrypt', resource: keyId }], res, 'AccessDeniedException', json11)) return;
    try {
      const plaintext = await options.kms!.open(sealed, context);
      return sendJson(res, 200, { KeyId: keyId, Plaintext: Buffer.from(plaintext).toString('base64') }, json11);
    } catch {
      return sendJson(res, 400, { __type: 'InvalidCiphertextException', message: 'The ciphertext or its encryption context is invalid.' }, json11);
    }
  }
  return sendJson(res, 400, { __type: 'UnsupportedOperationException', message: `kms:${operation} is not served locally` }, json11);
}

/** Where SendMessage puts a message, by queue name (the last segment of its QueueUrl): resolves to the message id. */
/** The local queues by name; a message's group (MessageGroupId), when it has one, is passed on. */
export type LocalQueues = Record<string, (body: string, delaySeconds: number, groupId?: string) => Promise<string>>;

/**
 * SQS SendMessage (the SDK's JSON protocol) into a local queue, answered as SQS
 * answers; any other SQS operation is refused. `allowed` checks the call first and,
 * refusing, has answered already.
 */
async function sqsSendMessage(
  operation: string,
  input: Json,
  res: ServerResponse,
  queues: LocalQueues,
  allowed: (queueName: string) => boolean,
): Promise<void> {
  const queueName =
    String(input.QueueUrl ?? '')
      .split('/')
      .pop() ?? '';
  if (operation !== 'SendMessage')
    return sendJson(res, 400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `${operation} is not served locally` });
  if (!allowed(queueName)) return;
  const deliver = queues[queueName];
  if (!deliver) return sendJson(res, 400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: `The queue ${queueName} does not exist.` });
  // As SQS: a FIFO queue (its name ends in .fifo) needs a message group and takes no per-message delay.
  const fifo = queueName.endsWith('.fifo');
  if (fifo && !input.MessageGroupId)
    return sendJson(res, 400, { __type: 'com.amazonaws.sqs#MissingParameter', message: 'The request must contain the parameter MessageGroupId.' });
  if (fifo && Number(input.DelaySeconds ?? 0) !== 0)
    return sendJson(res, 400, {
      __type: 'com.amazonaws.sqs#InvalidParameterValue',
      message: `Value ${String(input.DelaySeconds)} for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.`,
    });
  const messageBody = String(input.MessageBody ?? '');
  const groupId = input.MessageGroupId === undefined ? undefined : String(input.MessageGroupId);
  const messageId = await deliver(messageBody, Number(input.DelaySeconds ?? 0), groupId);
  sendJson(res, 200, { MessageId: messageId, MD5OfMessageBody: createHash('md5').update(messageBody).digest('hex') });
}

/**
 * A local SQS endpoint for callers that are not one function of the template-driven
 * mode: the functions `sam local` runs beside `npm start` (scripts/sam-env.ts), all of
 * them through this one endpoint, so no call is attributable to a role and none is
 * checked (the template-driven mode checks them). It serves SendMessage only.
 */
export async function startSqsEndpoint(queues: LocalQueues): Promise<AwsEndpoint> {
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    const [service, operation] = String(req.headers['x-amz-target'] ?? '').split('.');
    if (service !== 'AmazonSQS')
      return sendJson(res, 400, { __type: 'UnknownOperationException', message: `${service}.${operation} is not served by the local SQS endpoint` });
    const input = (body.length ? JSON.parse(body.toString('utf8')) : {}) as Json;
    await sqsSendMessage(operation, input, res, queues, () => true);
  }
  return listen('local SQS endpoint', handle);
}

/** Serves `handle` on a free port of 127.0.0.1; a failing request is answered 500 and logged under `label`. */
async function listen(label: string, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<AwsEndpoint> {
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(label, error);
      if (!res.headersSent) sendJson(res, 500, { __type: 'InternalFailure', message: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Appends a verdict to a JSON-lines file (DATA_DIR/aws-calls.jsonl): it survives a crash of the stack. */
export function recordCall(file: string, verdict: CallVerdict): void {
  appendFileSync(file, `${JSON.stringify(verdict)}\n`);
}
