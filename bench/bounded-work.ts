import { loadavg } from 'node:os';
import type { Table } from './report';
import { capacityMeter } from './large-channel';

/**
 * 7. Bounded work per call (issue 23), against the bench's dynalite, in this process:
 * - contacts/import of 1,000 rows naming one phone number with alternating `status`
 *   (the endpoint's row parser and `importContacts`): the rows collapse to one contact,
 *   so the call is one wave of writes; its write units a row, summed from the consumed
 *   capacity of every call;
 * - the message-content sweep over `messages` due messages spread over its shards: one
 *   unbounded run (`sweepExpiredContent`), its rate scaled to an hour.
 * Ratios and rates in one run, not timed tests.
 */

/** `load`: the machine's 1-minute load average as the case started (a shared machine's other work slows rates, not counts). */
export interface BoundedWorkResult {
  importRepeats: {
    rows: number;
    contacts: number;
    merged: number;
    statusChanges: number;
    writeUnits: number;
    writeUnitsPerRow: number;
    seconds: number;
    load: number;
  };
  contentSweep: { messages: number; blanked: number; seconds: number; perHour: number; load: number };
}

export async function boundedWork(options: { sweepMessages: number; log: (line: string) => void }): Promise<BoundedWorkResult> {
  const { db } = await import('../shared/data/client');
  const { createTenant } = await import('../test/support/tenants');
  const { importContacts } = await import('../shared/domain/contact-import');
  const { parseImportRow } = await import('../functions/contacts-import');
  const { listStatusChanges } = await import('../shared/data/contact-status');
  const { batchPutAll } = await import('../shared/data/batch');
  const { tagged } = await import('../shared/data/entity');
  const { keys } = await import('../shared/data/keys');
  const { MessageItem } = await import('../shared/data/messages');
  const { retentionIndexAttributes } = await import('../shared/data/message-retention');
  const { sweepExpiredContent } = await import('../shared/domain/retention-sweep');

  const tenant = await createTenant(1);
  const channel = { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] };

  // 1,000 repeats of one number, alternating status.
  const rows = Array.from({ length: 1000 }, (_, i) =>
    parseImportRow({ phoneNumber: '+14155550900', name: `Take ${i}`, status: i % 2 ? 'opted_out' : 'active' }, i),
  );
  const importLoad = oneMinuteLoad();
  const meter = capacityMeter(db);
  const importStarted = performance.now();
  let applied;
  try {
    applied = await importContacts(channel, rows);
  } finally {
    meter.remove();
  }
  const importSeconds = (performance.now() - importStarted) / 1000;
  const statusChanges = (await listStatusChanges(channel, '14155550900')).length;
  options.log(
    `bounded work: 1,000 repeats of one number imported in ${importSeconds.toFixed(2)} s, ${(meter.totals.writeUnits / rows.length).toFixed(3)} WRU a row`,
  );

  // Due messages for the sweep, written directly (what a send or an inbound message leaves, content included).
  const at = Date.now() - 86_400_000;
  const items = Array.from({ length: options.sweepMessages }, (_, i) => {
    const id = `msg_bench${String(i).padStart(8, '0')}`;
    return {
      ...tagged(MessageItem, keys.message(channel, id), {
        id,
        direction: 'inbound',
        type: 'text',
        content: { body: `bench message ${i}` },
        sendState: 'received',
        at,
        createdAt: new Date(at).toISOString(),
        updatedAt: new Date(at).toISOString(),
      }),
      ...retentionIndexAttributes(id, at + 1000),
    };
  });
  await batchPutAll(items);
  const sweepLoad = oneMinuteLoad();
  const sweepStarted = performance.now();
  const swept = await sweepExpiredContent();
  const sweepSeconds = (performance.now() - sweepStarted) / 1000;
  options.log(`bounded work: the sweep blanked ${swept.blanked} messages in ${sweepSeconds.toFixed(1)} s`);

  return {
    importRepeats: {
      rows: rows.length,
      contacts: applied.created + applied.updated + applied.unchanged,
      merged: applied.merged,
      statusChanges,
      writeUnits: meter.totals.writeUnits,
      writeUnitsPerRow: meter.totals.writeUnits / rows.length,
      seconds: importSeconds,
      load: importLoad,
    },
    contentSweep: {
      messages: options.sweepMessages,
      blanked: swept.blanked,
      seconds: sweepSeconds,
      perHour: (swept.blanked / sweepSeconds) * 3600,
      load: sweepLoad,
    },
  };
}

/** The machine's 1-minute load average now. */
export const oneMinuteLoad = () => Number(loadavg()[0].toFixed(2));

export function boundedWorkTable(result: BoundedWorkResult): Table {
  const { importRepeats: imported, contentSweep: sweep } = result;
  return {
    headers: ['case', 'measured'],
    rows: [
      [
        'contacts/import: 1,000 repeats of one number, alternating status',
        `${imported.contacts} contact written (${imported.merged} rows merged), ${imported.statusChanges} status change, ${imported.writeUnits.toFixed(1)} WRU = ${imported.writeUnitsPerRow.toFixed(3)} a row, ${imported.seconds.toFixed(2)} s; load ${imported.load}`,
      ],
      [
        `content sweep: ${sweep.messages} due messages, one run`,
        `${sweep.blanked} blanked in ${sweep.seconds.toFixed(1)} s = ${Math.round(sweep.perHour).toLocaleString('en-US')} an hour; load ${sweep.load}`,
      ],
    ],
  };
}
