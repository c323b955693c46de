import * as v from 'valibot';
import { REPLAYED_SEND_MESSAGE, sendTemplateMessage } from '../shared/domain/messaging';
import { TemplateSendResult } from '../shared/domain/message-view';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { apiReference, CHAT_LIMITS, collectBodyVariables, headerText, languageCode, recipient, variableList } from '../shared/schema/chat-params';
import { channelId, httpUrl, text } from '../shared/schema/params';

/**
 * chat/templates/send: an approved template, checked against the stored template
 * before anything is sent. Body variables come as `variables` (comma-separated or a
 * JSON array) or as `body1`, `body2`, …; the header as `header` (text), `image`,
 * `video`, `document`, or `mediaUrl` with `mediaType`.
 */
const fields = v.looseObject({
  to: recipient(),
  channelId: channelId(),
  templateName: described(text(CHAT_LIMITS.templateName), 'Exact name of an APPROVED template of the channel (see chat/templates/list).', 'order_update'),
  languageCode: v.optional(
    described(languageCode(), 'Template language, e.g. `en` or `en_US`. When omitted: the stored template’s language (falls back to `en`).', 'en'),
  ),
  variables: v.optional(
    v.pipe(
      variableList(),
      v.description(
        'Body variables in order ({{1}}, {{2}}, …): a JSON array or (GET) a comma-separated string; a GET value that contains a comma needs the JSON array as text, e.g. `["Smith, Jr.","A-1001"]` (or `body1`, `body2`, …). Alternatively pass `body1`, `body2`, … (not both). A value may not contain a newline, a tab or more than four consecutive spaces (the chat network refuses them).',
      ),
      // For the OpenAPI document: the two forms with the limits the transform above enforces.
      v.metadata({
        anyOf: [
          { type: 'array', items: { type: 'string', minLength: 1, maxLength: CHAT_LIMITS.variable }, maxItems: CHAT_LIMITS.variables },
          { type: 'string', maxLength: CHAT_LIMITS.variables * (CHAT_LIMITS.variable + 1) },
        ],
      }),
      v.examples([['Bo', 'A-1001']]),
    ),
  ),
  header: v.optional(
    described(headerText(), 'Text for the header variable of a TEXT header; no newline, tab or more than four consecutive spaces.', 'Spring sale'),
  ),
  image: v.optional(described(httpUrl(), 'Header image URL (http or https) for an IMAGE header.', 'https://example.com/promo.jpg')),
  video: v.optional(described(httpUrl(), 'Header video URL (http or https) for a VIDEO header.', 'https://example.com/promo.mp4')),
  document: v.optional(described(httpUrl(), 'Header document URL (http or https) for a DOCUMENT header.', 'https://example.com/terms.pdf')),
  mediaUrl: v.optional(
    described(httpUrl(), 'Header media URL, used with `mediaType` (alternative to image, video, document).', 'https://example.com/promo.jpg'),
  ),
  mediaType: v.optional(described(v.picklist(['image', 'video', 'document'], 'must be one of image, video, document'), 'Type of `mediaUrl`.', 'image')),
  apiReference: v.optional(apiReference()),
});

export const schema = v.pipe(
  fields,
  // A request that makes sense (every parameter's example at once would name every header kind).
  v.examples([{ channelId: 'ch_demoacmesupport', to: '+14155550123', templateName: 'order_update', variables: ['Bo', 'A-1001'], apiReference: 'order-1234' }]),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { to, channelId, templateName, languageCode, variables, header, image, video, document, mediaUrl, mediaType, apiReference } = dataset.value;
    const bodyN = collectBodyVariables(dataset.value);
    if (bodyN.issue) {
      const { parameter, message } = bodyN.issue;
      addIssue({ message, path: [{ type: 'object', origin: 'value', input: dataset.value, key: parameter, value: dataset.value[parameter] }] });
      return NEVER;
    }
    return {
      to,
      channelId,
      templateName,
      languageCode,
      header,
      image,
      video,
      document,
      mediaUrl,
      mediaType,
      apiReference,
      bodyVariables: variables ?? bodyN.values,
      variablesFrom: bodyN.values ? ('bodyN' as const) : ('variables' as const),
    };
  }),
  v.metadata({
    patternProperties: {
      '^body[1-9][0-9]{0,2}$': {
        type: 'string',
        minLength: 1,
        maxLength: CHAT_LIMITS.variable,
        description: 'body1, body2, …: body variables by index, numbered from 1 without gaps (instead of variables).',
      },
    },
  }),
);

export const response = endpointResponse({
  data: TemplateSendResult,
  message: 'Template message accepted by the chat network',
  errors: [404, 409, 502],
  description: 'The send was accepted by the chat network; poll chat/message/status with `chatmid`.',
});

export const handler = apiEndpoint({
  path: 'chat/templates/send',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { data, replayed } = await sendTemplateMessage(channel, input);
    return {
      data: data as v.InferInput<typeof TemplateSendResult>,
      message: replayed ? REPLAYED_SEND_MESSAGE : 'Template message accepted by the chat network',
    };
  },
});
