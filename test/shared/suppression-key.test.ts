import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { erasedAt, erasuresOf, writeTombstone } from '../../shared/data/erasure-tombstones';
import { isSuppressed, liftSuppression, suppress } from '../../shared/data/suppression';
import { InternalError } from '../../shared/errors';
import { mockSecretVersions, type SecretVersions } from '../support/secret-versions';

/**
 * The suppression key (the HMAC key of suppression records and erasure tombstones) read at
 * run time from its secret (SUPPRESSION_KEY_SECRET_ARN), never from the environment, and
 * what a rotation means for hashes already stored: written under the current version,
 * found under it and under the version a rotation replaced (AWSPREVIOUS), lost after a
 * second rotation. The table is the real one (dynalite); Secrets Manager is mocked (no local
 * one outside the template-driven mode); each case uses its own secrets and channel, as the
 * key is cached per container.
 */
const arn = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:workspace-api/test/suppression-${name}-AbCdEf`;
/** Each secret's versions by stage. */
const VERSIONS: Record<string, SecretVersions> = {
  [arn('first')]: { AWSCURRENT: 'key-a' },
  [arn('rotated')]: { AWSCURRENT: 'key-b', AWSPREVIOUS: 'key-a' },
  [arn('rotated-twice')]: { AWSCURRENT: 'key-c', AWSPREVIOUS: 'key-b' },
  [arn('empty')]: { AWSCURRENT: '' },
};

const { withSecret: withArn } = mockSecretVersions('SUPPRESSION_KEY_SECRET_ARN', VERSIONS);
const withSecret = (name: string) => withArn(arn(name));
const newChannel = () => ({ workspaceId: `ws_${randomBytes(4).toString('hex')}`, channelId: `ch_${randomBytes(4).toString('hex')}` });

describe('the suppression key, read at run time', () => {
  it('finds an opt-out and an erasure recorded before a rotation, and loses them after a second one', async () => {
    // Prepare: recorded under key-a
    const channel = newChannel();
    withSecret('first');
    await suppress(channel, ['15551230001'], 1_000);
    await writeTombstone(channel, '15551230001', 2_000);

    // Act
    withSecret('rotated');
    const afterRotation = [await isSuppressed(channel, ['15551230001']), await erasedAt(channel, '15551230001')];
    const batched = (await erasuresOf([{ channel, contactKey: '15551230001' }]))(channel, '15551230001');
    withSecret('rotated-twice');
    const afterSecondRotation = [await isSuppressed(channel, ['15551230001']), await erasedAt(channel, '15551230001')];

    // Assess
    expect(afterRotation).toEqual([true, 2_000]);
    expect(batched).toBe(2_000);
    expect(afterSecondRotation).toEqual([false, undefined]);
  });

  it('writes under the current version and lifts an opt-out recorded under the replaced one', async () => {
    // Prepare: an opt-out under key-a, then a later erasure under key-b
    const channel = newChannel();
    withSecret('first');
    await suppress(channel, ['15551230002'], 1_000);
    withSecret('rotated');
    await writeTombstone(channel, '15551230002', 3_000);

    // Act
    await liftSuppression(channel, ['15551230002'], 2_000);
    const lifted = await isSuppressed(channel, ['15551230002']);
    withSecret('rotated-twice');
    const erasureUnderPrevious = await erasedAt(channel, '15551230002');

    // Assess: the lift reached key-a's record; the tombstone was written under key-b, which is now the previous version
    expect(lifted).toBe(false);
    expect(erasureUnderPrevious).toBe(3_000);
  });

  it('refuses to hash when the secret is empty, or in a Lambda without a key, rather than use the known development key', async () => {
    // Prepare
    const channel = newChannel();
    withSecret('empty');

    // Act
    const emptySecret = await isSuppressed(channel, ['15551230003']).catch((error: unknown) => error);
    delete process.env.SUPPRESSION_KEY_SECRET_ARN;
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'ContactsManage';
    const noKey = await isSuppressed(channel, ['15551230003']).catch((error: unknown) => error);

    // Assess
    expect(emptySecret).toBeInstanceOf(InternalError);
    expect(noKey).toBeInstanceOf(InternalError);
  });
});
