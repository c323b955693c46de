import * as v from 'valibot';
import { manageWebhook, WebhookResult } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { boolean, channelId, LIMITS, nameList, optionalText, text } from '../shared/schema/params';

export const schema = v.object({
  url: described(
    text(LIMITS.url),
    'Where to POST deliveries: https:// to a public address (the local stack also takes http://127.0.0.1 and http://localhost). The match key in the channel: the same url updates its subscription.',
    'https://example.com/hooks/workspace',
  ),
  channelId: channelId(),
  events: v.optional(
    described(
      nameList(10, 64),
      'Event types to receive, as a JSON array or comma-separated: message.received, message.status, automation.execution.completed, automation.execution.failed, contact.opted_out, contact.opted_in; `*` or absent for every type.',
      ['message.status', 'message.received'],
    ),
  ),
  isActive: v.optional(described(boolean(), 'Whether deliveries are made (`true`/`false`); true again after a 410 deactivated it.', true)),
  description: v.optional(described(optionalText(LIMITS.shortText), 'Free text; an empty string clears it.', 'CRM sync')),
  rotateSecret: v.optional(described(boolean(), 'Issue a new signing secret (shown once); the previous one keeps signing beside it for 24 hours.', false)),
});

export const response = endpointResponse({
  data: WebhookResult,
  message: 'Webhook created; store the secret now, it is not shown again',
  errors: [409],
  description: 'The subscription; `secret` only when it was created or its secret rotated.',
});

export const handler = apiEndpoint({
  path: 'webhooks/manage',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel, principal }) => {
    const webhook = await manageWebhook(channel, principal.userId, input);
    const message = webhook.created
      ? 'Webhook created; store the secret now, it is not shown again'
      : webhook.secret
        ? 'Webhook secret rotated; the previous secret signs too for 24 hours'
        : 'Webhook updated';
    return { data: webhook, message };
  },
});
