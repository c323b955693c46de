import {
  buildInteractivePayload,
  buildLocationPayload,
  buildReactionPayload,
  type InteractiveObject,
  type LocationObject,
  type SendPayload,
} from '../chat/payloads';
import { getChatmidRecord, type ChatmidRecord, type MessageContent } from '../data/messages';
import { InvalidInputError, NotFoundError } from '../errors';
import type { ChannelRef } from '../identity';

/**
 * chat/message/send's richer messages (interactive, location, reaction) and quoting
 * (`replyTo`). Their shapes and Meta's limits are checked by the parameter schemas
 * (shared/domain/rich-message-params.ts); what is left here needs the send as a whole
 * (which parameters belong to which type) or the table (the message quoted or reacted
 * to must be one of this contact's in this channel).
 */

export const RICH_TYPES = ['interactive', 'location', 'reaction'] as const;
export type RichType = (typeof RICH_TYPES)[number];

export interface RichSendInput {
  to: string;
  type: string;
  interactive?: InteractiveObject;
  location?: LocationObject;
  reaction?: { messageId: string; emoji: string };
  replyTo?: string;
}

/** The parameters of text and media messages, which a rich message refuses. */
const TEXT_AND_MEDIA_PARAMETERS = ['body', 'url', 'mediaId', 'caption', 'filename'] as const;

export const isRichType = (type: string): type is RichType => (RICH_TYPES as readonly string[]).includes(type);

/** 400 for a rich-message parameter given with another type, and for `replyTo` on a reaction (it names its message already). */
export function refuseForeignRichParameters(input: RichSendInput & Record<string, unknown>): void {
  for (const name of RICH_TYPES) {
    if (input[name] !== undefined && input.type !== name) {
      throw new InvalidInputError(`Invalid parameter ${name}: only for type ${name} (this send is type ${input.type}).`, name);
    }
  }
  if (input.type === 'reaction' && input.replyTo !== undefined) {
    throw new InvalidInputError('Invalid parameter replyTo: a reaction names its message in reaction.messageId and quotes nothing.', 'replyTo');
  }
}

/** The stored content and the Cloud API payload of a rich message; the type's own parameter is required. */
export function richMessage(input: RichSendInput & { type: RichType } & Record<string, unknown>): { content: MessageContent; payload: SendPayload } {
  const given = TEXT_AND_MEDIA_PARAMETERS.find((name) => input[name] !== undefined);
  if (given !== undefined) throw new InvalidInputError(`Invalid parameter ${given}: not for a ${input.type} message.`, given);
  switch (input.type) {
    case 'interactive':
      return {
        content: { ...required(input.interactive, 'interactive') },
        payload: buildInteractivePayload(input.to, required(input.interactive, 'interactive')),
      };
    case 'location':
      return { content: { ...required(input.location, 'location') }, payload: buildLocationPayload(input.to, required(input.location, 'location')) };
    case 'reaction': {
      const { messageId, emoji } = required(input.reaction, 'reaction');
      return { content: { messageId, emoji }, payload: buildReactionPayload(input.to, messageId, emoji) };
    }
  }
}

function required<T>(value: T | undefined, name: RichType): T {
  if (value === undefined) throw new InvalidInputError(`Missing required parameter: ${name} (the content of a ${name} message).`, name, 'missing_parameter');
  return value;
}

/** The chatmids a send points at (the message it quotes, the message it reacts to), by the parameter that names each. */
export function referencedChatmids(input: RichSendInput): Array<{ parameter: string; chatmid: string }> {
  const referenced = [];
  if (input.replyTo !== undefined) referenced.push({ parameter: 'replyTo', chatmid: input.replyTo });
  if (input.reaction !== undefined) referenced.push({ parameter: 'reaction.messageId', chatmid: input.reaction.messageId });
  return referenced;
}

/**
 * 404 unless each chatmid is a message of this contact in this channel. Unknown, of
 * another contact, channel or workspace, or erased: the same answer, so a chatmid of
 * another tenant cannot be confirmed. One consistent read of each pointer.
 */
export async function requireConversationMessages(channel: ChannelRef, phone: string, referenced: ReturnType<typeof referencedChatmids>): Promise<void> {
  for (const { parameter, chatmid } of referenced) {
    const pointer = await getChatmidRecord(chatmid);
    if (!isMessageOf(pointer, channel, phone)) {
      throw new NotFoundError(`No message ${chatmid} of ${phone} in this channel: ${parameter} must name a chatmid of this contact's conversation.`, {
        parameter,
      });
    }
  }
}

/** Whether a pointer is a live message of this contact in this channel. */
export function isMessageOf(pointer: ChatmidRecord | undefined, channel: ChannelRef, phone?: string): pointer is ChatmidRecord {
  return (
    pointer?.workspaceId === channel.workspaceId &&
    pointer.channelId === channel.channelId &&
    pointer.phone !== undefined &&
    (phone === undefined || pointer.phone === phone)
  );
}
