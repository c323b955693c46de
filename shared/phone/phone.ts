import type { parsePhoneNumberWithError as ParsePhoneNumber } from 'libphonenumber-js/core';
// libphonenumber-js's modern build of the same function its `core` entry exports: the same
// source and version compiled without ES5 class helpers, smaller and faster to load
// (docs/PERFORMANCE.md, "libphonenumber-js's modern build").
// The package exports no path to it and ships no types for it, hence the file path.
// @ts-expect-error -- untyped; typed as libphonenumber-js/core's parsePhoneNumberWithError below
import parseModern from '../../node_modules/libphonenumber-js/es6-modern/parsePhoneNumberWithError.js';
// libphonenumber-js's "min" metadata without number formats, which parsing never reads: less
// in every bundle that normalizes numbers, same answers (see docs/PERFORMANCE.md).
import metadata from './phone-metadata';

const parsePhoneNumberWithError = parseModern as typeof ParsePhoneNumber;

/** Longest input we try to parse; anything longer is not a phone number. */
export const MAX_PHONE_INPUT_LENGTH = 32;

const ALLOWED_PHONE_CHARS = /^[+\d\s\-().]+$/;

/**
 * Normalizes a phone number to digits with country code (E.164 without `+`).
 * Accepts a leading `+` or `00`, spaces, dashes, dots and brackets. Returns undefined
 * when the input is not a possible number with a country code: we never guess a
 * country, since a guess could merge two different people into one contact.
 */
export function normalizePhone(input: string): string | undefined {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_PHONE_INPUT_LENGTH || !ALLOWED_PHONE_CHARS.test(trimmed)) return undefined;
  if (trimmed.indexOf('+') > 0 || trimmed.split('+').length > 2) return undefined;
  let digits = trimmed.replace(/\D/g, '');
  if (!trimmed.startsWith('+') && digits.startsWith('00')) digits = digits.slice(2);
  if (digits.length < 8 || digits.length > 15) return undefined;
  try {
    const parsed = parsePhoneNumberWithError(`+${digits}`, metadata);
    return parsed.isPossible() ? parsed.number.slice(1) : undefined;
  } catch {
    return undefined;
  }
}

/** Masks a phone number for logs: keeps the country code's first digits and the last two. */
export function maskPhone(phone: string): string {
  return phone.length <= 4 ? '****' : `${phone.slice(0, 2)}${'*'.repeat(phone.length - 4)}${phone.slice(-2)}`;
}

/**
 * Every form under which the chat network may know a number (digits with country code),
 * the number first: Brazilian mobiles with and without the ninth digit after the area
 * code (55 AA 9XXXXXXXX ⇄ 55 AA XXXXXXXX, wa_ids use the short form) and Mexican mobiles
 * with and without the 1 after the country code (52 1 XXXXXXXXXX ⇄ 52 XXXXXXXXXX, older
 * wa_ids carry it). An opt-out covers them all (INTERFACE §15).
 */
export function numberForms(phone: string): string[] {
  const brazilLong = /^55(\d{2})9(\d{8})$/.exec(phone);
  if (brazilLong) return [phone, `55${brazilLong[1]}${brazilLong[2]}`];
  const brazilShort = /^55(\d{2})([6-9]\d{7})$/.exec(phone);
  if (brazilShort) return [phone, `55${brazilShort[1]}9${brazilShort[2]}`];
  const mexicoLong = /^521(\d{10})$/.exec(phone);
  if (mexicoLong) return [phone, `52${mexicoLong[1]}`];
  const mexicoShort = /^52(\d{10})$/.exec(phone);
  if (mexicoShort) return [phone, `521${mexicoShort[1]}`];
  return [phone];
}
