import * as v from 'valibot';
import { queryAll, queryFirst } from './batch';
import { deleteItem, putItem } from './client';
import { entity, tagged, type Attributes } from './entity';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

/**
 * Message templates of a channel, as the chat network last listed them (any status).
 * One item per name and language; the variable counts are computed once at sync.
 */

/**
 * A template component stored as the chat network listed it (whatever else it carries is
 * kept). The data layer does not import the chat adapter: this is the shape shared/chat's
 * GraphTemplateComponent has, and TypeScript checks the two agree wherever the domain
 * passes one for the other.
 */
const StoredTemplateComponent = v.looseObject({ type: v.string(), format: v.optional(v.string()), text: v.optional(v.string()) });
export type StoredTemplateComponent = v.InferOutput<typeof StoredTemplateComponent>;

/** How many variables a send must fill. */
const variableCount = v.pipe(v.number(), v.integer());

/** The header a send must supply: none, text with variables, or a media format. */
const TemplateHeader = v.nullable(
  v.union([v.object({ format: v.literal('TEXT'), variables: variableCount }), v.object({ format: v.picklist(['IMAGE', 'VIDEO', 'DOCUMENT']) })]),
);

/** A template as the chat network last listed it (any status): one item per name and language. */
export const TemplateItem = entity('template', {
  /** Body variables a send must fill (computed at sync by shared/chat/templates.ts). */
  bodyVariables: variableCount,
  header: TemplateHeader,
  /** The chat network's template id. */
  graphId: v.string(),
  name: v.string(),
  language: v.string(),
  /** APPROVED, PENDING, REJECTED, … as the chat network reports it. */
  status: v.string(),
  category: v.string(),
  components: v.array(StoredTemplateComponent),
  syncedAt: v.string(),
});
export type TemplateRecord = Attributes<typeof TemplateItem>;

/** Every stored template of the channel, whatever its status, ordered by name then language. */
export async function listTemplates(channel: ChannelRef): Promise<TemplateRecord[]> {
  const { pk, skPrefix } = keys.templatePrefix(channel);
  return queryAll(pk, skPrefix, TemplateItem, { consistent: true });
}

/** The stored languages of one exact template name (one query on the name's key prefix). */
export async function findTemplatesByName(channel: ChannelRef, name: string): Promise<TemplateRecord[]> {
  const { pk, skPrefix } = keys.templateNamePrefix(channel, name);
  return (await queryFirst(pk, skPrefix, TemplateItem, { consistent: true })).filter((template) => template.name === name);
}

/** Writes (or overwrites) one template. */
export async function putTemplate(channel: ChannelRef, template: TemplateRecord): Promise<void> {
  await putItem(tagged(TemplateItem, keys.template(channel, template.name, template.language), template));
}

/** Deletes one template (it is no longer listed by the chat network). */
export async function deleteTemplate(channel: ChannelRef, name: string, language: string): Promise<void> {
  await deleteItem(keys.template(channel, name, language));
}
