import { queryAll, queryFirstPage } from './batch';
import { deleteItem, putItem } from './client';
import { keys } from './keys';

/**
 * Message templates of a channel, as the chat network last listed them (any status).
 * One item per name and language; the variable counts are computed once at sync.
 */

/** A template component as the chat network lists it (its `HEADER`, `BODY`, `BUTTONS`…), stored as given. */
export interface TemplateComponentRecord {
  type: string;
  format?: string;
  text?: string;
  [key: string]: unknown;
}

/** What a send of the template must supply, computed once at sync (shared/chat/templates.ts counts it). */
export interface StoredVariableCounts {
  bodyVariables: number;
  header: null | { format: 'TEXT'; variables: number } | { format: 'IMAGE' | 'VIDEO' | 'DOCUMENT' };
}

export interface TemplateRecord extends StoredVariableCounts {
  /** The chat network's template id. */
  graphId: string;
  name: string;
  language: string;
  /** APPROVED, PENDING, REJECTED, … as the chat network reports it. */
  status: string;
  category: string;
  components: TemplateComponentRecord[];
  syncedAt: string;
}

/** Every stored template of the channel, whatever its status, ordered by name then language. */
export async function listTemplates(workspaceId: string, channelId: string): Promise<TemplateRecord[]> {
  const { pk, skPrefix } = keys.templatePrefix(workspaceId, channelId);
  return queryAll<TemplateRecord>(pk, skPrefix, { consistent: true });
}

/** The stored languages of one exact template name (one query on the name's key prefix). */
export async function findTemplatesByName(workspaceId: string, channelId: string, name: string): Promise<TemplateRecord[]> {
  const { pk, skPrefix } = keys.templateNamePrefix(workspaceId, channelId, name);
  return (await queryFirstPage<TemplateRecord>(pk, skPrefix, { consistent: true })).filter((template) => template.name === name);
}

/** Writes (or overwrites) one template. */
export async function putTemplate(workspaceId: string, channelId: string, template: TemplateRecord): Promise<void> {
  await putItem({ ...keys.template(workspaceId, channelId, template.name, template.language), entity: 'template', ...template });
}

/** Deletes one template (it is no longer listed by the chat network). */
export async function deleteTemplate(workspaceId: string, channelId: string, name: string, language: string): Promise<void> {
  await deleteItem(keys.template(workspaceId, channelId, name, language));
}
