import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LOCAL_TABLE_NAME } from './table-schema';

/**
 * The table's document client, created once per container (module scope).
 *
 * DYNAMODB_ENDPOINT points it at dynalite or DynamoDB Local; there it needs no real
 * credentials. The SDK's standard retry mode retries throttling and 5xx with
 * backoff; 4 attempts and short timeouts keep a retry inside the Lambda's budget.
 */
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
    maxAttempts: 4,
    retryMode: 'standard',
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}

export const db = createDocumentClient();

export const tableName = (): string => process.env.TABLE_NAME ?? LOCAL_TABLE_NAME;

/** True when a DynamoDB call failed only because its condition did not hold. */
export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}
