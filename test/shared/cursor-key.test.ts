import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../shared/domain/cursors';
import { InternalError, InvalidInputError } from '../../shared/errors';
import { mockSecretVersions, type SecretVersions } from '../support/secret-versions';

/**
 * The cursor-signing key read at run time from its secret (CURSOR_SIGNING_KEY_SECRET_ARN),
 * never from the environment, and its rotation: the current version signs, and a cursor
 * signed under the version a rotation replaced (AWSPREVIOUS) is still accepted. Secrets
 * Manager is mocked (no local one outside the template-driven mode); each case uses its
 * own secret, as the key is cached per container.
 */
const arn = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:workspace-api/test/${name}-AbCdEf`;
/** Each secret's versions by stage. */
const VERSIONS: Record<string, SecretVersions> = {
  [arn('before')]: { AWSCURRENT: 'key-a' },
  [arn('after')]: { AWSCURRENT: 'key-b', AWSPREVIOUS: 'key-a' },
  [arn('unrelated')]: { AWSCURRENT: 'key-c' },
  [arn('empty')]: { AWSCURRENT: '' },
};

const { secrets, withSecret: withArn } = mockSecretVersions('CURSOR_SIGNING_KEY_SECRET_ARN', VERSIONS);
const withSecret = (name: string) => withArn(arn(name));

describe('the cursor-signing key, read at run time', () => {
  it('signs with the current version and, after a rotation, still accepts the cursors of the replaced one', async () => {
    // Prepare: a cursor signed before the rotation
    withSecret('before');
    const old = await encodeCursor('ch1', 'q', 'position-1');

    // Act: the rotated secret (current key-b, previous key-a)
    withSecret('after');
    const fromOld = await decodeCursor(old, 'ch1', 'q');
    const fresh = await encodeCursor('ch1', 'q', 'position-2');
    const fromFresh = await decodeCursor(fresh, 'ch1', 'q');

    // Assess
    expect(fromOld).toBe('position-1');
    expect(fromFresh).toBe('position-2');
    expect(fresh.split('.')[1]).not.toBe(old.split('.')[1]);
    const reads = secrets.commandCalls(GetSecretValueCommand).map((call) => [call.args[0].input.SecretId, call.args[0].input.VersionStage]);
    expect(reads).toEqual([
      [arn('before'), undefined],
      [arn('after'), undefined],
      [arn('after'), 'AWSPREVIOUS'],
    ]);
  });

  it('refuses a cursor signed under neither version, naming the parameter, also when the secret was never rotated', async () => {
    // Prepare
    withSecret('unrelated');
    const foreign = await encodeCursor('ch1', 'q', 'position-1');

    // Act
    withSecret('before');
    const refusal = await decodeCursor(foreign, 'ch1', 'q').catch((error: unknown) => error);
    withSecret('after');
    const afterRotation = await decodeCursor(foreign, 'ch1', 'q').catch((error: unknown) => error);

    // Assess
    for (const error of [refusal, afterRotation]) {
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).parameter).toBe('cursor');
    }
  });

  it('refuses to sign in a Lambda whose key secret is empty', async () => {
    // Prepare
    withSecret('empty');
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'ChatMessagesList';

    // Act
    const error = await encodeCursor('ch1', 'q', 'p').catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(InternalError);
  });
});
