/**
 * What every layer names things by: a channel of a workspace, a table item's key, and
 * the match key of a name compared case-insensitively. A leaf: it imports nothing, so
 * the handler, the domain and the data layer take these from here, not from each other.
 */

/** One channel of one workspace: what every channel-scoped key, data function and domain function takes. */
export interface ChannelRef {
  workspaceId: string;
  channelId: string;
}

/** A table item's key (composed only in shared/data/keys.ts; elsewhere carried as it is). */
export interface Key {
  pk: string;
  sk: string;
}

/** Lowercased, trimmed match key of a name compared case-insensitively (labels, custom fields, automations). */
export const matchKey = (name: string) => name.trim().toLowerCase();
