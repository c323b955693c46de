import { channelAssign, channelCreate, keyCreate, workspaceCreate } from '../../scripts/admin/commands';
import { newId } from '../../shared/ids';

export interface TestTenant {
  workspaceId: string;
  adminKey: string;
  adminUserId: string;
  channelIds: string[];
}

/** A fresh workspace with an admin key and `channels` channels, made through the operator commands. */
export async function createTenant(channels = 1): Promise<TestTenant> {
  const { id: workspaceId } = await workspaceCreate(`Test ${newId('t')}`);
  const admin = await keyCreate({ workspaceId, role: 'admin' });
  const channelIds: string[] = [];
  for (let i = 0; i < channels; i++) {
    const { channel } = await channelCreate({ workspaceId, ownerUserId: admin.userId, name: `Channel ${i + 1}`, phoneNumberId: newId('pn') });
    channelIds.push(channel.id);
  }
  return { workspaceId, adminKey: admin.apiKey, adminUserId: admin.userId, channelIds };
}

/** A key of a new user of the tenant's workspace (a team user unless `role` says admin), assigned to the given channels. */
export async function createTeamKey(
  tenant: TestTenant,
  channelIds: string[],
  role: 'team' | 'admin' = 'team',
): Promise<{ apiKey: string; userId: string; keyId: string }> {
  const user = await keyCreate({ workspaceId: tenant.workspaceId, role });
  for (const channelId of channelIds) await channelAssign(channelId, user.userId);
  return user;
}
