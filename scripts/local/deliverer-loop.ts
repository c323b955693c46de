import { MAX_RECEIVES } from '../../shared/config';
import { fifoGroupOf, type EventQueueMessage } from '../../shared/queue/event-queue';
import type { LocalMessage, SqsBatchConsumer } from './table-step-queue';
import { WakeableSleep } from './wakeable-sleep';

/**
 * The local stand-in for the event queue's SQS event source: the one receiver of the
 * durable table queue (`LOCALQ#events`, table-step-queue.ts) invokes the deliverer bundle
 * with SQS-shaped events, deletes what succeeded and retries what failed (dead letters
 * after MAX_RECEIVES receives, as the AWS queue's maxReceiveCount). It also runs the event re-drive
 * at start (see `redriveAtStart`) and every 30 s.
 *
 * A message costs the table one write to enqueue and a share of one BatchWriteItem to
 * delete: being the queue's only receiver (one `npm start` per DATA_DIR), the loop keeps
 * what it has taken in memory instead of moving each message to a hidden copy (two
 * writes a message), hears of the messages this process writes as soon as they are in
 * the table (no poll between a hand-off and its delivery; a delayed one or a retry is
 * taken when due), and reads the table for the others (another process's, and what a
 * killed process left) at start, when the earliest message the last read left for later
 * becomes visible, and every `pollMs` (every BACKLOG_POLL_MS while enough
 * is known here to fill every worker), so an idle stack reads little (UNHEARD_READ_MS:
 * the invariant is there).
 * Everything lives in the table until handled, so a SIGKILL loses no delivery: a
 * restart resumes the queue, retries included. (The receive count is written with a
 * retry; a kill during a message's handling does not count as a receive.)
 *
 * All workspaces share this one receiver, so it schedules fairly, not first come first
 * served: a batch holds one workspace's messages, a workspace holds at most its share of
 * the workers (one at least is always left to the others; a quarter of them, and at most
 * a few new events in flight, while another workspace is active), the workspace with the
 * fewest batches in flight goes next, and within a batch the subscriptions take turns.
 */

type DelivererHandler = SqsBatchConsumer;

/**
 * What a message's body says of its FIFO group and its place in it (the event id; ids
 * sort by time), and whose it is: its workspace, and the subscription a lane's wake-up works.
 */
function parsedGroup(message: LocalMessage): { group?: string; order: string; workspace: string; subscription: string; kind: EventQueueMessage['kind'] } {
  const body = JSON.parse(message.body) as EventQueueMessage;
  return {
    kind: body.kind,
    group: fifoGroupOf(body),
    order: body.kind === 'event' ? body.event.id : '',
    workspace: body.workspaceId,
    subscription: body.kind === 'event' ? '' : body.webhookId,
  };
}
const parsed = new WeakMap<LocalMessage, ReturnType<typeof parsedGroup>>();
function groupInfo(message: LocalMessage) {
  let info = parsed.get(message);
  if (!info) parsed.set(message, (info = parsedGroup(message)));
  return info;
}
const groupOf = (message: LocalMessage) => groupInfo(message).group;
const eventOrder = (message: LocalMessage) => groupInfo(message).order;
const workspaceOf = (message: LocalMessage) => groupInfo(message).workspace;
const subscriptionOf = (message: LocalMessage) => groupInfo(message).subscription;
const kindOf = (message: LocalMessage) => groupInfo(message).kind;
type RedriveHandler = () => Promise<{ redriven: number }>;

export interface DelivererLoopOptions {
  deliverer: DelivererHandler;
  redrive: RedriveHandler;
  /** Concurrent invocations of the deliverer: a slow receiver (up to 10 s an attempt) holds up only its own batch. */
  workers?: number;
  /** The most of them one workspace's batches may hold at once (by default all but a quarter, at least one kept for the others). */
  workspaceShare?: number;
  /**
   * The most one workspace's batches may hold while another workspace is active (has a
   * message due or a batch in flight, or had one in the last ACTIVE_WINDOW_MS): by default a
   * quarter of the workers, at least one.
   */
  contendedShare?: number;
  /** The most new events (fan-outs) one workspace's batches may hold meanwhile while more than a batch of them waits: by default CONTENDED_FAN_OUTS, at least one. */
  contendedFanOuts?: number;
  /** Messages per invocation (SQS's batch size). */
  batchSize?: number;
  /** How often, at most, the table is read for messages this process did not write (default UNHEARD_READ_MS). */
  pollMs?: number;
  redriveEveryMs?: number;
  /** Whether the event re-drive runs at start (default) or first after `redriveEveryMs`. */
  redriveAtStart?: boolean;
  /** A failed message is visible again after this × its receive count. */
  retryDelayMs?: number;
  /** Told of each batch when it ends (the noisy-neighbour bench's instrument: where a workspace's events wait). */
  onBatch?: (batch: DelivererBatchRecord) => void;
}

/** What starts a traced batch's line on the stack's output (scripts/local/stack.ts, LOCAL_DELIVERER_TRACE). */
export const DELIVERER_TRACE_PREFIX = 'deliverer batch ';

/** One batch, as `onBatch` is told of it. */
export interface DelivererBatchRecord {
  workspace: string;
  /** Per message: an event to fan out or a lane's wake-up (an attempt), and how long it was due before a batch took it. */
  messages: Array<{ kind: EventQueueMessage['kind']; waitedMs: number }>;
  /** Batches of other workspaces in flight when this one was taken. */
  othersInFlight: number;
  /** From the batch's taking to its end (the fan-out's writes, or the attempts). */
  handledMs: number;
}

const RETRY_DELAY_MS = 2_000;
/**
 * A workspace's new events (fan-outs) in flight while another workspace is active and more
 * than a batch of its new events waits. Each makes its table calls one after another (two
 * dozen for 10 subscriptions), all to the stack's one dynalite, so another workspace's
 * call waits behind about this many of the busy workspace's, not a batch's worth per
 * worker. Lane wake-ups are not counted here:
 * an attempt mostly waits for its receiver, and one that hangs must not hold its
 * workspace's other lanes.
 */
const CONTENDED_FAN_OUTS = 2;
/** How often the table is read while a backlog known here fills every worker. */
const BACKLOG_POLL_MS = 5_000;
/** A workspace counts as active this long after it last had a message due or a batch in flight. */
const ACTIVE_WINDOW_MS = 10_000;

export async function startDelivererLoop(options: DelivererLoopOptions): Promise<{ stop(): Promise<void> }> {
  const queue = await import('./table-step-queue');
  // The queue's visibility times are the service clock's (tests move it).
  const { clock } = await import('../../shared/clock');
  const loop = new DelivererLoop(options, queue, () => clock.now());
  const running = loop.run();
  return {
    async stop() {
      await loop.stop(running);
    },
  };
}

type TableQueue = typeof import('./table-step-queue');

/** Deleted messages are remembered this long (see `deleted`). */
const DELETED_KEPT_MS = 60_000;

/** The loop's state: what waits, what is taken, what was deleted lately; one instance a stack. */
class DelivererLoop {
  private readonly workers: number;
  private readonly workspaceShare: number;
  private readonly contendedShare: number;
  /** When each workspace last had a message due or a batch in flight (service clock). */
  private readonly lastActive = new Map<string, number>();
  /** Batches in flight by workspace (a batch holds one workspace's messages). */
  private readonly busyWorkspaces = new Map<string, number>();
  /** New events (fan-outs) in flight by workspace. */
  private readonly fanOutsInFlight = new Map<string, number>();
  private readonly contendedFanOuts: number;
  /** When each workspace was last handed a batch (a turn counter): the least recently served goes first. */
  private readonly lastServed = new Map<string, number>();
  private turns = 0;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private stopped = false;
  private lastRedrive: number;
  private lastRead = 0;
  /** The table read in flight, if any: batches are handed out meanwhile from what is known. */
  private reading: Promise<void> | undefined;
  /** The event re-drive in flight, if any. */
  private redriving: Promise<unknown> | undefined;
  /** The last read filled its page: more may be due in the table right now. */
  private readFull = false;
  /** When the earliest message the last read left in the table for later becomes visible (service clock): a read is due then. */
  private tableNextAt = Infinity;
  /** In the table and not handed out yet, by item key. */
  private readonly waiting = new Map<string, LocalMessage>();
  /** Handed to the deliverer, until deleted or retried, with the message group of each. */
  private readonly taken = new Map<string, string | undefined>();
  /**
   * Deleted (handled, retried or dead-lettered) in the last minute, with when: a table
   * read that started before the delete, or the news of a write that a read had already
   * brought, may still name the message, and must not bring it back.
   */
  private readonly deleted = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Deletes handled messages, several batches' in one BatchWriteItem when they finish together. */
  private deleting: { messages: LocalMessage[]; done: Promise<void> } | undefined;
  private readonly sleeping = new WakeableSleep();
  private readonly stopListening: () => void;

  constructor(
    private readonly options: DelivererLoopOptions,
    private readonly queue: TableQueue,
    private readonly now: () => number,
  ) {
    this.workers = options.workers ?? 8;
    this.workspaceShare = Math.max(1, Math.min(this.workers, options.workspaceShare ?? this.workers - Math.max(1, Math.floor(this.workers / 4))));
    this.contendedShare = Math.max(1, Math.min(this.workspaceShare, options.contendedShare ?? Math.floor(this.workers / 4)));
    this.contendedFanOuts = Math.max(1, options.contendedFanOuts ?? CONTENDED_FAN_OUTS);
    this.batchSize = options.batchSize ?? 10;
    this.pollMs = options.pollMs ?? queue.UNHEARD_READ_MS;
    this.lastRedrive = options.redriveAtStart === false ? Date.now() : 0;
    this.stopListening = queue.onLocalMessage(queue.EVENT_QUEUE, (message) => {
      const key = queue.localMessageKey(message);
      if (this.known(key)) return;
      this.waiting.set(key, message);
      this.sleeping.wake();
    });
  }

  private known(key: string): boolean {
    return this.taken.has(key) || this.deleted.has(key);
  }

  /** Reads due messages from the table: those of other processes, delayed ones, and what a killed process left. */
  private async readTable(): Promise<void> {
    this.lastRead = Date.now();
    this.tableNextAt = Infinity;
    // Held messages are still in the table and come first: read past them.
    const limit = Math.min(1000, this.taken.size + this.waiting.size + 2 * this.workers * this.batchSize);
    const readAt = this.now();
    const found = await this.queue.peekLocalMessages(limit, this.queue.EVENT_QUEUE);
    this.readFull = found.length === limit;
    // Another process's delayed message (or a retry a killed process left) is read when it becomes due.
    this.tableNextAt = this.readFull ? Infinity : ((await this.queue.earliestVisibleAt(this.queue.EVENT_QUEUE, readAt)) ?? Infinity);
    for (const message of found) {
      const key = this.queue.localMessageKey(message);
      if (!this.known(key)) this.waiting.set(key, message);
    }
    for (const [key, at] of this.deleted) if (Date.now() - at > DELETED_KEPT_MS) this.deleted.delete(key);
  }

  /** Whether enough is known here to fill every worker. */
  private backlog(): boolean {
    return this.waiting.size >= this.workers * this.batchSize;
  }

  /**
   * When the next table read is due (ms from now): when the earliest message the last
   * read left for later becomes visible, else `pollMs` after the last one, and
   * BACKLOG_POLL_MS during a backlog, when a read would bring up to a thousand messages
   * known here already (this process's, heard of as they were written) for the few
   * another process wrote.
   */
  private untilRead(): number {
    const polled = (this.backlog() ? BACKLOG_POLL_MS : this.pollMs) - (Date.now() - this.lastRead);
    return Math.max(0, Math.min(polled, this.tableNextAt - this.now()));
  }

  /**
   * Starts a table read unless one is in flight, and wakes the loop when it ends. Not
   * awaited by the turn: during a backlog a read brings up to a thousand messages, and
   * the messages already known (this process's, heard of at once) go out meanwhile.
   */
  private readInBackground(): void {
    this.reading ??= this.readTable()
      .catch((error: unknown) => console.error('local deliverer error', error))
      .finally(() => {
        this.reading = undefined;
        this.sleeping.wake();
      });
  }

  /**
   * The waiting messages as lines, each to be taken from its head, in order: a lane's
   * wake-up alone; a contact's new events (a FIFO group, fifoGroupOf) in event order —
   * none while one of its group is in a batch (the batch's end wakes the loop).
   */
  private waitingLines(): Array<Array<[string, LocalMessage]>> {
    const busy = new Set(this.taken.values());
    const lines: Array<Array<[string, LocalMessage]>> = [];
    const groups = new Map<string, Array<[string, LocalMessage]>>();
    for (const entry of this.waiting) {
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
   * Up to a batch of due waiting messages, now taken: from each line its due head run (a
   * failed event, waiting for its retry, holds its group's later ones back). Fair, not
   * first come first served: a batch is one workspace's, the workspace with the fewest
   * batches in flight that is under its share (least recently served first), and within
   * it the subscriptions take turns, oldest first in each; so a workspace's backlog, or
   * its receivers that hang, never hold every worker, and another workspace's message
   * goes out at once.
   */
  private takeDue(): LocalMessage[] {
    const now = this.now();
    const dueRuns: Array<Array<[string, LocalMessage]>> = [];
    for (const line of this.waitingLines()) {
      const firstNotDue = line.findIndex(([, message]) => message.visibleAt > now);
      const run = firstNotDue === -1 ? line : line.slice(0, firstNotDue);
      if (run.length === 0) continue;
      dueRuns.push(run);
      this.lastActive.set(workspaceOf(run[0][1]), now);
    }
    const share = this.share(now);
    const byWorkspace = new Map<string, Array<Array<[string, LocalMessage]>>>();
    for (const run of dueRuns) {
      const workspace = workspaceOf(run[0][1]);
      if (!takeable(run[0][1], share(workspace))) continue;
      const runs = byWorkspace.get(workspace);
      if (runs) runs.push(run);
      else byWorkspace.set(workspace, [run]);
    }
    const served = (workspace: string) => [this.busyWorkspaces.get(workspace) ?? 0, this.lastServed.get(workspace) ?? -1];
    const [workspace] = [...byWorkspace.keys()].sort((a, b) => {
      const [busyA, lastA] = served(a);
      const [busyB, lastB] = served(b);
      return busyA - busyB || lastA - lastB;
    });
    if (workspace === undefined) return [];
    const batch = takeInTurns(byWorkspace.get(workspace)!, this.batchSize, share(workspace)!);
    this.lastServed.set(workspace, this.turns++);
    return batch.map(([key, message]) => {
      this.waiting.delete(key);
      this.taken.set(key, groupOf(message));
      // Received once more, as SQS counts it (written with a retry; see above).
      return { ...message, receiveCount: message.receiveCount + 1 };
    });
  }

  /**
   * Whether a workspace may be handed another batch now, and how many new events it may
   * hold (undefined: no batch): under its share of the workers, which is the smaller
   * `contendedShare` while another workspace is active; and then, while more than a
   * batch of its new events waits (a burst: an import's fan-out, two dozen table calls an
   * event), no more new events than what is left of `contendedFanOuts` in flight. So a
   * burst keeps few calls in flight beside another workspace's work, whose table calls and
   * turns of the loop wait behind that much, not behind most of the workers' worth, while
   * a workspace whose events keep up (a steady trickle) is not held to the cap.
   */
  private share(now: number): (workspace: string) => number | undefined {
    for (const [workspace, at] of this.lastActive) if (now - at > ACTIVE_WINDOW_MS && !this.busyWorkspaces.has(workspace)) this.lastActive.delete(workspace);
    const active = new Set([...this.lastActive.keys(), ...this.busyWorkspaces.keys()]);
    const waitingEvents = new Map<string, number>();
    for (const message of this.waiting.values()) {
      if (kindOf(message) === 'event') waitingEvents.set(workspaceOf(message), (waitingEvents.get(workspaceOf(message)) ?? 0) + 1);
    }
    return (workspace) => {
      const contended = active.size > 1 || (active.size === 1 && !active.has(workspace));
      if ((this.busyWorkspaces.get(workspace) ?? 0) >= (contended ? this.contendedShare : this.workspaceShare)) return undefined;
      const burst = contended && (waitingEvents.get(workspace) ?? 0) > this.batchSize;
      return burst ? Math.max(0, this.contendedFanOuts - (this.fanOutsInFlight.get(workspace) ?? 0)) : this.batchSize;
    };
  }

  /** When the next waiting message becomes takeable (ms from now), if any: the earliest head of a line whose workspace is under its share. */
  private nextDueIn(): number | undefined {
    let next: number | undefined;
    const share = this.share(this.now());
    for (const [[, head]] of this.waitingLines()) {
      if (takeable(head, share(workspaceOf(head)))) next = Math.min(next ?? Infinity, head.visibleAt);
    }
    return next === undefined ? undefined : Math.max(0, next - this.now());
  }

  private deleteLater(messages: LocalMessage[]): Promise<void> {
    if (this.deleting) {
      this.deleting.messages.push(...messages);
      return this.deleting.done;
    }
    const pending = { messages: [...messages], done: Promise.resolve() };
    // One macrotask of waiting gathers the batches that end at the same time.
    pending.done = new Promise((resolve) => setImmediate(resolve)).then(() => {
      this.deleting = undefined;
      return this.queue.deleteLocalMessages(pending.messages);
    });
    this.deleting = pending;
    return pending.done;
  }

  private async handle(messages: LocalMessage[]): Promise<void> {
    const settled: LocalMessage[] = [];
    try {
      const failed = await this.queue
        .invokeWithLocalBatch(messages, 'event-queue', this.options.deliverer)
        .catch(() => new Set(messages.map((message) => message.messageId)));
      for (const message of messages.filter((candidate) => failed.has(candidate.messageId))) {
        await this.queue.retryOrDeadLetter(message, (this.options.retryDelayMs ?? RETRY_DELAY_MS) * message.receiveCount, MAX_RECEIVES);
        settled.push(message);
      }
      const succeeded = messages.filter((message) => !failed.has(message.messageId));
      await this.deleteLater(succeeded);
      settled.push(...succeeded);
    } finally {
      // Settled ones are gone from the table; any other is still there, and a later read takes it again.
      for (const message of messages) this.taken.delete(this.queue.localMessageKey(message));
      for (const message of settled) this.deleted.set(this.queue.localMessageKey(message), Date.now());
    }
  }

  /** One turn: the re-drive and a read of the table started when due, and a batch handed out; false when nothing was due. */
  private async turn(): Promise<boolean> {
    // The re-drive and the table read run beside the turns, not in them: the messages already here go out meanwhile.
    if (Date.now() - this.lastRedrive >= (this.options.redriveEveryMs ?? 30_000)) {
      this.lastRedrive = Date.now();
      this.redriving ??= this.options
        .redrive()
        .catch((error: unknown) => console.error('local deliverer error', error))
        .finally(() => (this.redriving = undefined));
    }
    // The table is read when due (in-process messages need no read), also while this process's keep coming,
    // and at once while the last read found a full page and too little is left here to fill the workers.
    if (this.untilRead() === 0 || (this.readFull && !this.backlog())) this.readInBackground();
    const messages = this.takeDue();
    if (messages.length === 0) return false;
    const workspace = workspaceOf(messages[0]);
    const taken = { at: this.now(), othersInFlight: this.inFlight.size - (this.busyWorkspaces.get(workspace) ?? 0) };
    count(this.busyWorkspaces, workspace, 1);
    const fanOuts = messages.filter((message) => kindOf(message) === 'event').length;
    count(this.fanOutsInFlight, workspace, fanOuts);
    const run: Promise<void> = this.handle(messages)
      .catch((error: unknown) => console.error('local deliverer error', error))
      .finally(() => {
        this.options.onBatch?.({
          workspace,
          messages: messages.map((message) => ({ kind: kindOf(message), waitedMs: Math.max(0, taken.at - message.visibleAt) })),
          othersInFlight: taken.othersInFlight,
          handledMs: this.now() - taken.at,
        });
        this.inFlight.delete(run);
        this.lastActive.set(workspace, this.now());
        count(this.busyWorkspaces, workspace, -1);
        count(this.fanOutsInFlight, workspace, -fanOuts);
        // Its groups are free again: their next events may be taken now.
        this.sleeping.wake();
      });
    this.inFlight.add(run);
    return true;
  }

  /** Nothing due: sleeps until a message is written here, the next message is due, the table read in flight ends, or the next read is due. */
  private async sleep(): Promise<void> {
    const untilRead = this.reading ? Infinity : this.untilRead();
    const wait = Math.min(untilRead, this.nextDueIn() ?? Infinity);
    await this.sleeping.sleep(wait);
  }

  async run(): Promise<void> {
    while (!this.stopped) {
      if (this.inFlight.size >= this.workers) {
        await Promise.race(this.inFlight);
        continue;
      }
      try {
        if (await this.turn()) continue;
      } catch (error) {
        console.error('local deliverer error', error);
      }
      await this.sleep();
    }
  }

  async stop(running: Promise<void>): Promise<void> {
    this.stopped = true;
    this.sleeping.wake();
    await running;
    await Promise.all(this.inFlight);
    await this.reading;
    await this.redriving;
    this.stopListening();
  }
}

/** Adds `delta` to `key`'s count; a count that falls to 0 leaves the map (a workspace absent is one with nothing in flight). */
function count(counts: Map<string, number>, key: string, delta: number): void {
  const total = (counts.get(key) ?? 0) + delta;
  if (total > 0) counts.set(key, total);
  else counts.delete(key);
}

/** Whether a line's head may go into a batch whose workspace may take `fanOuts` new events (undefined: no batch). */
function takeable(head: LocalMessage, fanOuts: number | undefined): boolean {
  return fanOuts !== undefined && (fanOuts > 0 || kindOf(head) !== 'event');
}

/**
 * Up to `size` messages from `runs` (each a line's due head run, in order), at most
 * `fanOuts` of them new events, the subscriptions taking turns — one run of each in
 * turn, oldest first within each — so one subscription's backlog does not fill a batch
 * while another's waits. A run is taken whole or up to what is left, never split out of
 * order.
 */
function takeInTurns(runs: Array<Array<[string, LocalMessage]>>, size: number, fanOuts: number): Array<[string, LocalMessage]> {
  const bySubscription = new Map<string, Array<Array<[string, LocalMessage]>>>();
  for (const run of runs.sort(([[a]], [[b]]) => (a < b ? -1 : 1))) {
    const subscription = subscriptionOf(run[0][1]);
    const queue = bySubscription.get(subscription);
    if (queue) queue.push(run);
    else bySubscription.set(subscription, [run]);
  }
  const batch: Array<[string, LocalMessage]> = [];
  const queues = [...bySubscription.values()];
  while (batch.length < size && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const run = queue.shift();
      const events = run !== undefined && kindOf(run[0][1]) === 'event';
      if (run && (!events || fanOuts > 0)) {
        const taken = run.slice(0, events ? Math.min(fanOuts, size - batch.length) : size - batch.length);
        if (events) fanOuts -= taken.length;
        batch.push(...taken);
      }
      if (batch.length >= size) break;
    }
  }
  return batch;
}
