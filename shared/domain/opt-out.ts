import { createHash } from 'node:crypto';
import { writeStatusChange, type ContactStatus, type StatusChange } from '../data/contact-status';
import type { ContactRecord } from '../data/contacts';
import { isSuppressed } from '../data/suppression';
import type { ChannelRef } from '../identity';
import { optOutEvent } from './event-builders';
import { handOffEvents } from './events';
import { ForbiddenError } from '../errors';
import { newId } from '../ids';

/**
 * Opt-out and opt-in (INTERFACE §7): by keyword in an inbound text, or by contacts/manage
 * `status`. Sends to an opted-out contact are refused before the chat network is called.
 */

/** Inbound texts that opt the contact out (the whole text, as {@link keywordOf} reads it; docs/MESSAGING.md). */
export const OPT_OUT_KEYWORDS: readonly string[] = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
/** Inbound texts that opt the contact back in. */
export const OPT_IN_KEYWORDS: readonly string[] = ['START', 'SUBSCRIBE', 'UNSTOP'];

/** Invisible characters (format and control characters: zero-width spaces and joiners, BOM, direction marks). */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;
/** Whitespace, punctuation and symbols at either end (`Stop.`, `STOP!`, `¿Stop?`, `*stop*`). */
const EDGES = /^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu;

/**
 * The word a text would be as a keyword: Unicode NFKC (fullwidth `ＳＴＯＰ` and other
 * compatibility forms become `STOP`), without invisible characters, without whitespace,
 * punctuation and symbols at either end, in upper case. A keyword inside a longer text
 * (`please stop sending`) stays a longer text.
 */
export const keywordOf = (text: string): string => text.normalize('NFKC').replace(INVISIBLE, '').replace(EDGES, '').toUpperCase();

/** The status an inbound text asks for, or undefined when it is not a keyword. */
export function keywordStatus(text: string | undefined): ContactStatus | undefined {
  if (text === undefined) return undefined;
  const word = keywordOf(text);
  if (OPT_OUT_KEYWORDS.includes(word)) return 'opted_out';
  if (OPT_IN_KEYWORDS.includes(word)) return 'active';
  return undefined;
}

/**
 * Applies a status change to a contact (shared/data/contact-status.ts `writeStatusChange`:
 * the audit record, the status unless a later change is recorded, the opted-out set,
 * each idempotent) and hands over its `contact.opted_out` / `contact.opted_in` event,
 * which rides on the status write when the status really changes. Returns the contact as
 * it is afterwards.
 */
export async function changeContactStatus(
  channel: ChannelRef,
  contact: Pick<ContactRecord, 'id' | 'phone' | 'status'>,
  change: StatusChange,
  changeId: string = newId('sc'),
): Promise<ContactRecord | undefined> {
  const written = await recordContactStatus(channel, contact, change, changeId);
  if (written?.events) await handOffEvents(written.events);
  return written?.contact;
}

/**
 * The status change of {@link changeContactStatus} without the hand-off, for a caller
 * that hands its event over after the event of its cause (a keyword's message.received):
 * the returned ticket, which the re-drive hands over should the caller not get to it.
 * `cause`: that event's id, after which this event sorts in the log (cause before effect).
 */
export async function recordContactStatus(
  channel: ChannelRef,
  contact: Pick<ContactRecord, 'id' | 'phone' | 'status'>,
  change: StatusChange,
  changeId: string,
  cause?: string,
): ReturnType<typeof writeStatusChange> {
  // An event only for a real change (a second STOP is recorded for audit, but changes nothing an integrator must hear of).
  const changes = (contact.status ?? 'active') !== change.status;
  const event = changes ? optOutEvent(channel.channelId, { id: contact.id, phone: contact.phone }, change, cause) : undefined;
  return writeStatusChange(channel, contact, change, changeId, event);
}

/** A stable change id for a keyword message, so a repeated delivery rewrites its own audit record. */
export const keywordChangeId = (chatmid: string) => `sc_kw_${createHash('sha256').update(chatmid).digest('base64url').slice(0, 22)}`;

/**
 * 403 `contact_opted_out` for a send to an opted-out contact (before anything reaches the
 * chat network): its status, or a suppression record of any form of its number or wa_id
 * (an opt-out kept through an erasure, or written under another form of the number).
 */
export async function refuseIfOptedOut(channel: ChannelRef, contact: Pick<ContactRecord, 'status' | 'phone' | 'waId'>): Promise<void> {
  if (contact.status !== 'opted_out' && !(await isSuppressed(channel, contact.waId ? [contact.phone, contact.waId] : [contact.phone]))) return;
  throw new ForbiddenError(
    `Contact opted out (contact_opted_out): ${contact.phone} has opted out of messages from this channel, so nothing was sent. The contact opts in again by writing START, or through contacts/manage status=active with their consent.`,
    { parameter: 'to' },
    'contact_opted_out',
  );
}
