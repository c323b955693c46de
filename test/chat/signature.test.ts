import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../../shared/chat/signature';

const SECRET = 'app-secret';
const BODY = '{"object":"whatsapp_business_account","entry":[]}';

describe('webhook signatures', () => {
  it('signs as Meta does: sha256= and the hex HMAC of the raw body', () => {
    // Prepare
    const expected = 'sha256=' + createHmac('sha256', SECRET).update(BODY).digest('hex');

    // Act / Assess
    expect(signPayload(BODY, SECRET)).toBe(expected);
    expect(signPayload(Buffer.from(BODY), SECRET)).toBe(expected);
  });

  it('accepts a good signature over text or bytes', () => {
    // Prepare
    const header = signPayload(BODY, SECRET);

    // Act / Assess
    expect(verifySignature(BODY, header, SECRET)).toBe(true);
    expect(verifySignature(Buffer.from(BODY), header.toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toBe(true);
  });

  it('refuses a tampered body, even one that is the same JSON re-serialised', () => {
    // Prepare
    const header = signPayload(BODY, SECRET);

    // Act / Assess
    expect(verifySignature(BODY.replace('[]', '[{}]'), header, SECRET)).toBe(false);
    expect(verifySignature(JSON.stringify(JSON.parse(BODY), null, 1), header, SECRET)).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    // Act / Assess
    expect(verifySignature(BODY, signPayload(BODY, 'other-secret'), SECRET)).toBe(false);
  });

  it('refuses missing or malformed headers and wrong lengths without throwing', () => {
    // Prepare
    const good = signPayload(BODY, SECRET);

    // Act / Assess
    expect(verifySignature(BODY, undefined, SECRET)).toBe(false);
    expect(verifySignature(BODY, null, SECRET)).toBe(false);
    expect(verifySignature(BODY, '', SECRET)).toBe(false);
    expect(verifySignature(BODY, good.slice('sha256='.length), SECRET)).toBe(false);
    expect(verifySignature(BODY, good.replace('sha256=', 'sha1='), SECRET)).toBe(false);
    expect(verifySignature(BODY, good.slice(0, -2), SECRET)).toBe(false);
    expect(verifySignature(BODY, good + 'ab', SECRET)).toBe(false);
    expect(verifySignature(BODY, good.slice(0, -1) + 'z', SECRET)).toBe(false);
  });
});
