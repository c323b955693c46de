import * as v from 'valibot';
import type { ChannelRef } from '../identity';
import { numberForms } from '../phone/phone';
import { batchGetAll } from './batch';
import { deleteItem, putItem, when } from './client';
import { entity, tagged } from './entity';
import { keys } from './keys';
import { numberHasher } from './number-hash';

/**
 * The channel's suppression records (`SUPPRESS#<hash>`, INTERFACE §15): an opt-out that
 * outlives the contact. Each holds an HMAC-SHA256 of one form of the number (every form
 * the chat network may know it under, shared/phone `numberForms`, and its wa_id) under the
 * stage's suppression key (shared/data/number-hash.ts), and the time of the opt-out; never the number, so an erasure
 * leaves nothing that names the person while the number stays opted out. A send is
 * refused while any form is suppressed; only an opt-in (START/SUBSCRIBE/UNSTOP, or an
 * audited contacts/manage or contacts/import `status` `active`) not older than the
 * opt-out lifts them.
 */

const SuppressionItem = entity('suppression', { at: v.number() });

/**
 * The suppression keys of every form of the numbers (digits with country code): under the
 * current key only (`writing`, for a new record), or under every key a record may be under.
 */
async function suppressionKeys(channel: ChannelRef, numbers: readonly string[], writing = false) {
  const hasher = await numberHasher();
  const forms = new Set(numbers.flatMap(numberForms));
  const hashes = [...forms].flatMap((form) => (writing ? [hasher.current(channel, form)] : hasher.all(channel, form)));
  return hashes.map((hash) => keys.suppression(channel, hash));
}

/** Suppresses every form of the numbers from `at` (idempotent; a later opt-out moves the time on). */
export async function suppress(channel: ChannelRef, numbers: readonly string[], at: number): Promise<void> {
  await Promise.all(
    (await suppressionKeys(channel, numbers, true)).map((key) => putItem(tagged(SuppressionItem, key, { at }), when.or(when.itemAbsent(), when.lte('at', at)))),
  );
}

/** Lifts the suppression of every form of the numbers, unless an opt-out later than `at` is recorded. */
export async function liftSuppression(channel: ChannelRef, numbers: readonly string[], at: number): Promise<void> {
  await Promise.all((await suppressionKeys(channel, numbers)).map((key) => deleteItem(key, when.lte('at', at))));
}

/** Whether any form of the numbers is suppressed (one BatchGetItem). */
export async function isSuppressed(channel: ChannelRef, numbers: readonly string[]): Promise<boolean> {
  return (await batchGetAll(await suppressionKeys(channel, numbers), SuppressionItem, true)).length > 0;
}
