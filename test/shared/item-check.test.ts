import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { benchChannelItems } from '../../bench/fixtures';
import { AutomationItem, AutomationNameItem } from '../../shared/data/automations';
import { ChannelItem } from '../../shared/data/channels';
import { ContactHeadItem } from '../../shared/data/contact-head';
import { ContactItem } from '../../shared/data/contacts';
import { ConversationItem, WaIdItem } from '../../shared/data/conversations';
import { CustomFieldItem, LabelItem } from '../../shared/data/definitions';
import { DeliveryItem, EventItem } from '../../shared/data/events';
import { compiledItem } from '../../shared/data/item-check';
import { ChatmidItem, HistoryItem, MessageItem } from '../../shared/data/messages';
import { TemplateItem } from '../../shared/data/templates';
import { SubscriptionsItem } from '../../shared/data/webhook-subscriptions';

/**
 * The compiled check of shared/data/item-check.ts never accepts what valibot refuses (so a
 * corrupt item always reaches valibot, which names what is wrong), fills the same
 * defaults, and accepts the items the code writes (so the hot reads take it).
 */

const SCHEMAS: Record<string, v.GenericSchema> = {
  contact: v.union([ContactItem, ContactHeadItem]),
  label: LabelItem,
  customField: CustomFieldItem,
  template: TemplateItem,
  chatmid: ChatmidItem,
  history: HistoryItem,
  message: MessageItem,
  conversation: ConversationItem,
  waId: WaIdItem,
  automation: AutomationItem,
  automationName: AutomationNameItem,
  webhookSubscriptions: SubscriptionsItem,
  event: EventItem,
  eventDelivery: DeliveryItem,
  channel: ChannelItem,
};

/** The bench's channel, as the code writes it: every kind above, many of each. */
const items = benchChannelItems(6, 3, 5, 3, 3).filter((item) => typeof item.entity === 'string' || item.sk.endsWith('#')) as Record<string, unknown>[];
const schemaOf = (item: Record<string, unknown>) => SCHEMAS[typeof item.entity === 'string' ? item.entity : 'contact'];
const clone = (item: Record<string, unknown>): Record<string, unknown> => structuredClone(item);

describe('the compiled item check', () => {
  it('accepts every item as the code writes it, as valibot does, with the same defaults', () => {
    const kinds = new Set<string>();
    for (const item of items) {
      const schema = schemaOf(item);
      if (!schema) continue;
      kinds.add(String(item.entity));
      // Act
      const checked = clone(item);
      const accepted = compiledItem(schema)?.(checked);
      const parsed = v.safeParse(schema, clone(item));
      // Assess
      expect({ kind: item.entity, accepted, parsed: parsed.success }).toEqual({ kind: item.entity, accepted: true, parsed: true });
      expect(checked).toMatchObject(parsed.output as Record<string, unknown>);
    }
    expect(kinds.size).toBeGreaterThanOrEqual(10);
  });

  it('never accepts an item valibot refuses: any attribute changed to any value, or removed', () => {
    fc.assert(
      fc.property(fc.constantFrom(...items), fc.string(), fc.oneof(fc.anything(), fc.constant(undefined)), fc.boolean(), (item, _seed, value, remove) => {
        const schema = schemaOf(item);
        if (!schema) return;
        // Prepare: one attribute of a written item changed or removed
        const names = Object.keys(item).filter((name) => name !== 'pk' && name !== 'sk');
        const name = names[Math.abs(hash(_seed)) % names.length];
        const changed = clone(item);
        if (remove) delete changed[name];
        else changed[name] = value;
        // Act
        const accepted = compiledItem(schema)?.(clone(changed)) ?? false;
        const valid = v.safeParse(schema, clone(changed)).success;
        // Assess
        if (accepted) expect(valid, `${String(item.entity)}.${name} = ${JSON.stringify(value)}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses an item missing a required attribute that takes any value, as valibot does', () => {
    // Prepare: an attribute of any value is still required (valibot refuses its absence, accepts undefined)
    const schema = v.looseObject({ entity: v.literal('thing'), detail: v.unknown(), nested: v.optional(v.object({ data: v.unknown() })) });
    const cases = [
      { entity: 'thing' },
      { entity: 'thing', detail: undefined },
      { entity: 'thing', detail: 1, nested: {} },
      { entity: 'thing', detail: 1, nested: { data: 2 } },
    ];
    for (const item of cases) {
      // Act
      const accepted = compiledItem(schema)?.(clone(item)) ?? false;
      const valid = v.safeParse(schema, clone(item)).success;
      // Assess
      expect({ item, accepted }).toEqual({ item, accepted: valid });
    }
  });
});

/** A string's hash, to pick an attribute. */
function hash(text: string): number {
  let h = 0;
  for (const char of text) h = (h * 31 + char.charCodeAt(0)) | 0;
  return h;
}
