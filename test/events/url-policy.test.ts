import { describe, expect, it } from 'vitest';
import { addressRefusal, checkWebhookUrl, resolveAllowedAddresses, type Resolver } from '../../shared/events/url-policy';

const aws = { allowLoopback: false };
const local = { allowLoopback: true };
const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) =>
    table[hostname] ?? [];

describe('webhook URL policy (SSRF defence)', () => {
  it.each([
    '10.0.0.5',
    '172.16.3.4',
    '192.168.1.1',
    '169.254.169.254',
    '127.0.0.1',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    '192.0.2.10',
    // IPv4-compatible IPv6 (deprecated ::a.b.c.d): link-local and loopback in disguise
    '::a9fe:a9fe',
    '::7f00:1',
    // Outside 2000::/3, the only global unicast space
    '4000::1',
    '100::1',
  ])('refuses %s under the AWS rules', (address) => {
    // Act / Assess
    expect(addressRefusal(address, aws)).toMatch(/public addresses only/);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('accepts the public address %s', (address) => {
    expect(addressRefusal(address, aws)).toBeUndefined();
  });

  it('accepts loopback on the local stack only, and still refuses every other private address there', () => {
    expect(addressRefusal('127.0.0.1', local)).toBeUndefined();
    expect(addressRefusal('::1', local)).toBeUndefined();
    expect(addressRefusal('10.0.0.1', local)).toMatch(/private/);
    expect(addressRefusal('169.254.169.254', local)).toMatch(/linkLocal/);
  });

  it.each([
    ['not a url', aws, /absolute https/],
    ['ftp://example.com/x', aws, /https/],
    ['http://example.com/hook', aws, /https/],
    ['http://127.0.0.1:8080/hook', aws, /https/],
    ['https://user:pw@example.com/hook', aws, /credentials/],
    ['https://10.0.0.8/hook', aws, /private/],
    ['https://169.254.169.254/latest/meta-data', aws, /linkLocal/],
    ['https://[::1]/hook', aws, /loopback/],
    ['https://127.0.0.1/hook', aws, /loopback/],
    ['http://10.0.0.8/hook', local, /127\.0\.0\.1 or localhost/],
    ['http://example.com/hook', local, /127\.0\.0\.1 or localhost/],
  ])('refuses %s at registration with a 400 naming url', (url, policy, why) => {
    // Act
    const check = () => checkWebhookUrl(url, policy);

    // Assess
    expect(check).toThrow(why);
    try {
      check();
    } catch (error) {
      expect(error).toMatchObject({ kind: 'invalid_input', parameter: 'url' });
    }
  });

  it.each([
    ['https://hooks.example.com/x', aws],
    ['http://127.0.0.1:4010/hook', local],
    ['http://localhost:4010/hook', local],
  ])('accepts %s', (url, policy) => {
    expect(checkWebhookUrl(url, policy).href).toBe(new URL(url).href);
  });

  it('refuses a name that resolves to a private address, or to any private address among public ones', async () => {
    // Prepare
    const resolve = resolverOf({ 'rebind.example': ['10.1.2.3'], 'mixed.example': ['93.184.216.34', '169.254.169.254'], 'ok.example': ['93.184.216.34'] });

    // Act / Assess
    await expect(resolveAllowedAddresses(new URL('https://rebind.example/'), aws, resolve)).rejects.toThrow(/private/);
    await expect(resolveAllowedAddresses(new URL('https://mixed.example/'), aws, resolve)).rejects.toThrow(/linkLocal/);
    await expect(resolveAllowedAddresses(new URL('https://nowhere.example/'), aws, resolve)).rejects.toThrow(/does not resolve/);
    await expect(resolveAllowedAddresses(new URL('https://ok.example/'), aws, resolve)).resolves.toEqual(['93.184.216.34']);
  });
});
