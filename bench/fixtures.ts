import { AutomationItem, AutomationNameItem } from '../shared/data/automations';
import { ChannelItem } from '../shared/data/channels';
import { ContactItem } from '../shared/data/contacts';
import { ConversationItem, WaIdItem } from '../shared/data/conversations';
import { CustomFieldItem, LabelItem } from '../shared/data/definitions';
import { ChatmidItem, HistoryItem } from '../shared/data/messages';
import { TemplateItem } from '../shared/data/templates';
import { SubscriptionsItem } from '../shared/data/webhook-subscriptions';
import { tagged } from '../shared/data/entity';
import { DELIVERY_RETENTION_SECONDS, DeliveryItem, EVENT_RETENTION_SECONDS, EventItem } from '../shared/data/events';
import { contactIndexBucketOf, keys } from '../shared/data/keys';
import { LIMITS } from '../shared/schema/params';

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
  /** The Secrets Manager secret holding the channel's chat-network access token (answered in-process). */
  accessTokenSecret: 'workspace-api/channel/ch_bench/access-token',
};

const FIRST = ['Ann', 'Bo', 'Chen', 'Dana', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivan', 'Jo', 'Kai', 'Lena', 'Mo', 'Nia', 'Omar', 'Pia'];
const LAST = ['Example', 'Rivera', 'Okafor', 'Schmidt', 'Tanaka', 'Silva', 'Novak', 'Haddad', 'Kowalski', 'Nguyen', 'Larsen', 'Moreau'];
const CITIES = ['Paris', 'Oakland', 'Lagos', 'Osaka', 'Recife', 'Berlin'];

export const contactPhone = (i: number) => String(14150000000 + i * 7);
/** The contact the chat sends and automations/trigger address: it has written in, so its session window is open. */
export const CHAT_CONTACT = 2;
export const contactName = (i: number) => `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`;
export const labelId = (i: number) => `lb_bench${String(i).padStart(6, '0')}`;
export const labelName = (i: number) => (i === 0 ? 'VIP' : i === 1 ? 'new' : `label ${i}`);

const ISO = '2026-01-15T10:00:00.000Z';

/** A contact as contacts/manage writes it (after indexing: no indexPending). */
export function contactItem(workspaceId: string, channelId: string, i: number, labelCount = 4): Item {
  const phone = contactPhone(i);
  return {
    ...keys.contact({ workspaceId, channelId }, phone),
    entity: ContactItem.tag,
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

/** The contact head: the maintained contact count, the definitions version and, when given, the label count (labels/manage's cap). */
export function contactHeadItem(workspaceId: string, channelId: string, contactCount: number, defsVersion = 1, labelCount?: number): Item {
  return { ...keys.contactHead({ workspaceId, channelId }), contactCount, defsVersion, ...(labelCount === undefined ? {} : { labelCount }) };
}

/** The compact index: one item per bucket, phone → lowercased name prefix (as writeIndexEntry writes it). */
export function contactIndexItems(workspaceId: string, channelId: string, contacts: Array<Record<string, unknown>>): Item[] {
  const buckets = new Map<number, Item>();
  for (const contact of contacts) {
    const phone = String(contact.phone);
    const bucket = contactIndexBucketOf(phone);
    let item = buckets.get(bucket);
    if (!item) buckets.set(bucket, (item = { ...keys.contactIndexBucket({ workspaceId, channelId }, bucket) }));
    item[phone] = String(contact.name ?? '')
      .toLowerCase()
      .slice(0, 64);
  }
  return [...buckets.values()];
}

/**
 * How big a label is: `typical` (a short name, every other one with a short description),
 * or the largest labels/manage accepts (LIMITS in shared/schema/params.ts: a `LIMITS.name`-
 * character name and a `LIMITS.labelDescription`-character description), in ASCII
 * (`longest`) or in characters that take 3 bytes in UTF-8 (`longest-3-byte`: limits count
 * UTF-16 units, DynamoDB counts bytes). Custom fields: `typical` (the fixture's five kinds)
 * or `longest-3-byte` (a dropdown with `LIMITS.optionEntries` options of
 * `LIMITS.optionLength` 3-byte characters).
 */
export type LabelShape = 'typical' | 'longest' | 'longest-3-byte';
export type FieldShape = 'typical' | 'longest-3-byte';
export const LABEL_NAME_MAX = LIMITS.name;
export const LABEL_DESCRIPTION_MAX = LIMITS.labelDescription;

/** A 3-byte character that is no digit tag (below). */
const WIDE_FILLER = '\u8a9e';
/** `i` written in 3-byte characters (U+4E00 + digit), so a name can be unique and 3 bytes a character throughout. */
const wideTag = (i: number) => [...String(i)].map((digit) => String.fromCharCode(0x4e00 + Number(digit))).join('');

/** A label as upsertLabel writes it. */
export function labelItem(workspaceId: string, channelId: string, i: number, shape: LabelShape = 'typical'): Item {
  const wide = shape === 'longest-3-byte';
  const name =
    shape === 'typical'
      ? labelName(i)
      : wide
        ? `${wideTag(i)}${WIDE_FILLER}`.padEnd(LABEL_NAME_MAX, WIDE_FILLER)
        : `${labelName(i)} `.padEnd(LABEL_NAME_MAX, 'x');
  const description =
    shape === 'typical'
      ? i % 2
        ? `Description of ${name}`
        : null
      : wide
        ? WIDE_FILLER.repeat(LABEL_DESCRIPTION_MAX)
        : `Description of label ${i}: `.padEnd(LABEL_DESCRIPTION_MAX, 'x');
  return {
    ...keys.label({ workspaceId, channelId }, name),
    entity: LabelItem.tag,
    id: labelId(i),
    channelId,
    name,
    description,
    color: '#1E88E5',
    displayOrder: i,
    createdAt: ISO,
    updatedAt: ISO,
  };
}

/** A custom field definition as upsertCustomField writes it. */
export function fieldItem(workspaceId: string, channelId: string, i: number, shape: FieldShape = 'typical'): Item {
  const [name, type, options] =
    shape === 'typical'
      ? ([
          ['city', 'text', []],
          ['tier', 'dropdown', ['gold', 'silver', 'bronze']],
          ['age', 'number', []],
          ['birthday', 'date', []],
          ['manager', 'email', []],
        ][i % 5] as [string, string, string[]])
      : [
          `${wideTag(i)}${WIDE_FILLER}`.padEnd(LIMITS.name, WIDE_FILLER),
          'dropdown',
          Array.from({ length: LIMITS.optionEntries }, (_, option) => `${wideTag(option)}${WIDE_FILLER}`.padEnd(LIMITS.optionLength, WIDE_FILLER)),
        ];
  const fieldName = shape !== 'typical' || i < 5 ? name : `${name}${i}`;
  return {
    ...keys.customField({ workspaceId, channelId }, fieldName),
    entity: CustomFieldItem.tag,
    id: `cf_bench${String(i).padStart(6, '0')}`,
    channelId,
    name: fieldName,
    type,
    isRequired: shape !== 'typical',
    options,
    createdAt: ISO,
    updatedAt: ISO,
  };
}

export function templateItem(workspaceId: string, channelId: string, i: number): Item {
  const name = `order_update_${i}`;
  return {
    ...keys.template({ workspaceId, channelId }, name, 'en'),
    entity: TemplateItem.tag,
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
    entity: ChatmidItem.tag,
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

/** Messages in a contact's conversation history (shared/data/message-history.ts): `count` entries, every other one a send with its chatmid pointer. */
export function historyItems(workspaceId: string, channelId: string, i: number, count: number): Item[] {
  const channel = { workspaceId, channelId };
  const phone = contactPhone(i);
  return Array.from({ length: count }, (_, n) => {
    const at = Date.parse(ISO) + n * 60_000;
    const messageId = `msg_bench${String(i).padStart(4, '0')}${String(n).padStart(4, '0')}`;
    const chatmid = `wamid.bench${String(i).padStart(4, '0')}${String(n).padStart(4, '0')}`;
    const outbound = n % 2 === 1;
    const entry: Item = {
      ...keys.messageHistory(channel, phone, at, messageId),
      entity: HistoryItem.tag,
      messageId,
      direction: outbound ? 'outbound' : 'inbound',
      type: 'text',
      content: { body: outbound ? `Reply ${n}: your order ships today.` : `Question ${n}: where is my order?` },
      chatmid,
      sendState: outbound ? 'accepted' : 'received',
      at,
    };
    return outbound ? [entry, { ...chatmidItem(workspaceId, channelId, chatmid), messageId, phone, at }] : [entry];
  }).flat();
}

/** The conversation with a contact (as ensureConversation and recordInboundAt write it). */
export function conversationItem(workspaceId: string, channelId: string, i: number, lastInboundAt: number): Item {
  const phone = contactPhone(i);
  return {
    ...keys.conversation({ workspaceId, channelId }, phone),
    entity: ConversationItem.tag,
    id: `cv_bench${String(i).padStart(6, '0')}`,
    contactId: contactItem(workspaceId, channelId, i).id,
    phone,
    createdAt: ISO,
    lastInboundAt,
    lastOutboundAt: Date.parse(ISO),
  };
}

/** The wa_id → phone map item rememberWaId writes after the first accepted send. */
export function waIdItem(workspaceId: string, channelId: string, phone: string): Item {
  return { ...keys.waId({ workspaceId, channelId }, phone), entity: WaIdItem.tag, waId: phone, phone };
}

export const automationName = (i: number) => ['Welcome Flow', 'Order follow-up', 'Win-back'][i % 3] + (i < 3 ? '' : ` ${i}`);

/** An automation and its name pointer, as createAutomation writes them (every third one inactive). */
export function automationItems(workspaceId: string, channelId: string, i: number): Item[] {
  const id = `au_bench${String(i).padStart(6, '0')}`;
  const name = automationName(i);
  return [
    { ...keys.automationName({ workspaceId, channelId }, name), entity: AutomationNameItem.tag, automationId: id },
    {
      ...keys.automation({ workspaceId, channelId }, id),
      entity: AutomationItem.tag,
      id,
      channelId,
      name,
      status: i % 3 === 2 ? 'inactive' : 'active',
      executionCount: 40 + i,
      steps: [
        {
          type: 'send_template',
          templateName: templateItem(workspaceId, channelId, 0).name,
          languageCode: 'en',
          variables: ['{{contact.name}}', 'A-1042', 'Monday'],
          header: 'A-1042',
        },
        { type: 'wait', seconds: 86_400 },
        { type: 'add_labels', labels: [labelName(1)] },
        { type: 'set_custom_fields', fields: { tier: 'gold' } },
      ],
      createdAt: ISO,
    },
  ];
}

/** The bench channel's webhook subscription (webhooks/deliveries and webhooks/redeliver address it). */
export const BENCH_WEBHOOK_ID = 'wh_bench';
/** The events of the fixture began an hour before the process started: inside events/list's 8-day retention. */
const EVENTS_FROM = Date.now() - 60 * 60 * 1000;
/** Event i's id, as shared/domain/event-builders.ts makes them: its time (base 36, 9 characters), then 16 hex digits. */
export const benchEventId = (i: number) => `evt_${(EVENTS_FROM + i * 1000).toString(36).padStart(9, '0')}${i.toString(16).padStart(16, '0')}`;

/**
 * A channel's webhook subscription, `events` events in its events log (message.status, the chat
 * contact's) and each one's delivery to the subscription, as the deliverer leaves them.
 */
export function webhookItems(workspaceId: string, channelId: string, events: number): Item[] {
  const channel = { workspaceId, channelId };
  const phone = contactPhone(CHAT_CONTACT);
  const subscription = {
    id: BENCH_WEBHOOK_ID,
    url: 'https://example.com/hooks/events',
    events: ['*'],
    isActive: true,
    description: null,
    createdAt: ISO,
    // Never opened by the measured endpoints (only the deliverer signs).
    secrets: [{ sealed: 'gcm:AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA==.AAAA', createdAt: ISO }],
    disabledReason: null,
    lastDeliveryAt: ISO,
    lastStatusCode: 200,
  };
  const items: Item[] = [{ ...keys.webhookSubscriptions(channel), entity: SubscriptionsItem.tag, subs: { [BENCH_WEBHOOK_ID]: subscription }, version: 1 }];
  for (let i = 0; i < events; i++) {
    const id = benchEventId(i);
    const timestamp = new Date(EVENTS_FROM + i * 1000).toISOString();
    const body = {
      id,
      type: 'message.status',
      timestamp,
      data: { channelId, chatmid: BENCH_TENANT.chatmid, status: 'delivered', error: null, apiReference: null, to: phone, timestamp },
    };
    const expiresAt = Math.floor(EVENTS_FROM / 1000);
    items.push(
      tagged(EventItem, keys.event(channel, id), {
        id,
        type: body.type,
        body: JSON.stringify(body),
        contactKey: phone,
        expiresAt: expiresAt + EVENT_RETENTION_SECONDS,
      }),
    );
    items.push(
      tagged(DeliveryItem, keys.eventDelivery(channel, BENCH_WEBHOOK_ID, id), {
        webhookId: BENCH_WEBHOOK_ID,
        eventId: id,
        type: body.type,
        contactKey: phone,
        status: 'succeeded',
        attempts: 1,
        lastAttemptAt: timestamp,
        lastStatusCode: 200,
        lastError: null,
        nextAttemptAt: null,
        expiresAt: expiresAt + DELIVERY_RETENTION_SECONDS,
      }),
    );
  }
  return items;
}

/**
 * What one channel of the warm-CPU fixture holds: a page of contacts, definitions,
 * templates, automations, the channel (its access token in Secrets Manager), the
 * chat contact's conversation, whose last inbound message is an hour before `now`
 * (inside the 24-hour session window), and a webhook subscription with 60 events and
 * their deliveries.
 */
export function benchChannelItems(contacts = 60, labels = 10, fields = 5, templates = 8, automations = 3, now = Date.now()): Item[] {
  const { workspaceId, channelId } = BENCH_TENANT;
  const contactItems = Array.from({ length: contacts }, (_, i) => contactItem(workspaceId, channelId, i, labels));
  // The chat contact has been sent to before: its canonical wa_id is known.
  contactItems[CHAT_CONTACT] = { ...contactItems[CHAT_CONTACT], waId: contactPhone(CHAT_CONTACT) };
  return [
    contactHeadItem(workspaceId, channelId, contacts, 3),
    ...contactItems,
    ...contactIndexItems(workspaceId, channelId, contactItems),
    ...Array.from({ length: labels }, (_, i) => labelItem(workspaceId, channelId, i)),
    ...Array.from({ length: fields }, (_, i) => fieldItem(workspaceId, channelId, i)),
    ...Array.from({ length: templates }, (_, i) => templateItem(workspaceId, channelId, i)),
    ...Array.from({ length: automations }, (_, i) => automationItems(workspaceId, channelId, i)).flat(),
    {
      ...keys.channel({ workspaceId, channelId }),
      entity: ChannelItem.tag,
      id: channelId,
      workspaceId,
      name: 'Bench',
      phoneNumberId: '100000000000099',
      wabaId: '200000000000099',
      isActive: true,
      ownerUserId: BENCH_TENANT.userId,
      accessTokenSecret: BENCH_TENANT.accessTokenSecret,
      createdAt: ISO,
    },
    chatmidItem(workspaceId, channelId, BENCH_TENANT.chatmid),
    ...historyItems(workspaceId, channelId, CHAT_CONTACT, 60),
    conversationItem(workspaceId, channelId, CHAT_CONTACT, now - 60 * 60 * 1000),
    waIdItem(workspaceId, channelId, contactPhone(CHAT_CONTACT)),
    ...webhookItems(workspaceId, channelId, 60),
  ];
}
