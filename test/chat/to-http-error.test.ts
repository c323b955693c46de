import { describe, expect, it } from 'vitest';
import { ChatNetworkError, toHttpError, type ChatNetworkErrorInit } from '../../shared/chat/graph-client';
import { BadGatewayError, BadRequestError, NotFoundError, ServiceUnavailableError } from '../../shared/http/errors';

/** A refusal as the client would raise it. */
function rejected(metaCode: number, extra: Partial<ChatNetworkErrorInit> = {}): ChatNetworkError {
  return new ChatNetworkError(`(#${metaCode}) refused`, { outcome: 'rejected', operation: 'send', metaCode, httpStatus: 400, ...extra });
}

describe('toHttpError', () => {
  it.each([
    [131047, 400, 'outside_session_window', /template/i, BadRequestError],
    [132000, 400, 'invalid_parameter', /variables/i, BadRequestError],
    [132001, 404, 'not_found', /template/i, NotFoundError],
    [131026, 400, 'undeliverable', /cannot deliver/i, BadRequestError],
    [190, 502, 'chat_network_error', /access token.*rotate/i, BadGatewayError],
    [100, 400, 'invalid_parameter', /refused a parameter/i, BadRequestError],
    [131008, 400, 'invalid_parameter', /refused a parameter/i, BadRequestError],
    [131000, 502, 'chat_network_error', /131000/, BadGatewayError],
  ])('maps Meta error %i to %i %s', (metaCode, status, code, message, type) => {
    // Act
    const error = toHttpError(rejected(metaCode));

    // Assess
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ statusCode: status, code });
    expect(error.message).toMatch(message);
  });

  it('names the parameter of 400s the caller can fix', () => {
    // Act / Assess
    expect(toHttpError(rejected(131047)).details).toEqual({ parameter: 'to' });
    expect(toHttpError(rejected(132000)).details).toEqual({ parameter: 'variables' });
    expect(toHttpError(rejected(132001)).details).toEqual({ parameter: 'templateName' });
  });

  it.each([130429, 131056])('maps throttling %i to 503 chat_network_throttled with Retry-After', (metaCode) => {
    // Act
    const withHint = toHttpError(rejected(metaCode, { retryAfterSeconds: 3 }));
    const withoutHint = toHttpError(rejected(metaCode));

    // Assess
    expect(withHint).toBeInstanceOf(ServiceUnavailableError);
    expect(withHint).toMatchObject({ statusCode: 503, code: 'chat_network_throttled', headers: { 'Retry-After': '3' } });
    expect(Number(withoutHint.headers?.['Retry-After'])).toBeGreaterThan(0);
  });

  it('maps an HTTP 429 without a Meta code to throttling too', () => {
    // Act
    const error = toHttpError(new ChatNetworkError('slow down', { outcome: 'rejected', operation: 'send', httpStatus: 429, retryAfterSeconds: 30 }));

    // Assess
    expect(error).toMatchObject({ statusCode: 503, code: 'chat_network_throttled', headers: { 'Retry-After': '30' } });
  });

  it('never repeats the Meta text of an invalid token, which may quote it', () => {
    // Prepare
    const error = rejected(190, { details: 'token EAAG-secret is expired' });

    // Act
    const mapped = toHttpError(error);

    // Assess
    expect(mapped.message).not.toContain('EAAG-secret');
  });

  it('maps an unknown send outcome to 502 saying it will settle by webhook', () => {
    // Act
    const error = toHttpError(new ChatNetworkError('timeout', { outcome: 'unknown', operation: 'send' }));

    // Assess
    expect(error).toBeInstanceOf(BadGatewayError);
    expect(error).toMatchObject({ statusCode: 502, code: 'chat_network_error' });
    expect(error.message).toMatch(/outcome is unknown/);
    expect(error.message).toMatch(/webhook/);
  });

  it('maps a failed read to 502 and an unreachable chat network to 503', () => {
    // Act
    const read = toHttpError(new ChatNetworkError('5xx', { outcome: 'unknown', operation: 'list_templates' }));
    const notSent = toHttpError(new ChatNetworkError('refused', { outcome: 'not_sent', operation: 'send' }));

    // Assess
    expect(read).toMatchObject({ statusCode: 502, code: 'chat_network_error' });
    expect(read.message).not.toMatch(/webhook/);
    expect(notSent).toBeInstanceOf(ServiceUnavailableError);
    expect(notSent).toMatchObject({ statusCode: 503 });
    expect(notSent.message).toMatch(/nothing was sent/);
  });
});
