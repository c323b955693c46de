import { randomUUID } from 'node:crypto';
import { clock } from '../clock';
import { config } from '../config';
import { clearPendingEvents } from '../data/event-outbox';
import { erasedAt } from '../data/erasure-tombstones';
import {
  addToLane,
  createDelivery,
  deferLane,
  deleteDelivery,
  deleteEventLogs,
  finishLaneEvent,
  finishLastLaneEvent,
  getDelivery,
  getEventLog,
  handOverLane,
  laneInHand,
  lockLane,
  parkedLanesPage,
  parkFiledLane,
  parkLane,
  putEventLogs,
  postponeLaneSweep,
  releaseEmptyLane,
  releaseLane,
  updateDelivery,
  type DeliveryRecord,
  type EventLogRecord,
  type LaneState,
  LANE_SWEEP_GRACE_MS,
  LANE_SHARDS,
  lanesPastTheirTime,
  type FiledLane,
} from '../data/events';
import type { ChannelRef } from '../identity';
import { mapLimit } from '../map-limit';
import { readAfterWrites, type ReadAfterWrites } from './read-after-writes';
import {
  getSubscriptions,
  recordSubscriptionOutcome,
  takeProbe,
  type DeliveryOutcome,
  type SubscriptionRecord,
  type SubscriptionSet,
} from '../data/webhook-subscriptions';
import { subscribedTo } from '../events/event-types';
import { DELIVERY_TIMEOUT_MS, postWebhook, type AttemptResult } from '../events/post-webhook';
import { nextRetryDelaySeconds, parseRetrySchedule } from '../events/retry-schedule';
import { secretBox } from '../events/secret-box';
import { deliveryHeaders } from '../events/signing';
import { urlPolicyFromEnv } from '../events/url-policy';
import { TtlCache } from '../cache/ttl-cache';
import { logger } from '../observability/logger';
import { countWebhookDelivery, type WebhookDeliveryOutcome } from '../observability/metrics';
import { MAX_QUEUE_DELAY_SECONDS } from '../queue/queue-port';
import { enqueueEvent, eventGroupOf, type EventQueueMessage } from '../queue/event-queue';
import { erasedEntries, raisedBefore } from './erased-events';
import { secretContext } from './integrator-webhooks';

export type { EventQueueMessage } from '../queue/event-queue';

/**
 * The event deliverer (functions/event-deliverer.ts, fed by the event queue): records
 * each new event in the events log, fans it out to the channel's subscriptions (one
 * delivery item each, idempotent), and works the delivery lanes. A lane is one
 * contact's events for one subscription: one deliverer at a time (a lock with a short
 * lease) sends its oldest waiting event; a failure holds the lane until the retry, so a
 * contact's events arrive in the order they happened. Retries follow the schedule
 * (WEBHOOK_RETRY_SCHEDULE), by a delayed wake-up message (hops past 15 minutes).
 */

const schedule = parseRetrySchedule(config.webhookRetrySchedule());
/** 10 s (post-webhook.ts) unless WEBHOOK_DELIVERY_TIMEOUT_MS says otherwise; tests shorten it to test timeouts quickly. */
const timeoutMs = config.webhookDeliveryTimeoutMs() ?? DELIVERY_TIMEOUT_MS;
/**
 * The longest an attempt takes from the lock's renewal to its outcome written: the POST's
 * timeout (which covers the name lookup) plus the reads before it (the delivery, the
 * subscription, the event, a KMS Decrypt of a secret not cached) and the delivery's
 * write after it, each bounded by the SDK's own timeouts and retries.
 */
const WORST_CASE_ATTEMPT_MS = timeoutMs + 10_000;
/** A lane's lock lasts this long past each renewal: longer than the worst-case attempt, so no second deliverer can take the lane during one. */
const LANE_LEASE_MS = WORST_CASE_ATTEMPT_MS + 5_000;

/** Whether a whole attempt still ends before `deadline` (real clock, ms; none outside an invocation). */
function timeForAnAttempt(deadline: number | undefined): boolean {
  return deadline === undefined || deadline - clock.realNow() >= WORST_CASE_ATTEMPT_MS;
}
const secrets = new TtlCache<string, string>({ maxAgeMs: 5 * 60_000 });

type EventMessage = EventQueueMessage & { kind: 'event' };

/**
 * What one batch shares: its new events recorded in the log in one write, each channel's
 * subscriptions read once, and read again once after the parkings of the fan-outs that run at once.
 */
export interface BatchContext {
  /**
   * Resolves, once `message`'s event is in the events log (with the batch's other due
   * events, in one write), to the body its deliveries carry; undefined when its contact
   * was erased after it was raised (it is then out of the log again, and goes nowhere).
   */
  recorded(message: EventMessage): Promise<string | undefined>;
  subscriptions(channel: ChannelRef): Promise<SubscriptionSet>;
  /** The channel's subscriptions read after lanes were parked (consistent), one read for the fan-outs of the batch parking at once. */
  afterParking(channel: ChannelRef): ReadAfterWrites<SubscriptionSet>;
  /** When the invocation must have ended its work (real clock, ms; functions/event-deliverer.ts), undefined outside one. */
  deadline?: number;
}

type LogEntry = { channel: ChannelRef; event: EventLogRecord };

/**
 * Records entries in the events log, then drops again those whose contact has been erased
 * since the event was raised (erasure tombstones, shared/data/erasure-tombstones.ts); the
 * entries kept. Written before the check, so an erasure either comes before the check
 * (and is seen) or after the write (and deletes the entry itself): none stays.
 */
async function recordUnlessErased(entries: LogEntry[]): Promise<Set<LogEntry>> {
  await putEventLogs(entries, clock.now());
  const erased = await erasedEntries(entries);
  if (erased.length) await deleteEventLogs(erased);
  return new Set(entries.filter((entry) => !erased.includes(entry)));
}

const isDue = (message: EventQueueMessage) => message.notBefore === undefined || message.notBefore <= clock.now();

const logRecordOf = ({ contactKey, event }: EventMessage): EventLogRecord => ({
  id: event.id,
  type: event.type,
  body: JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data }),
  contactKey,
});

/**
 * The context of one batch: its due new events go into the log with one BatchWriteItem
 * (before any of them is fanned out; a failure fails them all, and the queue retries
 * them), and a channel's subscriptions are read once for the batch (a change to them
 * applies from the next batch on, as it would had the batch been read a moment later).
 */
export function batchContext(messages: EventQueueMessage[], deadline?: number): BatchContext {
  let recorded: { entries: Map<EventMessage, LogEntry>; kept: Promise<Set<LogEntry>> } | undefined;
  const subscriptions = perChannel((channel) => getSubscriptions(channel));
  const afterParking = perChannel((channel) => readAfterWrites(() => getSubscriptions(channel)));
  const logEntry = (message: EventMessage): LogEntry => ({
    channel: { workspaceId: message.workspaceId, channelId: message.channelId },
    event: logRecordOf(message),
  });
  return {
    deadline,
    async recorded(message) {
      if (!recorded) {
        const due = messages.filter((candidate): candidate is EventMessage => candidate.kind === 'event' && isDue(candidate));
        const entries = new Map(due.map((event) => [event, logEntry(event)]));
        recorded = { entries, kept: recordUnlessErased([...entries.values()]) };
      }
      const kept = await recorded.kept;
      // Not due when the batch was written (its wait ended while it waited for its turn): on its own.
      const entry = recorded.entries.get(message) ?? logEntry(message);
      const keptAlone = recorded.entries.has(message) ? kept : await recordUnlessErased([entry]);
      return keptAlone.has(entry) ? entry.event.body : undefined;
    },
    subscriptions,
    afterParking,
  };
}

/** `make`'s value for a channel, made on its first use and kept (for one batch). */
function perChannel<T>(make: (channel: ChannelRef) => T): (channel: ChannelRef) => T {
  const made = new Map<string, T>();
  return (channel) => {
    const key = `${channel.workspaceId}/${channel.channelId}`;
    if (!made.has(key)) made.set(key, make(channel));
    return made.get(key)!;
  };
}

/** Handles one queue message; throws on a transient failure so the queue retries it. */
export async function handleEventMessage(message: EventQueueMessage, batch: BatchContext): Promise<void> {
  if (!isDue(message)) {
    // A wait longer than the queue's delay travels as a chain of hops.
    await enqueueEvent(message);
    return;
  }
  const channel = { workspaceId: message.workspaceId, channelId: message.channelId };
  if (message.kind === 'lane') {
    await workLane(channel, message.webhookId, message.contactKey, batch.deadline);
    return;
  }
  if (message.kind === 'unpark') {
    await wakeParkedLanes(channel, message.webhookId, message.from, batch.deadline);
    return;
  }
  await recordAndFanOut(message, batch);
}

/**
 * The handler of one queue batch: a contact's new events one after another, oldest
 * first ({@link inContactOrder}), sharing the batch's log write and subscription reads.
 */
export function handleBatch(messages: EventQueueMessage[], deadline?: number): (message: EventQueueMessage) => Promise<void> {
  const batch = batchContext(messages, deadline);
  return inContactOrder(messages, (message) => handleEventMessage(message, batch));
}

/**
 * Handles one batch's messages in contact order: a contact's new events one after
 * another, oldest event first, so an earlier event's fan-out reaches the lane before a
 * later one is sent; other contacts' messages (and lane wake-ups) concurrently. A
 * contact's event whose predecessor in the batch failed fails too, unhandled, so the
 * queue gives both back in order (as a FIFO queue requires of a partial batch
 * response). Returns the handler to run for each message of `messages`; the batch
 * processor starts them all at once and each waits for its turn.
 */
export function inContactOrder(
  messages: EventQueueMessage[],
  handle: (message: EventQueueMessage) => Promise<void>,
): (message: EventQueueMessage) => Promise<void> {
  const turns = new Map<EventQueueMessage, { after: Promise<boolean>; done: (handled: boolean) => void }>();
  const lastOfContact = new Map<string, Promise<boolean>>();
  const events = messages.filter((message) => message.kind === 'event').sort((a, b) => a.event.id.localeCompare(b.event.id));
  for (const message of events) {
    const group = eventGroupOf(message)!;
    let done!: (handled: boolean) => void;
    const finished = new Promise<boolean>((resolve) => (done = resolve));
    turns.set(message, { after: lastOfContact.get(group) ?? Promise.resolve(true), done });
    lastOfContact.set(group, finished);
  }
  return async function handleInTurn(message) {
    const turn = turns.get(message);
    if (turn && !(await turn.after)) {
      turn.done(false);
      throw new Error('an earlier event of this contact failed in this batch: this one waits for its retry');
    }
    try {
      await handle(message);
      turn?.done(true);
    } catch (error) {
      turn?.done(false);
      throw error;
    }
  };
}

/** A lane's lock lease from now. */
const lease = () => clock.now() + LANE_LEASE_MS;

/**
 * Records the event in the log (the batch's one write) and, unless its contact has been
 * erased since, gives each subscribed, active subscription its delivery and a place in
 * the contact's lane. It attempts nothing: each lane that no deliverer has in hand gets
 * a wake-up of its own, a message of the lane queue (fair across workspaces), so a
 * receiver that hangs holds its own lane only — never this event's other lanes, nor the
 * contact's next event, whose fan-out waits for this one's (the FIFO group) and so for
 * nothing but writes. The delivery is created before the event joins the lane, as a
 * deliverer may take the lane at once.
 */
async function recordAndFanOut(message: EventMessage, batch: BatchContext): Promise<void> {
  const channel = { workspaceId: message.workspaceId, channelId: message.channelId };
  if ((await batch.recorded(message)) !== undefined) await fanOut(message, await batch.subscriptions(channel), batch.afterParking(channel));
  if (message.source) await clearPendingEvents({ pk: message.source.pk, sk: message.source.sk }, message.source.count);
}

/**
 * The fan-out of a recorded event to the subscriptions: each's delivery, place in the
 * contact's lane and, when needed, the lane's wake-up. Behind an open circuit breaker the
 * lane is parked instead (no wake-up: the breaker's closing wakes it), and the delivery
 * shows the breaker's probe time as its next attempt. A breaker's closing writes first
 * and then wakes the lanes it finds parked; a lane parked after that Query is seen by
 * the subscriptions read after the parking (`afterParking`, shared by the batch's
 * fan-outs that park at once), which wakes the lanes whose breaker has closed since: so
 * no parked lane misses the wake-up of the closing it raced.
 */
async function fanOut(message: EventMessage, subscriptions: SubscriptionSet, afterParking: ReadAfterWrites<SubscriptionSet>): Promise<void> {
  const channel = { workspaceId: message.workspaceId, channelId: message.channelId };
  let parked: string[] = [];
  const reread = await afterParking.after(async () => (parked = await joinLanes(message, subscriptions)).length > 0);
  for (const webhookId of parked) {
    if (breakerOpenUntil(reread!.subs[webhookId]) === undefined) await enqueueEvent({ kind: 'lane', ...channel, webhookId, contactKey: message.contactKey });
  }
}

/** Gives each subscribed, active subscription the event's delivery and a place in the contact's lane; the subscriptions whose lane it parked. */
async function joinLanes({ workspaceId, channelId, contactKey, event }: EventMessage, { subs }: SubscriptionSet): Promise<string[]> {
  const channel = { workspaceId, channelId };
  const now = clock.now();
  const parked: string[] = [];
  for (const sub of Object.values(subs)) {
    if (!sub.isActive || !subscribedTo(sub.events, event.type)) continue;
    const probeAt = breakerOpenUntil(sub);
    const delivery: DeliveryRecord = {
      webhookId: sub.id,
      eventId: event.id,
      type: event.type,
      contactKey,
      status: 'pending',
      attempts: 0,
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: probeAt === undefined ? null : new Date(probeAt).toISOString(),
    };
    // A repeated fan-out (a crash, the re-drive) joins the lane only while the delivery is still pending.
    if (!(await createDelivery(channel, delivery, now)) && (await getDelivery(channel, sub.id, event.id))?.status !== 'pending') continue;
    const lane = await addToLane(channel, sub.id, contactKey, event.id, probeAt === undefined ? undefined : parkedSweepTime(probeAt));
    if (probeAt !== undefined) parked.push(sub.id);
    else if (!laneInHand(lane, clock.now())) await enqueueEvent({ kind: 'lane', ...channel, webhookId: sub.id, contactKey });
  }
  return parked;
}

/** Works a lane while it has a due event and this deliverer holds its lock. */
export async function workLane(channel: ChannelRef, webhookId: string, contactKey: string, deadline: number | undefined): Promise<void> {
  const owner = randomUUID();
  let state: LaneState | undefined = await lockLane(channel, webhookId, contactKey, owner, clock.now(), lease());
  if (!state) {
    // Another deliverer holds it: it sees what was added (its release fails while events wait). Should it have
    // died holding the lock, this wake-up works the lane once the lease ends.
    await enqueueEvent({ kind: 'lane', ...channel, webhookId, contactKey, notBefore: clock.now() + LANE_LEASE_MS + 1000 });
    return;
  }
  for (;;) {
    const head = state.waiting[0];
    if (!head) {
      if (await releaseEmptyLane(channel, webhookId, contactKey, owner)) return;
      state = await lockLane(channel, webhookId, contactKey, owner, clock.now(), lease());
      if (!state) return;
      continue;
    }
    if (state.nextAttemptAt !== undefined && state.nextAttemptAt > clock.now()) {
      if (await releaseLane(channel, webhookId, contactKey, owner, clock.now())) return;
      state = await lockLane(channel, webhookId, contactKey, owner, clock.now(), lease());
      if (!state) return;
      continue;
    }
    if (!timeForAnAttempt(deadline)) {
      // Out of time: the lane goes to a wake-up, rather than outlive the invocation and come back with the whole batch.
      if (await handOverLane(channel, webhookId, contactKey, owner)) await enqueueEvent({ kind: 'lane', ...channel, webhookId, contactKey });
      return;
    }
    const outcome = await attempt(channel, { webhookId, contactKey }, head);
    if (outcome !== undefined && 'parkedUntil' in outcome) {
      // Behind an open breaker, not the probe's lane: parked, with no wake-up, until the breaker closes.
      if (!(await parkLane(channel, webhookId, contactKey, owner, parkedSweepTime(outcome.parkedUntil)))) return;
      if (breakerOpenUntil((await getSubscriptions(channel)).subs[webhookId]) !== undefined) return;
      // It closed meanwhile (its wake-up may have missed this lane): on at once.
      state = await lockLane(channel, webhookId, contactKey, owner, clock.now(), lease());
      if (!state) return;
      continue;
    }
    const retryAt = outcome?.retryAt;
    if (retryAt === undefined) {
      // The last event waiting: out of the lane and the lock released in one write (unless one was added meanwhile).
      if (state.waiting.length === 1 && (await finishLastLaneEvent(channel, webhookId, contactKey, owner, head))) return;
      state = await finishLaneEvent(channel, webhookId, contactKey, owner, head, lease());
      if (!state) return;
      continue;
    }
    await deferLane(channel, webhookId, contactKey, owner, retryAt);
    // A wait longer than the queue's delay has no message: the lane sweep wakes the lane at its time (no chain of hops).
    if (retryAt - clock.now() <= MAX_QUEUE_DELAY_SECONDS * 1000) await enqueueEvent({ kind: 'lane', ...channel, webhookId, contactKey, notBefore: retryAt });
    state = { ...state, nextAttemptAt: retryAt };
  }
}

/** When this container last wrote a subscription's success statistics, and with which status. */
const lastSuccessWrite = new Map<string, { at: number; statusCode?: number }>();
const STATISTICS_EVERY_MS = 1000;

/**
 * Whether a success needs its statistics written: not while the same answer was written
 * less than a second ago and nothing is failing (a burst of deliveries writes the
 * subscription's item about once a second, not once per delivery).
 */
function statisticsDue(webhookId: string, statusCode: number | undefined, sub: SubscriptionRecord): boolean {
  const last = lastSuccessWrite.get(webhookId);
  const now = clock.now();
  if (last && now - last.at < STATISTICS_EVERY_MS && last.statusCode === statusCode && !sub.failingSince) return false;
  lastSuccessWrite.set(webhookId, { at: now, statusCode });
  return true;
}

/** The secrets that sign now: the current one, and a rotated-out one until it retires. */
async function signingSecrets(channel: ChannelRef, sub: SubscriptionRecord): Promise<string[]> {
  const now = clock.now();
  const live = sub.secrets.filter((secret) => !secret.retiresAt || Date.parse(secret.retiresAt) > now);
  return Promise.all(
    live.map((secret) => secrets.get(secret.sealed, () => secretBox().open(secret.sealed, secretContext(channel.workspaceId, channel.channelId, sub.id)))),
  );
}

/** What an attempt's answer makes of the delivery: its status, when to retry, what the subscription records, the metric. */
interface Verdict {
  status: 'succeeded' | 'pending' | 'failed';
  retryAt?: number;
  /** Undefined: nothing to record (a success within a second of the same success). */
  outcome?: DeliveryOutcome;
  metric: WebhookDeliveryOutcome;
}

/** The verdict on an attempt's result (attempt number `attempts`, made `at`, in the lane of contact `lane`), by the retry schedule. */
function verdictOn(result: AttemptResult, attempts: number, at: string, { webhookId, contactKey }: LaneRef, sub: SubscriptionRecord): Verdict {
  const statusCode = result.statusCode ?? null;
  if (result.delivered) {
    const outcome = statisticsDue(webhookId, result.statusCode, sub) ? { at, statusCode, succeeded: true } : undefined;
    return { status: 'succeeded', outcome, metric: 'succeeded' };
  }
  if (result.statusCode === 410) return { status: 'failed', outcome: { at, statusCode: 410, gone: true }, metric: 'gone' };
  // The breaker waits by the schedule too, counted by the subscription's run of failures (its last step repeats while it lasts).
  const failures = Math.min((sub.failures ?? 0) + 1, schedule.length);
  // This lane holds the probe: the breaker's one lane with a wake-up (the others park).
  const failed = { probeAt: Date.parse(at) + nextRetryDelaySeconds(schedule, failures)! * 1000, probeLane: contactKey };
  const delaySeconds = nextRetryDelaySeconds(schedule, attempts);
  if (delaySeconds === undefined) return { status: 'failed', outcome: { at, statusCode, failed }, metric: 'failed' };
  return { status: 'pending', retryAt: Date.parse(at) + delaySeconds * 1000, outcome: { at, statusCode, failed }, metric: 'retrying' };
}

/** A lane: one contact's events for one subscription. */
interface LaneRef {
  webhookId: string;
  contactKey: string;
}

/**
 * What becomes of a lane's head that was not done with: its retry's time (the lane waits
 * with a wake-up then), or that the lane parks behind its subscription's open breaker
 * until about `parkedUntil` (no wake-up of its own).
 */
type HeadWait = { retryAt: number } | { parkedUntil: number };

/** The probe time of the subscription's circuit breaker while it is open; undefined while it is closed. */
function breakerOpenUntil(sub: SubscriptionRecord | undefined): number | undefined {
  return sub?.probeAt ?? undefined;
}

/**
 * Until when the lane sweep leaves a lane parked behind a breaker probing at `probeAt`
 * to the breaker's closing: past the probe's lease (its outcome is known by then), and at
 * least {@link PARKED_RECHECK_MS} on, so parked lanes cost the sweep one write a while,
 * not one a minute.
 */
function parkedSweepTime(probeAt: number): number {
  return Math.max(probeAt + LANE_LEASE_MS, clock.now() + PARKED_RECHECK_MS) + LANE_SWEEP_GRACE_MS;
}
/** The longest a parked lane may wait past its breaker's closing when the closing's wake-up was lost. */
const PARKED_RECHECK_MS = 5 * 60_000;

/**
 * The circuit breaker per subscription: a failed attempt opens it until the retry
 * schedule's next time for the subscription's run of failures (`probeAt`, written with
 * the attempt's statistics), and makes its lane the probe's (`probeLane`). While it is
 * open no lane of the subscription attempts: the probe's lane waits for that time with a
 * wake-up; every other lane parks (no wake-up, no deliverer) until the breaker closes. At
 * the probe's time the first lane due takes the probe (one conditional write, which moves
 * `probeAt` a lease on so that the others wait for its outcome), and the probe's outcome
 * opens the breaker again or closes it — a closing wakes the parked lanes
 * ({@link wakeParkedLanes}). Undefined when this attempt may go.
 */
async function heldByBreaker(channel: ChannelRef, lane: LaneRef, sub: SubscriptionRecord): Promise<HeadWait | undefined> {
  const probeAt = breakerOpenUntil(sub);
  if (probeAt === undefined) return undefined;
  if (probeAt > clock.now()) return sub.probeLane === lane.contactKey ? { retryAt: probeAt } : { parkedUntil: probeAt };
  return (await takeProbe(channel, lane.webhookId, lane.contactKey, probeAt, lease())) ? undefined : { parkedUntil: lease() };
}

/** Why a pending delivery can no longer be attempted, if it cannot. */
function unattemptable(sub: SubscriptionRecord | undefined, event: { body: string } | undefined): string | undefined {
  if (!event) return 'the event is no longer kept';
  if (sub?.isActive) return undefined;
  return sub?.disabledReason === 'gone' ? 'the subscription was deactivated (410 Gone)' : 'the subscription is inactive';
}

/**
 * One delivery attempt of a lane's head, unless the subscription's circuit breaker holds
 * it. Undefined when the event is done with (delivered, failed for good, or nothing to
 * do); else what the lane waits for.
 */
async function attempt(channel: ChannelRef, lane: LaneRef, eventId: string): Promise<HeadWait | undefined> {
  const { webhookId } = lane;
  const delivery = await getDelivery(channel, webhookId, eventId);
  if (delivery?.status !== 'pending') return undefined;
  const sub = (await getSubscriptions(channel)).subs[webhookId];
  const event = await getEventLog(channel, eventId);
  const lastError = unattemptable(sub, event);
  if (lastError || !sub || !event) {
    await updateDelivery(channel, webhookId, eventId, { status: 'failed', lastError: lastError ?? null, nextAttemptAt: null }, clock.now());
    return undefined;
  }
  if (raisedBefore(eventId, await erasedAt(channel, delivery.contactKey))) {
    // Its contact was erased after the fan-out read the log: neither sent nor kept (a delivery or log entry made since goes).
    await Promise.all([deleteDelivery(channel, webhookId, eventId), deleteEventLogs([{ channel, event: { id: eventId } }])]);
    return undefined;
  }
  const held = await heldByBreaker(channel, lane, sub);
  if (held !== undefined) {
    // No attempt: the delivery shows when it may go at the earliest.
    const nextAttemptAt = new Date('retryAt' in held ? held.retryAt : held.parkedUntil).toISOString();
    if (delivery.nextAttemptAt !== nextAttemptAt) await updateDelivery(channel, webhookId, eventId, { nextAttemptAt }, clock.now());
    return held;
  }
  const now = clock.now();
  const headers = deliveryHeaders(await signingSecrets(channel, sub), eventId, Math.floor(now / 1000), event.body);
  const result = await postWebhook(sub.url, headers, event.body, { policy: urlPolicyFromEnv(), timeoutMs });
  // The caller sees only that the destination is not allowed (lastError); why, only this log.
  if (result.detail) logger.warn('webhook destination refused', { channelId: channel.channelId, webhookId, detail: result.detail });
  const at = new Date(clock.now()).toISOString();
  const attempts = delivery.attempts + 1;
  const verdict = verdictOn(result, attempts, at, lane, sub);
  await updateDelivery(
    channel,
    webhookId,
    eventId,
    {
      attempts,
      lastAttemptAt: at,
      lastStatusCode: result.statusCode ?? null,
      lastError: result.error ?? null,
      status: verdict.status,
      nextAttemptAt: verdict.retryAt === undefined ? null : new Date(verdict.retryAt).toISOString(),
    },
    clock.now(),
  );
  if (verdict.outcome && (await recordSubscriptionOutcome(channel, webhookId, verdict.outcome))) {
    // This success closed the breaker, or this 410 closed it as it deactivated the subscription: its parked lanes go on
    // (a message of their own, so this lane does not wait for them), to their attempts or to fail as deactivated.
    await enqueueEvent({ kind: 'unpark', ...channel, webhookId });
  }
  countWebhookDelivery(verdict.metric);
  return verdict.retryAt === undefined ? undefined : { retryAt: verdict.retryAt };
}

/**
 * Wakes the parked lanes of a subscription whose breaker has closed, page by page of one
 * Query of its lanes (`LANE#<webhookId>#`, only the parked ones kept); what is left when
 * the invocation's time runs short goes on in a message of its own. Should that be lost,
 * the lane sweep finds each parked lane by its filed time.
 */
async function wakeParkedLanes(channel: ChannelRef, webhookId: string, from: Record<string, unknown> | undefined, deadline: number | undefined): Promise<void> {
  let startKey = from;
  do {
    if (!timeForAnAttempt(deadline)) {
      await enqueueEvent({ kind: 'unpark', ...channel, webhookId, from: startKey });
      return;
    }
    const page = await parkedLanesPage(channel, webhookId, startKey);
    await mapLimit(page.contactKeys, WAKE_CONCURRENCY, (contactKey) => enqueueEvent({ kind: 'lane', ...channel, webhookId, contactKey }));
    startKey = page.next;
  } while (startKey);
}
/** Wake-ups handed to the queue at once. */
const WAKE_CONCURRENCY = 10;

/**
 * The lane sweep (with the event re-drive, every minute): wakes every lane filed in the
 * outbox index past its time (shared/data/events.ts `LANE_SWEEP_GRACE_MS`) — a lane whose
 * wake-up was lost (a crash, a message in the dead-letter queue), whose long retry wait
 * has ended, or a parked lane whose breaker's closing did not wake it — and files it a
 * lease and a grace later, so the next sweep leaves it to this wake-up. A lane behind a
 * breaker still open it parks instead ({@link parkedBySweep}). Stops when `timeLeft` says so.
 */
export async function sweepLanes(nowMs: number, timeLeft: () => boolean = () => true): Promise<{ woken: number; complete: boolean }> {
  let woken = 0;
  const parks = parkedBySweep(nowMs);
  for (const shard of LANE_SHARDS) {
    let startKey: Record<string, unknown> | undefined;
    do {
      if (!timeLeft()) return { woken, complete: false };
      const page = await lanesPastTheirTime(shard, nowMs, startKey);
      for (const filed of page.lanes) {
        if (await parks(filed)) continue;
        await enqueueEvent({ kind: 'lane', ...filed.lane });
        await postponeLaneSweep(filed.key, nowMs + LANE_LEASE_MS + LANE_SWEEP_GRACE_MS);
        woken++;
      }
      startKey = page.next;
    } while (startKey);
  }
  return { woken, complete: true };
}

/**
 * Whether the sweep parks a lane it found past its time rather than wake it (one pass;
 * each channel's subscriptions read once): while its subscription is active and its
 * breaker open, every lane but the one that gets to probe parks — the probe's lane
 * before the probe's time (its wake-up was lost), or the first lane found once that time
 * has passed with no probe taken (the probe's lane emptied, or its wake-up was lost).
 */
function parkedBySweep(nowMs: number): (filed: FiledLane) => Promise<boolean> {
  const subscriptions = perChannel((channel) => getSubscriptions(channel));
  const probing = new Set<string>();
  return async ({ key, lane }) => {
    const channelKey = `${lane.workspaceId}/${lane.channelId}`;
    const sub = (await subscriptions({ workspaceId: lane.workspaceId, channelId: lane.channelId })).subs[lane.webhookId];
    const probeAt = sub?.isActive ? breakerOpenUntil(sub) : undefined;
    if (probeAt === undefined) return false;
    const breaker = `${channelKey}/${lane.webhookId}`;
    const probes = probeAt > nowMs ? sub!.probeLane === lane.contactKey : !probing.has(breaker);
    if (probes) {
      probing.add(breaker);
      return false;
    }
    await parkFiledLane(key, nowMs, parkedSweepTime(Math.max(probeAt, nowMs)));
    return true;
  };
}
