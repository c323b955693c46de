import { clock } from '../clock';
import { blankExpiredMessage, dueForBlanking, RETENTION_PARTITIONS } from '../data/message-retention';
import { mapLimit } from '../map-limit';
import { retentionMs } from './retention';

/** Due messages read from one shard's index at a time. */
const PAGE = 200;

/** Messages blanked at once per shard (each blank is up to four single-item writes). */
const BLANKS_IN_FLIGHT = 4;

/** Time kept back from the invocation's deadline: no page starts with less left, so the last one finishes in time. */
export const SWEEP_DEADLINE_MARGIN_MS = 5_000;

export interface SweepResult {
  blanked: number;
  retentionDays: number | null;
  /** Whether every shard was swept to its end (false: the deadline came first; the next run goes on). */
  done: boolean;
}

/**
 * The retention sweep (MessageContentSweep on a schedule in AWS, the local runner loop
 * every 30 s): blanks the content of every message whose retention period has passed,
 * all shards at once, each page after page until the shard has nothing due or the
 * invocation's deadline is near (`remainingMs`; unbounded when not given). A page that
 * blanks nothing ends its shard's run: its keys were already blanked and the index has
 * not caught up yet, and reading it again would only spin.
 * Off when `MESSAGE_CONTENT_RETENTION_DAYS` is not set; messages written while it was
 * set are still blanked after it is switched off only if the sweep runs, so the sweep
 * runs either way and finds nothing when no message carries an expiry.
 */
export async function sweepExpiredContent(remainingMs: () => number = () => Infinity): Promise<SweepResult> {
  const now = clock.now();
  const shards = await Promise.all(RETENTION_PARTITIONS.map((shard) => sweepShard(shard, now, remainingMs)));
  const period = retentionMs();
  return {
    blanked: shards.reduce((sum, shard) => sum + shard.blanked, 0),
    retentionDays: period === undefined ? null : period / 86_400_000,
    done: shards.every((shard) => shard.done),
  };
}

async function sweepShard(shard: string, now: number, remainingMs: () => number): Promise<{ blanked: number; done: boolean }> {
  let blanked = 0;
  for (;;) {
    if (remainingMs() < SWEEP_DEADLINE_MARGIN_MS) return { blanked, done: false };
    const due = await dueForBlanking(shard, now, PAGE);
    const results = await mapLimit(due, BLANKS_IN_FLIGHT, (key) => blankExpiredMessage(key, now));
    const blankedNow = results.filter(Boolean).length;
    blanked += blankedNow;
    if (due.length < PAGE || blankedNow === 0) return { blanked, done: true };
  }
}
