import * as v from 'valibot';
import type { ChannelRef, Key } from '../identity';
import { newId } from '../ids';
import { mapLimit } from '../map-limit';
import { deleteItem, getItem, putItem, update, when } from './client';
import { entity, tagged } from './entity';
import { CONTACT_ID_GROUP_SIZE, contactIdGroupOf, contactIdPointer, groupedContactId } from './keys';

/**
 * Contact ids and their pointers (contactId parameters, erasure): a contact id → the
 * contact's phone. A contact created by contacts/manage has a random id and its own
 * pointer item `CTID#<id>`; the contacts one contacts/import call creates get ids of one
 * group and share one pointer item (keys.ts, `contactIdPointer`). A lookup by id reads
 * the pointer the id names either way (one GetItem); the caller checks the contact item
 * still carries that id.
 */

/** The pointer of a random contact id: the id → the contact's phone. */
const ContactIdItem = entity('contactId', { contactId: v.string(), phone: v.string() });

/**
 * The pointer item of one id group (the ids one contacts/import call gave): an attribute a
 * member, named by the id's last two characters (keys.ts `contactIdPointer`), → its phone.
 */
const ContactIdsItem = entity('contactIds', {});

/** A contact as its pointer names it. */
type IdentifiedContact = { id: string; phone: string };

/** The pointer of a contact id → the contact's phone (idempotent): its own item for a random id, its attribute of its group's item for a grouped id. */
export async function putContactIdPointer(channel: ChannelRef, contact: IdentifiedContact): Promise<void> {
  const pointer = contactIdPointer(channel, contact.id);
  if (pointer.grouped) await update(pointer.key).set('entity', ContactIdsItem.tag).set(pointer.attribute, contact.phone).send();
  else await putItem(tagged(ContactIdItem, pointer.key, { contactId: contact.id, phone: contact.phone }));
}

/** The phone a contact id names, or undefined (the caller checks the contact item still carries that id). */
export async function phoneOfContactId(channel: ChannelRef, contactId: string): Promise<string | undefined> {
  const pointer = contactIdPointer(channel, contactId);
  // Either pointer names the phone in one attribute (`phone`, or the group member's own): read alone.
  const item = await getItem(pointer.key, v.looseObject({ [pointer.attribute]: v.optional(v.string()) }), {
    consistent: true,
    attributes: [pointer.attribute],
  });
  return item?.[pointer.attribute];
}

/** Deletes a contact id's pointer (erasure): its item, or its attribute of its group's item. */
export async function deleteContactIdPointer(channel: ChannelRef, contactId: string): Promise<void> {
  const pointer = contactIdPointer(channel, contactId);
  if (pointer.grouped) await update(pointer.key).remove(pointer.attribute).when(when.itemExists()).send();
  else await deleteItem(pointer.key);
}

/**
 * Ids for `count` contacts one bulk create writes together: the first
 * `CONTACT_ID_GROUP_SIZE` of one new id group (one pointer item and ⌈n/32⌉ index chunks
 * for all of them), then none (undefined: such a contact takes a random id of its own).
 */
export function groupedContactIds(count: number): Array<string | undefined> {
  const group = contactIdGroupOf(newId('ct'));
  return Array.from({ length: count }, (_, place) => (place < CONTACT_ID_GROUP_SIZE ? groupedContactId(group, place) : undefined));
}

/** Pointer writes a bulk write keeps in flight at once. */
const POINTER_WRITE_CONCURRENCY = 16;

/** Grouped ids written in one UpdateItem by a finisher (each adds ≈ 20 characters to the expression, limited to 4 KB). */
const POINTER_CHUNK = 100;

/**
 * The id pointers of contacts a bulk create wrote (contacts/import, its finishers, the
 * repair), as a contacts/manage create writes its own with the index entry. The owner of
 * an id group (`wholeGroup`: the call that gave these ids, writing every contact it
 * created with them) writes the group's item whole, one PutItem; a finisher, which may run
 * beside a live owner, sets its entries attribute by attribute (the same values: nothing
 * the owner wrote is lost either way). Random ids get their own pointer items.
 */
export async function writeIdPointers(channel: ChannelRef, contacts: IdentifiedContact[], wholeGroup = false): Promise<void> {
  const groups = new Map<string, { key: Key; entries: Array<[string, string]> }>();
  const single: IdentifiedContact[] = [];
  for (const contact of contacts) {
    const pointer = contactIdPointer(channel, contact.id);
    if (!pointer.grouped) {
      single.push(contact);
      continue;
    }
    const group = groups.get(pointer.key.sk) ?? { key: pointer.key, entries: [] };
    group.entries.push([pointer.attribute, contact.phone]);
    groups.set(pointer.key.sk, group);
  }
  const writes: Array<() => Promise<unknown>> = single.map((contact) => () => putContactIdPointer(channel, contact));
  for (const { key, entries } of groups.values()) {
    if (wholeGroup) writes.push(() => putItem({ ...tagged(ContactIdsItem, key, {}), ...Object.fromEntries(entries) }));
    else
      for (let i = 0; i < entries.length; i += POINTER_CHUNK)
        writes.push(() =>
          update(key)
            .set('entity', ContactIdsItem.tag)
            .setAll(Object.fromEntries(entries.slice(i, i + POINTER_CHUNK)))
            .send(),
        );
  }
  await mapLimit(writes, POINTER_WRITE_CONCURRENCY, (write) => write());
}
