import * as v from 'valibot';
import { CUSTOM_FIELD_TYPES, getCustomField, upsertCustomField } from '../shared/data/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { BadRequestError } from '../shared/http/errors';
import { boolean, channelId, LIMITS, nameList, text, UNSTORABLE_FIELD_NAMES } from '../shared/http/params';

export const schema = v.object({
  name: v.pipe(text(LIMITS.name), v.check((name) => !UNSTORABLE_FIELD_NAMES.has(name), 'cannot be __proto__ (a name custom field values cannot be stored under)')),
  channelId: channelId(),
  type: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.toLowerCase(), v.picklist(CUSTOM_FIELD_TYPES, `must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`))),
  isRequired: v.optional(boolean()),
  options: v.optional(nameList(LIMITS.optionEntries, LIMITS.optionLength)),
});

export const handler = apiEndpoint({
  path: 'custom-fields/manage',
  schema,
  channelScoped: true,
  handle: async ({ name, type, isRequired, options }, { principal, channelId }) => {
    // Whether options fit depends on the stored field when this call leaves type or options out.
    const needsStored = (type === 'dropdown' && !options?.length) || (options?.length && type === undefined);
    const existing = needsStored ? await getCustomField(principal.workspaceId, channelId, name) : undefined;
    const finalType = type ?? existing?.type ?? 'text';
    if (finalType === 'dropdown' && !options?.length && !existing?.options.length) {
      throw new BadRequestError('A dropdown field needs options: pass options as a JSON array or comma-separated.', 'options', 'missing_parameter');
    }
    if (options?.length && finalType !== 'dropdown') {
      throw new BadRequestError(`Options apply only to dropdown fields, not to ${finalType} fields.`, 'options');
    }
    const changes = Object.fromEntries(Object.entries({ type, isRequired, options }).filter(([, value]) => value !== undefined));
    const { field, created } = await upsertCustomField(principal.workspaceId, channelId, name, changes);
    return { data: { ...field, created }, message: created ? 'Custom field created' : 'Custom field updated' };
  },
});
