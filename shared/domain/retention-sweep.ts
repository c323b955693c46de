import { clock } from '../clock';
import { blankExpiredMessage, dueForBlanking } from '../data/message-retention';
import { retentionMs } from './retention';

/** Messages one sweep blanks at most from each shard (the next sweep takes the rest). */
const PER_SHARD = 200;

/**
 * The retention sweep (MessageContentSweep every hour in AWS, the local runner loop
 * every 30 s): blanks the content of every message whose retention period has passed.
 * Off when `MESSAGE_CONTENT_RETENTION_DAYS` is not set; messages written while it was
 * set are still blanked after it is switched off only if the sweep runs, so the sweep
 * runs either way and finds nothing when no message carries an expiry.
 */
export async function sweepExpiredContent(): Promise<{ blanked: number; retentionDays: number | null }> {
  const now = clock.now();
  const due = await dueForBlanking(now, PER_SHARD);
  let blanked = 0;
  for (const key of due) if (await blankExpiredMessage(key, now)) blanked += 1;
  const period = retentionMs();
  return { blanked, retentionDays: period === undefined ? null : period / 86_400_000 };
}
