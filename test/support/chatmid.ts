import { randomBytes } from 'node:crypto';

/**
 * A message id of the chat network's shape (`wamid.` and an opaque string), new for each
 * call. In hex: a base64url id may spell an access token's shape (EAA and twelve letters
 * or digits), which the run's log audit (test/support/log-audit.ts) then reports.
 */
export const newChatmid = () => `wamid.${randomBytes(24).toString('hex')}`;
