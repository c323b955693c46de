import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  UpdateApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { CreateSecretCommand, GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient, TagResourceCommand } from '@aws-sdk/client-secrets-manager';
import { stageTags } from '../../infra/tags';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { awsSettingsFromEnv, channelSecretName, channelSecretTags, configureWebhookSecret, putChannelToken } from '../../scripts/admin/aws';
import { createUsagePlanKey, removeUsagePlanKey } from '../../shared/auth/usage-plan-keys';

// AWS is not reachable here: these calls are checked against mocked clients.
const gateway = mockClient(APIGatewayClient);
const secrets = mockClient(SecretsManagerClient);
const settings = { usagePlanId: 'plan123', stage: 'prod' };

describe('the operator CLI against AWS', () => {
  afterEach(() => {
    gateway.reset();
    secrets.reset();
  });

  it('creates a usage-plan key per API user and adds it to the usage plan', async () => {
    // Prepare
    gateway.on(CreateApiKeyCommand).resolves({ id: 'agk1' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});
    // Act
    const key = await createUsagePlanKey(settings.usagePlanId, 'ws_1', 'usr_1');
    // Assess
    expect(key.apiGatewayKeyId).toBe('agk1');
    expect(key.value.length).toBeGreaterThanOrEqual(30);
    expect(gateway.commandCalls(CreateApiKeyCommand)[0].args[0].input).toMatchObject({ name: 'ws_1/usr_1', value: key.value, enabled: true });
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)[0].args[0].input).toEqual({ usagePlanId: 'plan123', keyId: 'agk1', keyType: 'API_KEY' });
  });

  it('removes the key from the plan and deletes it, so revoked keys never count against the 10,000-key quota', async () => {
    // Prepare
    gateway.on(DeleteUsagePlanKeyCommand).resolves({});
    gateway.on(DeleteApiKeyCommand).resolves({});
    // Act
    await removeUsagePlanKey(settings.usagePlanId, 'agk1');
    // Assess
    expect(gateway.commandCalls(DeleteUsagePlanKeyCommand)[0].args[0].input).toEqual({ usagePlanId: 'plan123', keyId: 'agk1' });
    expect(gateway.commandCalls(DeleteApiKeyCommand).map((call) => call.args[0].input)).toEqual([{ apiKey: 'agk1' }]);
    expect(gateway.commandCalls(UpdateApiKeyCommand)).toHaveLength(0);
  });

  it('finishes a revoke that failed half-way: a key already out of the plan is still deleted', async () => {
    // Prepare
    gateway.on(DeleteUsagePlanKeyCommand).rejects(Object.assign(new Error('Invalid API Key identifier specified'), { name: 'NotFoundException' }));
    gateway.on(DeleteApiKeyCommand).resolves({});
    // Act
    await removeUsagePlanKey(settings.usagePlanId, 'agk1');
    // Assess
    expect(gateway.commandCalls(DeleteApiKeyCommand).map((call) => call.args[0].input)).toEqual([{ apiKey: 'agk1' }]);
  });

  it('still fails on any other error, so the user keeps its usage-plan key on record', async () => {
    // Prepare
    gateway.on(DeleteUsagePlanKeyCommand).rejects(Object.assign(new Error('Too many requests'), { name: 'TooManyRequestsException' }));
    // Act / Assess
    await expect(removeUsagePlanKey(settings.usagePlanId, 'agk1')).rejects.toThrow('Too many requests');
    expect(gateway.commandCalls(DeleteApiKeyCommand)).toHaveLength(0);
  });

  it('stores a channel token under the stage prefix, rotating an existing secret', async () => {
    // Prepare
    secrets.on(CreateSecretCommand).rejectsOnce(Object.assign(new Error('exists'), { name: 'ResourceExistsException' }));
    secrets.on(PutSecretValueCommand).resolves({});
    secrets.on(TagResourceCommand).resolves({});
    // Act
    const name = await putChannelToken(settings, 'ch_1', 'EAAtoken');
    // Assess
    expect(name).toBe('workspace-api/prod/channel/ch_1');
    expect(name).toBe(channelSecretName(settings, 'ch_1'));
    expect(secrets.commandCalls(PutSecretValueCommand)[0].args[0].input).toEqual({ SecretId: name, SecretString: 'EAAtoken' });
    expect(secrets.commandCalls(TagResourceCommand)[0].args[0].input).toEqual({ SecretId: name, Tags: channelSecretTags(settings, 'ch_1') });
  });

  it("tags a new channel secret with the stage's tags (the stack's own) and its channel, as it lives outside the stack", async () => {
    // Prepare
    secrets.on(CreateSecretCommand).resolves({});
    // Act
    await putChannelToken(settings, 'ch_2', 'EAAtoken');
    // Assess
    expect(secrets.commandCalls(CreateSecretCommand)[0].args[0].input.Tags).toEqual([
      { Key: 'project', Value: 'workspace-api' },
      { Key: 'stage', Value: 'prod' },
      { Key: 'channel', Value: 'ch_2' },
    ]);
    expect(Object.entries(stageTags('prod')).map(([Key, Value]) => ({ Key, Value }))).toEqual(channelSecretTags(settings, 'ch_2').slice(0, 2));
  });

  it('sets the Meta app secret in the webhook secret, keeping the generated verify token', async () => {
    // Prepare
    secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ appSecret: '', verifyToken: 'generated-token' }) });
    secrets.on(PutSecretValueCommand).resolves({});
    // Act
    const result = await configureWebhookSecret(settings, 'meta-app-secret');
    // Assess
    expect(result).toEqual({ secretName: 'workspace-api/prod/webhook', verifyToken: 'generated-token' });
    expect(JSON.parse(secrets.commandCalls(PutSecretValueCommand)[0].args[0].input.SecretString!)).toEqual({
      appSecret: 'meta-app-secret',
      verifyToken: 'generated-token',
    });
  });

  it('needs USAGE_PLAN_ID against AWS', () => {
    // Act / Assess
    expect(() => awsSettingsFromEnv({})).toThrow(/USAGE_PLAN_ID/);
    expect(awsSettingsFromEnv({ USAGE_PLAN_ID: 'p' })).toEqual({ usagePlanId: 'p', stage: 'dev' });
  });
});

describe('keeping usage-plan keys in step with API keys (AWS mode)', () => {
  afterEach(() => gateway.reset());

  it("gives a user one usage-plan key for all its keys, and takes it out of the plan with the user's last key", async () => {
    // Prepare
    const { keyCreate, keyRevoke, workspaceCreate } = await import('../../scripts/admin/commands');
    const { getApiUser } = await import('../../shared/data/tenants');
    gateway.on(CreateApiKeyCommand).resolves({ id: 'agk-user' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});
    gateway.on(DeleteUsagePlanKeyCommand).resolves({});
    gateway.on(DeleteApiKeyCommand).resolves({});
    const { id: workspaceId } = await workspaceCreate('AWS sync');
    // Act
    const first = await keyCreate({ workspaceId, role: 'team', usagePlanId: 'plan123' });
    const second = await keyCreate({ workspaceId, role: 'team', userId: first.userId, usagePlanId: 'plan123' });
    const withKey = await getApiUser(workspaceId, first.userId);
    const oneLeft = await keyRevoke(second.keyId, 'plan123');
    const removalsWithOneLeft = gateway.commandCalls(DeleteUsagePlanKeyCommand).length;
    const noneLeft = await keyRevoke(first.keyId, 'plan123');
    const withoutKey = await getApiUser(workspaceId, first.userId);
    // Assess
    expect(gateway.commandCalls(CreateApiKeyCommand)).toHaveLength(1);
    expect(withKey?.usagePlanKeyValue).toEqual(gateway.commandCalls(CreateApiKeyCommand)[0].args[0].input.value);
    expect(oneLeft.user.activeKeys).toBe(1);
    expect(removalsWithOneLeft).toBe(0);
    expect(noneLeft.user.activeKeys).toBe(0);
    expect(gateway.commandCalls(DeleteUsagePlanKeyCommand)[0].args[0].input).toEqual({ usagePlanId: 'plan123', keyId: 'agk-user' });
    expect(gateway.commandCalls(DeleteApiKeyCommand)[0].args[0].input).toEqual({ apiKey: 'agk-user' });
    expect(withoutKey?.usagePlanKeyValue).toBeUndefined();
  });
});
