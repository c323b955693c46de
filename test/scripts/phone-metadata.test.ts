import { readFile } from 'node:fs/promises';
import { parsePhoneNumberWithError } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/examples.mobile.json';
import { describe, expect, it } from 'vitest';
import { installedMinMetadata, PHONE_METADATA_FILE, serializePhoneMetadata, trimPhoneMetadata } from '../../scripts/phone-metadata';
import { bundlePath } from '../../infra/bundles';
import { normalizePhone } from '../../shared/phone/phone';

/** normalizePhone as it was with the full "min" metadata: the reference for the trimmed copy. */
function withFullMetadata(input: string): string | undefined {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > 32 || !/^[+\d\s\-().]+$/.test(trimmed)) return undefined;
  if (trimmed.indexOf('+') > 0 || trimmed.split('+').length > 2) return undefined;
  let digits = trimmed.replace(/\D/g, '');
  if (!trimmed.startsWith('+') && digits.startsWith('00')) digits = digits.slice(2);
  if (digits.length < 8 || digits.length > 15) return undefined;
  try {
    const parsed = parsePhoneNumberWithError(`+${digits}`);
    return parsed.isPossible() ? parsed.number.slice(1) : undefined;
  } catch {
    return undefined;
  }
}

describe('trimmed phone-number metadata (shared/phone/phone-metadata.ts)', () => {
  it('is the installed libphonenumber-js min metadata without number formats (regenerate: npm run phone-metadata)', async () => {
    // Prepare
    const expected = serializePhoneMetadata(trimPhoneMetadata(installedMinMetadata()));
    // Act
    const stored = await readFile(PHONE_METADATA_FILE, 'utf8');
    // Assess
    expect(stored === expected).toBe(true);
  });

  it('normalizes numbers exactly as the full metadata does, for every calling code and length', () => {
    // Prepare
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const inputs: string[] = [];
    for (const code of Object.keys(installedMinMetadata().country_calling_codes)) {
      for (let length = 7; length <= 16; length++) {
        for (let k = 0; k < 12; k++) {
          let digits = code;
          while (digits.length < length) digits += Math.floor(random() * 10);
          inputs.push(`+${digits}`, `00${digits}`, `+${code} (${digits.slice(code.length, code.length + 3)}) ${digits.slice(code.length + 3)}`);
        }
      }
    }
    for (const [country, national] of Object.entries(examples as Record<string, string>)) {
      const code = installedMinMetadata().countries[country][0] as string;
      inputs.push(`+${code}${national}`, `+${code} 0${national}`, `+${code}${national}9`, `${code}${national}`);
    }
    // Act
    const differences = inputs.filter((input) => normalizePhone(input) !== withFullMetadata(input));
    // Assess
    expect(inputs.length).toBeGreaterThan(20_000);
    expect(differences).toEqual([]);
  });

  it('is left out of the bundles of functions that never normalize a number (the parse is marked pure)', async () => {
    // Act
    const [withPhones, withoutPhones] = await Promise.all([readFile(bundlePath('ContactsManage'), 'utf8'), readFile(bundlePath('ContactsList'), 'utf8')]);

    // Assess
    expect(withPhones).toContain('country_calling_codes');
    expect(withoutPhones).not.toContain('country_calling_codes');
  });
});
