/**
 * The suppression key on this machine (shared/data/number-hash.ts): derived from DATA_DIR's
 * local key, so it is the same in every process that hashes numbers over one DATA_DIR and
 * across restarts (a suppression record written under one key is found under no other).
 * npm start gives it to its functions as SUPPRESSION_KEY, the template-driven mode serves
 * it as the value of the stack's suppression-key secret, `npm run sam-env` gives it to
 * SAM's functions, and the bench's handler process sets it as npm start does.
 */
import { createHmac } from 'node:crypto';
import { localKeyFile, readOrCreateLocalKey } from '../../shared/events/secret-box';

export function localSuppressionKey(dataDir: string): { SUPPRESSION_KEY: string } {
  return {
    SUPPRESSION_KEY: createHmac('sha256', readOrCreateLocalKey(localKeyFile(dataDir)))
      .update('suppression key')
      .digest('base64url'),
  };
}
