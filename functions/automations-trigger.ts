import * as v from 'valibot';
import { triggerAutomation } from '../shared/domain/automations';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, identifier, LIMITS, phone, text } from '../shared/schema/params';

export const schema = v.pipe(
  v.object({
    phoneNumber: phone(),
    channelId: channelId(),
    automationId: v.optional(identifier()),
    /** Matched case-insensitively. */
    automationName: v.optional(text(LIMITS.name)),
  }),
  v.check((input) => input.automationId !== undefined || input.automationName !== undefined, 'pass automationId or automationName'),
);

export const handler = apiEndpoint({
  path: 'automations/trigger',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const data = await triggerAutomation(channel, input);
    return { data, message: `Automation "${data.automationName}" triggered` };
  },
});
