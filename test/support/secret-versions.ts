import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach } from 'vitest';

/** A secret's versions by stage, as a run-time key (shared/cache/secrets.ts) reads them. */
export type SecretVersions = { AWSCURRENT: string; AWSPREVIOUS?: string };

/**
 * Secrets Manager mocked with `versions` (secret ARN → its versions by stage) for the tests
 * of the file that calls it: a stage a secret does not have (AWSPREVIOUS before the first
 * rotation) is ResourceNotFoundException, as Secrets Manager answers. `withSecret` points
 * `variable` (the key's ARN variable) at a secret; it is unset after each test, as is
 * AWS_LAMBDA_FUNCTION_NAME.
 */
export function mockSecretVersions(variable: string, versions: Record<string, SecretVersions>) {
  const secrets = mockClient(SecretsManagerClient);
  beforeEach(() => {
    secrets.on(GetSecretValueCommand).callsFake((input: { SecretId: string; VersionStage?: keyof SecretVersions }) => {
      const value = versions[input.SecretId]?.[input.VersionStage ?? 'AWSCURRENT'];
      if (value === undefined) throw new ResourceNotFoundException({ message: "Secrets Manager can't find the specified secret value", $metadata: {} });
      return { ARN: input.SecretId, SecretString: value };
    });
  });
  afterEach(() => {
    secrets.reset();
    delete process.env[variable];
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  });
  return {
    secrets,
    withSecret: (arn: string) => {
      process.env[variable] = arn;
    },
  };
}
