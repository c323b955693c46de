import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type DeleteCommand, type PutCommand, type UpdateCommand, type UpdateCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/core/retry';
import { LOCAL_TABLE_NAME } from './table-schema';

/**
 * The table's document client, created once per container (module scope).
 *
 * DYNAMODB_ENDPOINT points it at dynalite or DynamoDB Local; there it needs no real
 * credentials. Throttling and 5xx are retried (4 attempts) with full-jitter
 * exponential backoff capped so all retries fit in about a second and a half, well
 * inside the API functions' 10 s budget (the SDK's default throttling base of 500 ms
 * could spend several seconds).
 */
const retryDelay = (attempt: number) => Math.round(Math.random() * Math.min(800, 50 * 2 ** attempt));
function createDocumentClient(): DynamoDBDocumentClient {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const client = new DynamoDBClient({
    ...(endpoint
      ? {
          endpoint,
          region: process.env.AWS_REGION ?? 'local',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    retryStrategy: new ConfiguredRetryStrategy(4, retryDelay),
  });
  return DynamoDBDocumentClient.from(client, {
    // convertClassInstanceToMap: a map with a key named `constructor` (a custom field may be
    // named so) fails the marshaller's plain-object test; this option writes it as a map.
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
}

export const db = createDocumentClient();

export const tableName = (): string => process.env.TABLE_NAME ?? LOCAL_TABLE_NAME;

/** True when a DynamoDB call failed only because its condition did not hold. */
export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/**
 * Sends a conditional write (update, put or delete) and tells whether its condition
 * held: false instead of an error when it did not, so callers branch on the outcome.
 * Other errors propagate.
 */
export async function sendIfCondition(command: UpdateCommand | PutCommand | DeleteCommand): Promise<boolean> {
  // The client's send is typed for one command class, not a union of them.
  return (await unlessConditionFails(db.send(command as Parameters<typeof db.send>[0]))) !== undefined;
}

/**
 * Sends a conditional update for what its ReturnValues asks: the output (with its
 * `Attributes`) when the condition held, undefined when it did not. Other errors propagate.
 */
export async function updateIfCondition(command: UpdateCommand): Promise<UpdateCommandOutput | undefined> {
  return unlessConditionFails(db.send(command));
}

async function unlessConditionFails<T>(sent: Promise<T>): Promise<T | undefined> {
  try {
    return await sent;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
