import * as v from 'valibot';
import { queryAll } from './batch';
import { putNew } from './client';
import { entity, tagged, type Attributes } from './entity';
import { keys } from './keys';

/** What a portal user did to a key: who (the signed-in email and their API user), which key, when; never the key. */
const PortalAuditItem = entity('portalAudit', {
  action: v.picklist(['key_created', 'key_revoked', 'key_rotated']),
  keyId: v.string(),
  /** key_rotated: the key made in its place. */
  replacementKeyId: v.optional(v.string()),
  email: v.string(),
  userId: v.string(),
  at: v.string(),
});
export type PortalAuditRecord = Attributes<typeof PortalAuditItem>;

/** Records one portal action (one PutItem, its id unique: nothing is overwritten). */
export async function recordPortalAudit(workspaceId: string, auditId: string, record: PortalAuditRecord): Promise<void> {
  await putNew(tagged(PortalAuditItem, keys.portalAudit(workspaceId, Date.parse(record.at), auditId), record));
}

/** The workspace's portal actions, oldest first (operators and tests). */
export async function listPortalAudit(workspaceId: string): Promise<PortalAuditRecord[]> {
  const { pk, skPrefix } = keys.portalAuditPrefix(workspaceId);
  return (await queryAll(pk, skPrefix, PortalAuditItem)).map(({ action, keyId, replacementKeyId, email, userId, at }) => ({
    action,
    keyId,
    replacementKeyId,
    email,
    userId,
    at,
  }));
}
