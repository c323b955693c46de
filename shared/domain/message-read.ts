import * as v from 'valibot';
import type { Principal } from '../auth/principal';
import { accessTokenFor } from '../chat/access-tokens';
import { ChatNetworkError, toCallerError } from '../chat/graph-client';
import { chatNetwork } from '../chat/network';
import { clock } from '../clock';
import { getChannel } from '../data/channels';
import { recordInboundRead } from '../data/messages';
import { ForbiddenError, InvalidInputError } from '../errors';
import { described } from '../schema/docs';
import { component, timestamp } from '../schema/responses';
import { chatmidOfCaller } from './message-status';

/** What chat/message/read answers. */
export const MessageReadResult = component(
  'MessageReadResult',
  v.strictObject({
    chatmid: described(v.string(), 'The inbound message marked read', 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0'),
    status: described(v.literal('read'), 'Always read: the contact sees the message as read (blue ticks)', 'read'),
    typingIndicator: described(v.boolean(), 'Whether the typing indicator was shown (until the next message is sent, at most 25 seconds)', true),
    readAt: timestamp('When the message was first marked read (marking again keeps it)'),
  }),
);

/**
 * chat/message/read: marks an inbound message read on the chat network (Cloud API
 * `status: read`), optionally showing the typing indicator. Like chat/message/status, the
 * chatmid names the channel: unknown, of another workspace or of a channel the key may
 * not use is the same 403; an outbound message is a 400. The chat network is asked every
 * time (marking read is idempotent there); the pointer keeps when it was first marked.
 */
export async function markMessageRead(
  principal: Principal,
  input: { chatmid: string; typingIndicator: boolean },
): Promise<v.InferOutput<typeof MessageReadResult>> {
  const pointer = await chatmidOfCaller(principal, input.chatmid);
  if (pointer.direction !== 'inbound') {
    throw new InvalidInputError('Invalid parameter chatmid: only a message the contact sent (inbound) can be marked read.', 'chatmid');
  }
  const channel = await getChannel({ workspaceId: pointer.workspaceId, channelId: pointer.channelId });
  if (!channel) throw new ForbiddenError('This API key may not read that message, or no such message exists.', { parameter: 'chatmid' });
  try {
    await chatNetwork().markRead(channel.phoneNumberId, await accessTokenFor(channel), input.chatmid, { typingIndicator: input.typingIndicator });
  } catch (error) {
    throw error instanceof ChatNetworkError ? toCallerError(error) : error;
  }
  const now = clock.now();
  await recordInboundRead(input.chatmid, now);
  return { chatmid: input.chatmid, status: 'read', typingIndicator: input.typingIndicator, readAt: new Date(pointer.readAt ?? now).toISOString() };
}
