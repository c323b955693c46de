import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  paginateGetUsagePlans,
} from '@aws-sdk/client-api-gateway';
import { randomBytes } from 'node:crypto';

/**
 * API Gateway usage-plan keys (AWS only), one per API user: the authorizer hands its value
 * to API Gateway as usageIdentifierKey, so the usage plan's throttles apply per user.
 * Made by the operator CLI and by the portal alike (shared/domain/api-keys.ts).
 */

let apiGateway: APIGatewayClient | undefined;
const gatewayClient = () => (apiGateway ??= new APIGatewayClient({}));

const planIds = new Map<string, string>();

/**
 * The id of the usage plan of this name, looked up once per container. The portal's
 * functions get the plan's name, not its id: the plan's stage depends on their methods,
 * so the id in their environment would make a dependency cycle (infra/portal.ts).
 */
export async function usagePlanIdNamed(name: string): Promise<string> {
  const known = planIds.get(name);
  if (known) return known;
  for await (const page of paginateGetUsagePlans({ client: gatewayClient() }, { limit: 500 })) {
    const plan = page.items?.find((candidate) => candidate.name === name);
    if (plan?.id) {
      planIds.set(name, plan.id);
      return plan.id;
    }
  }
  throw new Error(`No usage plan named ${name}`);
}

export interface UsagePlanKey {
  apiGatewayKeyId: string;
  value: string;
}

/**
 * Creates an API Gateway API key for an API user and adds it to the usage plan, so
 * the per-method throttles apply to that user. Clients never see this value: the
 * authorizer hands it to API Gateway as usageIdentifierKey.
 */
export async function createUsagePlanKey(usagePlanId: string, workspaceId: string, userId: string): Promise<UsagePlanKey> {
  const value = randomBytes(30).toString('base64url');
  const created = await gatewayClient().send(
    new CreateApiKeyCommand({
      name: `${workspaceId}/${userId}`,
      value,
      enabled: true,
      description: 'Usage identifier of one API user (set by the operator CLI or the developer portal)',
    }),
  );
  await gatewayClient().send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: created.id!, keyType: 'API_KEY' }));
  return { apiGatewayKeyId: created.id!, value };
}

/** Already gone: a repeated revoke (after a failure half-way) finishes instead of failing. */
const ignoreNotFound = (error: unknown) => {
  if ((error as Error).name !== 'NotFoundException') throw error;
};

/**
 * Takes a user's usage-plan key out of the plan and deletes it (the user has no active
 * key left). Deleted, not disabled: API Gateway allows 10,000 API keys per account and
 * region, disabled ones included, and the quota cannot be raised (docs/DEPLOYMENT.md).
 */
export async function removeUsagePlanKey(usagePlanId: string, apiGatewayKeyId: string): Promise<void> {
  await gatewayClient()
    .send(new DeleteUsagePlanKeyCommand({ usagePlanId, keyId: apiGatewayKeyId }))
    .catch(ignoreNotFound);
  await gatewayClient()
    .send(new DeleteApiKeyCommand({ apiKey: apiGatewayKeyId }))
    .catch(ignoreNotFound);
}
