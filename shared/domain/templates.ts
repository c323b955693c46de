import * as v from 'valibot';
import { accessTokenFor } from '../chat/access-tokens';
import { chatNetwork } from '../chat/network';
import { countTemplateVariables, type GraphTemplateComponent } from '../chat/templates';
import { clock } from '../clock';
import { channelRefOf, type ChannelRecord } from '../data/channels';
import { deleteTemplate, findTemplatesByName, listTemplates, putTemplate, TemplateItem, type TemplateRecord } from '../data/templates';
import { NotFoundError } from '../errors';
import type { ChannelRef } from '../identity';
import { described } from '../schema/docs';
import { component } from '../schema/responses';

/** Templates: synced from the chat network into the table, listed and resolved from there. */

export const DEFAULT_LANGUAGE = 'en';

/**
 * Fetches every template of the channel's WABA (any status) and stores it with its
 * variable counts; templates the chat network no longer lists are removed.
 * Returns how many were fetched.
 */
export async function syncTemplates(channel: ChannelRecord): Promise<{ channelId: string; synced: number }> {
  if (!channel.wabaId) throw new Error(`Channel ${channel.id} has no WhatsApp Business Account id (wabaId), so its templates cannot be listed.`);
  const token = await accessTokenFor(channel);
  const fetched = await chatNetwork().listTemplates(channel.wabaId, token);
  const syncedAt = clock.nowIso();
  const stored = await listTemplates(channelRefOf(channel));
  const seen = new Set<string>();
  for (const template of fetched) {
    seen.add(`${template.name}#${template.language}`);
    await putTemplate(channelRefOf(channel), {
      graphId: template.id,
      name: template.name,
      language: template.language,
      status: template.status,
      category: template.category,
      components: template.components,
      ...countTemplateVariables(template.components),
      syncedAt,
    });
  }
  for (const old of stored) {
    if (!seen.has(`${old.name}#${old.language}`)) await deleteTemplate(channelRefOf(channel), old.name, old.language);
  }
  return { channelId: channel.id, synced: fetched.length };
}

const variableCount = TemplateItem.entries.bodyVariables;

const ComponentView = v.strictObject({ type: v.string(), format: v.optional(v.string()), text: v.optional(v.string()), variables: variableCount });

/** A template as chat/templates/list shows it: what a send must fill. */
export const Template = component(
  'Template',
  v.strictObject({
    name: described(TemplateItem.entries.name, 'Exact template name', 'order_update'),
    language: described(TemplateItem.entries.language, 'Language code', 'en'),
    category: described(TemplateItem.entries.category, 'Template category on the chat network', 'UTILITY'),
    status: described(TemplateItem.entries.status, 'Review status (only APPROVED templates are listed)', 'APPROVED'),
    components: described(v.array(ComponentView), 'Components (HEADER, BODY, FOOTER, BUTTONS) with the number of variables each needs'),
    bodyVariables: described(variableCount, 'How many body variables a send must fill ({{1}}, {{2}}, …)', 2),
    header: described(
      v.nullable(
        v.union([
          v.strictObject({ format: v.literal('TEXT'), variables: variableCount }),
          v.strictObject({ format: v.picklist(['IMAGE', 'VIDEO', 'DOCUMENT']) }),
        ]),
      ),
      'The header a send must fill: TEXT with its variable count, a media format (pass image, video or document), or null',
    ),
  }),
);
export type TemplateView = v.InferOutput<typeof Template>;

/** chat/templates/list: the channel's APPROVED templates with their variable counts. */
export async function listApprovedTemplates(channel: ChannelRef): Promise<TemplateView[]> {
  const templates = await listTemplates(channel);
  return templates.filter((template) => template.status === 'APPROVED').map(toTemplateView);
}

function toTemplateView(template: TemplateRecord): TemplateView {
  return {
    name: template.name,
    language: template.language,
    category: template.category,
    status: template.status,
    components: template.components.map(componentView),
    bodyVariables: template.bodyVariables,
    header: template.header,
  };
}

function componentView(component: GraphTemplateComponent): v.InferOutput<typeof ComponentView> {
  const type = String(component.type ?? '').toUpperCase();
  const view: v.InferOutput<typeof ComponentView> = { type, variables: 0 };
  if (typeof component.format === 'string') view.format = component.format.toUpperCase();
  if (typeof component.text === 'string') view.text = component.text;
  if (type === 'BODY') view.variables = countTemplateVariables([component]).bodyVariables;
  if (type === 'HEADER') {
    const header = countTemplateVariables([component]).header;
    view.variables = header === null ? 0 : header.format === 'TEXT' ? header.variables : 1;
  }
  return view;
}

/**
 * The stored, approved template a send names: the exact name in the given language,
 * or, without one, its only language (with several: `en`, else the first). Unknown,
 * unapproved or missing in that language → 404.
 */
export async function resolveTemplate(channel: ChannelRef, name: string, languageCode: string | undefined): Promise<TemplateRecord> {
  const approved = (await findTemplatesByName(channel, name)).filter((template) => template.status === 'APPROVED');
  const chosen =
    languageCode !== undefined
      ? approved.find((template) => template.language === languageCode)
      : approved.length === 1
        ? approved[0]
        : (approved.find((template) => template.language === DEFAULT_LANGUAGE) ?? approved.sort((a, b) => a.language.localeCompare(b.language))[0]);
  if (!chosen && approved.length > 0) {
    const languages = approved.map((template) => template.language).sort();
    throw new NotFoundError(`The approved template "${name}" has no language ${languageCode}; it exists in: ${languages.join(', ')}.`, {
      parameter: 'languageCode',
      languages,
    });
  }
  if (!chosen) {
    throw new NotFoundError(
      `No approved template named "${name}" on this channel. chat/templates/list shows the approved templates; an operator syncs them with template sync.`,
      {
        parameter: 'templateName',
      },
    );
  }
  return chosen;
}
