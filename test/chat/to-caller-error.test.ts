import { describe, expect, it } from 'vitest';
import { ChatNetworkError, toCallerError, type ChatNetworkErrorInit } from '../../shared/chat/graph-client';
import { UpstreamError, InvalidInputError, NotFoundError, UnavailableError } from '../../shared/errors';
import { statusOf } from '../../shared/http/errors';
import type { AppError } from '../../shared/errors';

/** What the caller receives for the mapped error: the status, the code and the Retry-After header. */
const answer = (error: AppError) => ({
  statusCode: statusOf(error),
  code: error.code,
  headers: error.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(error.retryAfterSeconds) },
});

/** A refusal as the client would raise it. */
function rejected(metaCode: number, extra: Partial<ChatNetworkErrorInit> = {}): ChatNetworkError {
  return new ChatNetworkError(`(#${metaCode}) refused`, { outcome: 'rejected', operation: 'send', metaCode, httpStatus: 400, ...extra });
}

describe('toCallerError', () => {
  it.each([
    [131047, 400, 'outside_session_window', /template/i, InvalidInputError],
    [132000, 400, 'invalid_parameter', /variables/i, InvalidInputError],
    [132001, 404, 'not_found', /template/i, NotFoundError],
    [131026, 400, 'undeliverable', /cannot deliver/i, InvalidInputError],
    [190, 502, 'chat_network_error', /access token.*rotate/i, UpstreamError],
    [100, 400, 'invalid_parameter', /refused a parameter/i, InvalidInputError],
    [131008, 400, 'invalid_parameter', /refused a parameter/i, InvalidInputError],
    [131000, 502, 'chat_network_error', /131000/, UpstreamError],
  ])('maps Meta error %i to %i %s', (metaCode, status, code, message, type) => {
    // Act
    const error = toCallerError(rejected(metaCode));

    // Assess
    expect(error).toBeInstanceOf(type);
    expect(answer(error)).toMatchObject({ statusCode: status, code });
    expect(error.message).toMatch(message);
  });

  it('names the parameter of 400s the caller can fix', () => {
    // Act / Assess
    expect(toCallerError(rejected(131047)).details).toEqual({ parameter: 'to' });
    expect(toCallerError(rejected(132000)).details).toEqual({ parameter: 'variables' });
    expect(toCallerError(rejected(132001)).details).toEqual({ parameter: 'templateName' });
  });

  it("maps Meta's refusal of a media id the number does not hold (100) to 400 unknown_media_id naming mediaId, or interactive for a header", () => {
    // Act
    const message = toCallerError(rejected(100, { details: "Param image['id'] is not a valid whatsapp business account media attachment ID" }));
    const header = toCallerError(rejected(100, { details: "Param header['video']['id'] is not a valid whatsapp business account media attachment ID" }));
    const other = toCallerError(rejected(100, { details: "Param image['link'] must be an http or https URL." }));
    // Assess
    expect(answer(message)).toMatchObject({ statusCode: 400, code: 'unknown_media_id' });
    expect(message.details).toEqual({ parameter: 'mediaId' });
    expect(header.details).toEqual({ parameter: 'interactive' });
    expect(answer(other)).toMatchObject({ statusCode: 400, code: 'invalid_parameter' });
  });

  it.each([130429, 131056])('maps throttling %i to 503 chat_network_throttled with Retry-After', (metaCode) => {
    // Act
    const withHint = toCallerError(rejected(metaCode, { retryAfterSeconds: 3 }));
    const withoutHint = toCallerError(rejected(metaCode));

    // Assess
    expect(withHint).toBeInstanceOf(UnavailableError);
    expect(answer(withHint)).toMatchObject({ statusCode: 503, code: 'chat_network_throttled', headers: { 'Retry-After': '3' } });
    expect(Number(withoutHint.retryAfterSeconds)).toBeGreaterThan(0);
  });

  it('maps an HTTP 429 without a Meta code to throttling too', () => {
    // Act
    const error = toCallerError(new ChatNetworkError('slow down', { outcome: 'rejected', operation: 'send', httpStatus: 429, retryAfterSeconds: 30 }));

    // Assess
    expect(answer(error)).toMatchObject({ statusCode: 503, code: 'chat_network_throttled', headers: { 'Retry-After': '30' } });
  });

  it('never repeats the Meta text of an invalid token, which may quote it', () => {
    // Prepare
    const error = rejected(190, { details: 'token EAAG-secret is expired' });

    // Act
    const mapped = toCallerError(error);

    // Assess
    expect(mapped.message).not.toContain('EAAG-secret');
  });

  it('maps an unknown send outcome to 502 saying it will settle by webhook', () => {
    // Act
    const error = toCallerError(new ChatNetworkError('timeout', { outcome: 'unknown', operation: 'send' }));

    // Assess
    expect(error).toBeInstanceOf(UpstreamError);
    expect(answer(error)).toMatchObject({ statusCode: 502, code: 'chat_network_error' });
    expect(error.message).toMatch(/outcome is unknown/);
    expect(error.message).toMatch(/webhook/);
  });

  it('maps a failed read to 502 and an unreachable chat network to 503', () => {
    // Act
    const read = toCallerError(new ChatNetworkError('5xx', { outcome: 'unknown', operation: 'list_templates' }));
    const notSent = toCallerError(new ChatNetworkError('refused', { outcome: 'not_sent', operation: 'send' }));

    // Assess
    expect(answer(read)).toMatchObject({ statusCode: 502, code: 'chat_network_error' });
    expect(read.message).not.toMatch(/webhook/);
    expect(notSent).toBeInstanceOf(UnavailableError);
    expect(answer(notSent)).toMatchObject({ statusCode: 503 });
    expect(notSent.message).toMatch(/nothing was sent/);
  });
});
