import { MAX_RECEIVES } from '../../shared/config';
import { fifoGroupOf, type EventQueueMessage } from '../../shared/queue/event-queue';
import type { LocalMessage, SqsBatchConsumer } from './table-step-queue';

/**
 * The local stand-in for the event queue's SQS event source: the one receiver of the
 * durable table queue (`LOCALQ#events`, table-step-queue.ts) invokes the deliverer bundle
 * with SQS-shaped events, deletes what succeeded and retries what failed (dead letters
 * after MAX_RECEIVES receives, as the AWS queue's maxReceiveCount). It also runs the event re-drive
 * at start and every 30 s.
 *
 * A message costs the table one write to enqueue and a share of one BatchWriteItem to
 * delete: being the queue's only receiver (one `npm start` per DATA_DIR), the loop keeps
 * what it has taken in memory instead of moving each message to a hidden copy (two
 * writes a message), hears of the messages this process writes as soon as they are in
 * the table (no poll between a hand-off and its delivery), and reads the table for the
 * others (another process's, delayed ones, and what a killed process left) at least
 * every `pollMs`. Everything lives in the table until handled, so a SIGKILL loses no
 * delivery: a restart resumes the queue, retries included. (The receive count is written
 * with a retry; a kill during a message's handling does not count as a receive.)
 */

type DelivererHandler = SqsBatchConsumer;

/** What a message's body says of its FIFO group and its place in it (the event id; ids sort by time). */
function parsedGroup(message: LocalMessage): { group?: string; order: string } {
  const body = JSON.parse(message.body) as EventQueueMessage;
  return { group: fifoGroupOf(body), order: body.kind === 'event' ? body.event.id : '' };
}
const parsed = new WeakMap<LocalMessage, { group?: string; order: string }>();
function groupInfo(message: LocalMessage) {
  let info = parsed.get(message);
  if (!info) parsed.set(message, (info = parsedGroup(message)));
  return info;
}
const groupOf = (message: LocalMessage) => groupInfo(message).group;
const eventOrder = (message: LocalMessage) => groupInfo(message).order;
type RedriveHandler = () => Promise<{ redriven: number }>;

export interface DelivererLoopOptions {
  deliverer: DelivererHandler;
  redrive: RedriveHandler;
  /** Concurrent invocations of the deliverer: a slow receiver (up to 10 s an attempt) holds up only its own batch. */
  workers?: number;
  /** Messages per invocation (SQS's batch size). */
  batchSize?: number;
  /** How often, at most, the table is read for messages this process did not write. */
  pollMs?: number;
  redriveEveryMs?: number;
  /** A failed message is visible again after this × its receive count. */
  retryDelayMs?: number;
}

const RETRY_DELAY_MS = 2_000;

export async function startDelivererLoop(options: DelivererLoopOptions): Promise<{ stop(): Promise<void> }> {
  const queue = await import('./table-step-queue');
  // The queue's visibility times are the service clock's (tests move it).
  const { clock } = await import('../../shared/clock');
  const workers = options.workers ?? 8;
  const batchSize = options.batchSize ?? 10;
  const pollMs = options.pollMs ?? 250;
  let stopped = false;
  let lastRedrive = 0;
  let lastRead = 0;
  /** The last read filled its page: more may be due in the table right now. */
  let readFull = false;

  /** In the table and not handed out yet, by item key. */
  const waiting = new Map<string, LocalMessage>();
  /** Handed to the deliverer, until deleted or retried, with the message group of each. */
  const taken = new Map<string, string | undefined>();
  /**
   * Deleted (handled, retried or dead-lettered) in the last minute, with when: a table
   * read that started before the delete, or the news of a write that a read had already
   * brought, may still name the message, and must not bring it back.
   */
  const deleted = new Map<string, number>();
  const DELETED_KEPT_MS = 60_000;
  const known = (key: string) => taken.has(key) || deleted.has(key);

  let wake: (() => void) | undefined;
  const stopListening = queue.onLocalMessage(queue.EVENT_QUEUE, (message) => {
    const key = queue.localMessageKey(message);
    if (known(key)) return;
    waiting.set(key, message);
    wake?.();
  });

  /** Reads due messages from the table: those of other processes, delayed ones, and what a killed process left. */
  async function readTable(): Promise<void> {
    lastRead = Date.now();
    // Held messages are still in the table and come first: read past them.
    const limit = Math.min(1000, taken.size + waiting.size + 2 * workers * batchSize);
    const found = await queue.peekLocalMessages(limit, queue.EVENT_QUEUE);
    readFull = found.length === limit;
    for (const message of found) {
      const key = queue.localMessageKey(message);
      if (!known(key)) waiting.set(key, message);
    }
    for (const [key, at] of deleted) if (Date.now() - at > DELETED_KEPT_MS) deleted.delete(key);
  }

  /**
   * The waiting messages as lines, each to be taken from its head, in order: a lane's
   * wake-up alone; a contact's new events (a FIFO group, fifoGroupOf) in event order —
   * none while one of its group is in a batch (the batch's end wakes the loop).
   */
  function waitingLines(): Array<Array<[string, LocalMessage]>> {
    const busy = new Set(taken.values());
    const lines: Array<Array<[string, LocalMessage]>> = [];
    const groups = new Map<string, Array<[string, LocalMessage]>>();
    for (const entry of waiting) {
      const group = groupOf(entry[1]);
      if (group === undefined) lines.push([entry]);
      else if (!busy.has(group)) {
        const line = groups.get(group);
        if (line) line.push(entry);
        else groups.set(group, [entry]);
      }
    }
    for (const line of groups.values()) lines.push(line.sort(([, a], [, b]) => eventOrder(a).localeCompare(eventOrder(b))));
    return lines;
  }

  /**
   * Up to a batch of due waiting messages, oldest first, now taken: from each line its due
   * head run (a failed event, waiting for its retry, holds its group's later ones back).
   */
  function takeDue(): LocalMessage[] {
    const now = clock.now();
    const runs = waitingLines()
      .map((line) => {
        const firstNotDue = line.findIndex(([, message]) => message.visibleAt > now);
        return firstNotDue === -1 ? line : line.slice(0, firstNotDue);
      })
      .filter((run) => run.length > 0)
      .sort(([[a]], [[b]]) => (a < b ? -1 : 1));
    const batch: Array<[string, LocalMessage]> = [];
    for (const run of runs) {
      if (batch.length >= batchSize) break;
      batch.push(...run.slice(0, batchSize - batch.length));
    }
    return batch.map(([key, message]) => {
      waiting.delete(key);
      taken.set(key, groupOf(message));
      // Received once more, as SQS counts it (written with a retry; see above).
      return { ...message, receiveCount: message.receiveCount + 1 };
    });
  }

  /** When the next waiting message becomes takeable (ms from now), if any: the earliest head of a line. */
  function nextDueIn(): number | undefined {
    let next: number | undefined;
    for (const [[, head]] of waitingLines()) next = Math.min(next ?? Infinity, head.visibleAt);
    return next === undefined ? undefined : Math.max(0, next - clock.now());
  }

  /** Deletes handled messages, several batches' in one BatchWriteItem when they finish together. */
  let deleting: { messages: LocalMessage[]; done: Promise<void> } | undefined;
  function deleteLater(messages: LocalMessage[]): Promise<void> {
    if (deleting) {
      deleting.messages.push(...messages);
      return deleting.done;
    }
    const pending = { messages: [...messages], done: Promise.resolve() };
    // One macrotask of waiting gathers the batches that end at the same time.
    pending.done = new Promise((resolve) => setImmediate(resolve)).then(() => {
      deleting = undefined;
      return queue.deleteLocalMessages(pending.messages);
    });
    deleting = pending;
    return pending.done;
  }

  async function handle(messages: LocalMessage[]): Promise<void> {
    const settled: LocalMessage[] = [];
    try {
      const failed = await queue
        .invokeWithLocalBatch(messages, 'event-queue', options.deliverer)
        .catch(() => new Set(messages.map((message) => message.messageId)));
      for (const message of messages.filter((candidate) => failed.has(candidate.messageId))) {
        await queue.retryOrDeadLetter(message, (options.retryDelayMs ?? RETRY_DELAY_MS) * message.receiveCount, MAX_RECEIVES);
        settled.push(message);
      }
      const succeeded = messages.filter((message) => !failed.has(message.messageId));
      await deleteLater(succeeded);
      settled.push(...succeeded);
    } finally {
      // Settled ones are gone from the table; any other is still there, and a later read takes it again.
      for (const message of messages) taken.delete(queue.localMessageKey(message));
      for (const message of settled) deleted.set(queue.localMessageKey(message), Date.now());
    }
  }

  const inFlight = new Set<Promise<void>>();
  async function loop() {
    while (!stopped) {
      if (inFlight.size >= workers) {
        await Promise.race(inFlight);
        continue;
      }
      try {
        if (Date.now() - lastRedrive >= (options.redriveEveryMs ?? 30_000)) {
          lastRedrive = Date.now();
          await options.redrive();
        }
        // The table is read every pollMs (in-process messages need no read), also while this process's keep coming,
        // and at once while the last read found a full page and too little is left here to fill the workers.
        if (Date.now() - lastRead >= pollMs || (readFull && waiting.size < workers * batchSize)) await readTable();
        const messages = takeDue();
        if (messages.length) {
          const run: Promise<void> = handle(messages)
            .catch((error: unknown) => console.error('local deliverer error', error))
            .finally(() => {
              inFlight.delete(run);
              // Its groups are free again: their next events may be taken now.
              wake?.();
            });
          inFlight.add(run);
          continue;
        }
      } catch (error) {
        console.error('local deliverer error', error);
      }
      // Nothing due: sleep until a message is written here, the next one is due, or the next read of the table.
      const untilRead = Math.max(0, pollMs - (Date.now() - lastRead));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(untilRead, nextDueIn() ?? Infinity));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }
  const running = loop();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await running;
      await Promise.all(inFlight);
      stopListening();
    },
  };
}
