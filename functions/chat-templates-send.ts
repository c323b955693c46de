import * as v from 'valibot';
import { REPLAYED_SEND_MESSAGE, sendTemplateMessage } from '../shared/domain/messaging';
import { apiEndpoint } from '../shared/http/api-handler';
import { apiReference, CHAT_LIMITS, collectBodyVariables, headerText, languageCode, variableList } from '../shared/schema/chat-params';
import { channelId, httpUrl, phone, text } from '../shared/schema/params';

/**
 * chat/templates/send: an approved template, checked against the stored template
 * before anything is sent. Body variables come as `variables` (comma-separated or a
 * JSON array) or as `body1`, `body2`, …; the header as `header` (text), `image`,
 * `video`, `document`, or `mediaUrl` with `mediaType`.
 */
const fields = v.looseObject({
  to: phone(),
  channelId: channelId(),
  templateName: text(CHAT_LIMITS.templateName),
  languageCode: v.optional(languageCode()),
  variables: v.optional(variableList()),
  header: v.optional(headerText()),
  image: v.optional(httpUrl()),
  video: v.optional(httpUrl()),
  document: v.optional(httpUrl()),
  mediaUrl: v.optional(httpUrl()),
  mediaType: v.optional(v.picklist(['image', 'video', 'document'], 'must be one of image, video, document')),
  apiReference: v.optional(apiReference()),
});

export const schema = v.pipe(
  fields,
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
);

export const handler = apiEndpoint({
  path: 'chat/templates/send',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { data, replayed } = await sendTemplateMessage(channel, input);
    return { data, message: replayed ? REPLAYED_SEND_MESSAGE : 'Template message accepted by the chat network' };
  },
});
