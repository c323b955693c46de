import { contactIndexBucketOf, keys } from '../shared/data/keys';

/**
 * Items in the shapes shared/data/*.ts writes, for the canned in-process table (warm
 * CPU) and for seeding dynalite (scale). Deterministic: item i is always the same.
 */

export type Item = Record<string, unknown> & { pk: string; sk: string };

export const BENCH_TENANT = {
  workspaceId: 'ws_bench',
  userId: 'usr_bench',
  keyId: 'key_bench',
  channelId: 'ch_bench',
  role: 'admin' as const,
  /** A key of the right shape (wsk_ + 43 base64url characters); only its hash is stored. */
  apiKey: `wsk_${'b'.repeat(43)}`,
  chatmid: 'wamid.HBgLMTQxNTU1NTAxMDAVAgARGBI1QkVOQ0g=',
};

const FIRST = ['Ann', 'Bo', 'Chen', 'Dana', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivan', 'Jo', 'Kai', 'Lena', 'Mo', 'Nia', 'Omar', 'Pia'];
const LAST = ['Example', 'Rivera', 'Okafor', 'Schmidt', 'Tanaka', 'Silva', 'Novak', 'Haddad', 'Kowalski', 'Nguyen', 'Larsen', 'Moreau'];
const CITIES = ['Paris', 'Oakland', 'Lagos', 'Osaka', 'Recife', 'Berlin'];

export const contactPhone = (i: number) => String(14150000000 + i * 7);
export const contactName = (i: number) => `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`;
export const labelId = (i: number) => `lb_bench${String(i).padStart(6, '0')}`;
export const labelName = (i: number) => (i === 0 ? 'VIP' : i === 1 ? 'new' : `label ${i}`);

const ISO = '2026-01-15T10:00:00.000Z';

/** A contact as upsertContact writes it (after indexing: no indexPending). */
export function contactItem(workspaceId: string, channelId: string, i: number, labelCount = 4): Item {
  const phone = contactPhone(i);
  return {
    ...keys.contact(workspaceId, channelId, phone),
    entity: 'contact',
    id: `ct_${(1e12 + i).toString(36)}bench`,
    phone,
    name: contactName(i),
    email: `contact${i}@example.com`,
    labelIds: labelCount > 0 ? [labelId(i % labelCount), labelId((i + 1) % labelCount)] : [],
    customFields: { city: CITIES[i % CITIES.length], tier: i % 3 === 0 ? 'gold' : 'silver' },
    status: 'active',
    createdAt: ISO,
    updatedAt: ISO,
  };
}

export function contactHeadItem(workspaceId: string, channelId: string, contactCount: number, defsVersion = 1): Item {
  return { ...keys.contactHead(workspaceId, channelId), contactCount, defsVersion };
}

/** The compact index: one item per bucket, phone → lowercased name prefix (as writeIndexEntry writes it). */
export function contactIndexItems(workspaceId: string, channelId: string, contacts: Array<Record<string, unknown>>): Item[] {
  const buckets = new Map<number, Item>();
  for (const contact of contacts) {
    const phone = String(contact.phone);
    const bucket = contactIndexBucketOf(phone);
    let item = buckets.get(bucket);
    if (!item) buckets.set(bucket, (item = { ...keys.contactIndexBucket(workspaceId, channelId, bucket) }));
    item[phone] = String(contact.name ?? '').toLowerCase().slice(0, 64);
  }
  return [...buckets.values()];
}

export function labelItem(workspaceId: string, channelId: string, i: number): Item {
  const name = labelName(i);
  return {
    ...keys.label(workspaceId, channelId, name),
    entity: 'label',
    id: labelId(i),
    channelId,
    name,
    description: i % 2 ? `Description of ${name}` : null,
    color: '#1E88E5',
    displayOrder: i,
    createdAt: ISO,
    updatedAt: ISO,
  };
}

export function fieldItem(workspaceId: string, channelId: string, i: number): Item {
  const [name, type, options] = [
    ['city', 'text', []],
    ['tier', 'dropdown', ['gold', 'silver', 'bronze']],
    ['age', 'number', []],
    ['birthday', 'date', []],
    ['manager', 'email', []],
  ][i % 5] as [string, string, string[]];
  const fieldName = i < 5 ? name : `${name}${i}`;
  return {
    ...keys.customField(workspaceId, channelId, fieldName),
    entity: 'customField',
    id: `cf_bench${String(i).padStart(6, '0')}`,
    channelId,
    name: fieldName,
    type,
    isRequired: false,
    options,
    createdAt: ISO,
    updatedAt: ISO,
  };
}

export function templateItem(workspaceId: string, channelId: string, i: number): Item {
  const name = `order_update_${i}`;
  return {
    ...keys.template(workspaceId, channelId, name, 'en'),
    entity: 'template',
    graphId: `${900000 + i}`,
    name,
    language: 'en',
    status: i % 4 === 3 ? 'PENDING' : 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hello {{1}}, your order {{2}} ships on {{3}}.' },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
    ],
    bodyVariables: 3,
    header: { format: 'TEXT', variables: 1 },
    syncedAt: ISO,
  };
}

export function chatmidItem(workspaceId: string, channelId: string, chatmid: string): Item {
  return {
    ...keys.messageByChatmid(chatmid),
    entity: 'chatmid',
    chatmid,
    workspaceId,
    channelId,
    messageId: 'msg_bench',
    direction: 'outbound',
    type: 'text',
    content: { body: 'Your order has shipped.' },
    phone: contactPhone(1),
    at: Date.parse(ISO),
    status: 'delivered',
    statusRank: 3,
    sentAt: Date.parse(ISO) + 1000,
    deliveredAt: Date.parse(ISO) + 2000,
  };
}

/** What one channel of the warm-CPU fixture holds: a page of contacts, definitions, templates. */
export function benchChannelItems(contacts = 60, labels = 10, fields = 5, templates = 8): Item[] {
  const { workspaceId, channelId } = BENCH_TENANT;
  const contactItems = Array.from({ length: contacts }, (_, i) => contactItem(workspaceId, channelId, i, labels));
  return [
    contactHeadItem(workspaceId, channelId, contacts, 3),
    ...contactItems,
    ...contactIndexItems(workspaceId, channelId, contactItems),
    ...Array.from({ length: labels }, (_, i) => labelItem(workspaceId, channelId, i)),
    ...Array.from({ length: fields }, (_, i) => fieldItem(workspaceId, channelId, i)),
    ...Array.from({ length: templates }, (_, i) => templateItem(workspaceId, channelId, i)),
    { ...keys.channel(workspaceId, channelId), entity: 'channel', id: channelId, workspaceId, name: 'Bench', phoneNumberId: '100000000000099', isActive: true, ownerUserId: BENCH_TENANT.userId, createdAt: ISO },
    chatmidItem(workspaceId, channelId, BENCH_TENANT.chatmid),
  ];
}
