import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The phone-number metadata shared/domain/phone.ts parses with: libphonenumber-js's
 * "min" metadata without its number *formats* (about 50 KB of the 83 KB), which only
 * formatting, as-you-type and find-in-text use. normalizePhone only parses and checks
 * possible lengths, so its answers are identical (test/bench/phone-metadata.test.ts
 * compares both on ~100k numbers); every Lambda that normalizes numbers loads ~47 KB less.
 *
 * After upgrading libphonenumber-js, regenerate: `npx tsx bench/phone-metadata.ts`
 * (the test fails until the file matches the installed package).
 */

export const PHONE_METADATA_FILE = join(fileURLToPath(new URL('..', import.meta.url)), 'shared', 'domain', 'phone-metadata.json');

/** Index of `formats` in a country's compressed metadata array (metadata version 4). */
const FORMATS = 4;

type Compressed = { version: number; country_calling_codes: Record<string, string[]>; countries: Record<string, unknown[]>; nonGeographic?: Record<string, unknown[]> };

export function trimPhoneMetadata(full: Compressed): Compressed {
  if (full.version !== 4) throw new Error(`libphonenumber-js metadata version ${full.version}: check the trimmed fields before regenerating`);
  const trim = (plans: Record<string, unknown[]>) => Object.fromEntries(Object.entries(plans).map(([id, plan]) => [id, plan.map((value, i) => (i === FORMATS ? 0 : value))]));
  return {
    version: full.version,
    country_calling_codes: full.country_calling_codes,
    countries: trim(full.countries),
    ...(full.nonGeographic ? { nonGeographic: trim(full.nonGeographic) } : {}),
  };
}

export function installedMinMetadata(): Compressed {
  return createRequire(import.meta.url)('libphonenumber-js/metadata.min.json') as Compressed;
}

export const serializePhoneMetadata = (metadata: Compressed) => `${JSON.stringify(metadata)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = serializePhoneMetadata(trimPhoneMetadata(installedMinMetadata()));
  const before = await readFile(PHONE_METADATA_FILE, 'utf8').catch(() => '');
  await writeFile(PHONE_METADATA_FILE, text);
  console.log(`${PHONE_METADATA_FILE}: ${text.length} bytes${before === text ? ' (unchanged)' : ''}`);
}
