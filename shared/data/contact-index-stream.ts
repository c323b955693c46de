import { forEachQueryPage } from './batch';
import { getItem } from './client';
import { keys, type ChannelRef } from './keys';

/**
 * The channel's compact contact index (the `CIDX#` bucket items: phone digits →
 * lowercased name prefix) read page by page, each query page (≤ 1 MB) handed to the
 * caller and then dropped, so a reader keeps only what it selects: memory stays at one
 * page plus the selection, whatever the channel's size (≈ 28 MB of index at 1M
 * contacts would be ≈ 150 MB as JavaScript objects if held whole).
 */
export async function streamContactIndex(channel: ChannelRef, visit: (phone: string, name: string) => void): Promise<void> {
  const { pk, skPrefix } = keys.contactIndexPrefix(channel);
  await forEachQueryPage<Record<string, string>>(pk, skPrefix, (buckets) => {
    for (const bucket of buckets) {
      for (const phone in bucket) if (phone !== 'pk' && phone !== 'sk') visit(phone, bucket[phone]);
    }
  });
}

/** The head's count and phones version (consistent): what deep pages check their cached phone order against. */
export async function readPhonesVersion(channel: ChannelRef): Promise<{ contactCount: number; phonesVersion: number }> {
  const head = await getItem<{ contactCount?: number; phonesVersion?: number }>(keys.contactHead(channel), {
    consistent: true,
    attributes: ['contactCount', 'phonesVersion'],
  });
  return { contactCount: Number(head?.contactCount ?? 0), phonesVersion: Number(head?.phonesVersion ?? 0) };
}
