import * as v from 'valibot';
import { AutomationExecution, triggerAutomation } from '../shared/domain/automations';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { channelId, identifier, LIMITS, phone, text } from '../shared/schema/params';

export const schema = v.pipe(
  v.object({
    phoneNumber: described(phone(), 'Phone number of the contact (created when it does not exist), with country code.', '+14155550123'),
    channelId: channelId(),
    automationId: v.optional(described(identifier(), 'Id of the automation to run (or pass automationName).', 'au_01jhx3k8m0')),
    automationName: v.optional(
      described(text(LIMITS.name), 'Name of the automation to run, matched case-insensitively (or pass automationId).', 'Welcome Flow'),
    ),
  }),
  v.check((input) => input.automationId !== undefined || input.automationName !== undefined, 'pass automationId or automationName'),
  v.metadata({ anyOf: [{ required: ['automationId'] }, { required: ['automationName'] }] }),
  v.examples([{ channelId: 'ch_demoacmesupport', phoneNumber: '+14155550123', automationName: 'Welcome Flow' }]),
);

export const response = endpointResponse({
  data: AutomationExecution,
  message: 'Automation "Welcome Flow" triggered',
  errors: [404],
  description: 'The execution started (status triggered).',
});

export const handler = apiEndpoint({
  path: 'automations/trigger',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const data = await triggerAutomation(channel, input);
    return { data, message: `Automation "${data.automationName}" triggered` };
  },
});
