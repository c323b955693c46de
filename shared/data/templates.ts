import { queryAll, queryFirstPage } from './batch';
import { deleteItem, putItem } from './client';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

/**
 * Message templates of a channel, as the chat network last listed them (any status).
 * One item per name and language; the variable counts are computed once at sync.
 */

/**
 * A template component stored as the chat network listed it. The data layer does not
 * import the chat adapter: this is the shape shared/chat's GraphTemplateComponent has,
 * and TypeScript checks the two agree wherever the domain passes one for the other.
 */
export interface StoredTemplateComponent {
  type: string;
  format?: string;
  text?: string;
  [key: string]: unknown;
}

export interface TemplateRecord {
  /** Body variables a send must fill (computed at sync by shared/chat/templates.ts). */
  bodyVariables: number;
  /** The header a send must supply: none, text with variables, or a media format. */
  header: null | { format: 'TEXT'; variables: number } | { format: 'IMAGE' | 'VIDEO' | 'DOCUMENT' };
  /** The chat network's template id. */
  graphId: string;
  name: string;
  language: string;
  /** APPROVED, PENDING, REJECTED, … as the chat network reports it. */
  status: string;
  category: string;
  components: StoredTemplateComponent[];
  syncedAt: string;
}

/** Every stored template of the channel, whatever its status, ordered by name then language. */
export async function listTemplates(channel: ChannelRef): Promise<TemplateRecord[]> {
  const { pk, skPrefix } = keys.templatePrefix(channel);
  return queryAll<TemplateRecord>(pk, skPrefix, { consistent: true });
}

/** The stored languages of one exact template name (one query on the name's key prefix). */
export async function findTemplatesByName(channel: ChannelRef, name: string): Promise<TemplateRecord[]> {
  const { pk, skPrefix } = keys.templateNamePrefix(channel, name);
  return (await queryFirstPage<TemplateRecord>(pk, skPrefix, { consistent: true })).filter((template) => template.name === name);
}

/** Writes (or overwrites) one template. */
export async function putTemplate(channel: ChannelRef, template: TemplateRecord): Promise<void> {
  await putItem({ ...keys.template(channel, template.name, template.language), entity: 'template', ...template });
}

/** Deletes one template (it is no longer listed by the chat network). */
export async function deleteTemplate(channel: ChannelRef, name: string, language: string): Promise<void> {
  await deleteItem(keys.template(channel, name, language));
}
