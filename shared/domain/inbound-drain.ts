import type { ChatWebhookEvent } from '../chat/webhook-payload';
import { clock } from '../clock';
import { deleteInboundBatch, getInboundBatch, INBOUND_PARTITIONS, putInboundBatches, waitingInboundBatches } from '../data/inbound-batches';
import { newId } from '../ids';
import { processWebhookEvents } from './webhooks';

/**
 * Large chat-network webhooks, processed after they are acknowledged. The webhook hands
 * off a delivery of more than {@link INLINE_EVENTS} events as parts in the table (one
 * BatchWriteItem for ≈ 25 parts, durable before it answers 200: shared/data/inbound-batches.ts)
 * and the inbound drain (InboundDrain every minute in AWS, the local runner loop every
 * 30 s) processes them. Processing is idempotent (shared/domain/webhooks.ts: forward-only
 * conditional writes), and a part is deleted only after its events are processed, so a
 * crash, a second drain or a redelivery by the chat network changes nothing twice.
 */

/** Events a delivery may carry and still be processed within the request (the chat network's common case: one to a few). */
export const INLINE_EVENTS = 10;

/** Events a part holds at most. */
export const PART_EVENTS = 25;

/** A part's JSON at most, in bytes: a DynamoDB item holds 400 KB (one event is at most ≈ 70 KB: webhook-payload.ts limits). */
const PART_BYTES = 300_000;

/** Parts read from one shard's index at a time. */
const PAGE = 25;

/** Time kept back from the invocation's deadline: no part starts with less left (a part of 25 new contacts' messages takes a few seconds). */
export const DRAIN_DEADLINE_MARGIN_MS = 15_000;

/** Hands the events off as parts of at most {@link PART_EVENTS} events and {@link PART_BYTES} bytes; returns the number of parts. */
export async function handOffInbound(events: ChatWebhookEvent[]): Promise<number> {
  const parts: Array<{ id: string; events: string }> = [];
  let current: string[] = [];
  let bytes = 0;
  const close = () => {
    if (current.length > 0) parts.push({ id: newId('inb'), events: `[${current.join(',')}]` });
    current = [];
    bytes = 0;
  };
  for (const event of events) {
    const json = JSON.stringify(event);
    const size = Buffer.byteLength(json);
    if (current.length === PART_EVENTS || bytes + size > PART_BYTES) close();
    current.push(json);
    bytes += size + 1;
  }
  close();
  await putInboundBatches(parts, clock.now());
  return parts.length;
}

export interface DrainResult {
  /** Parts processed and deleted. */
  parts: number;
  /** Their events. */
  events: number;
  /** Whether every shard was drained (false: the deadline came first; the next run goes on). */
  done: boolean;
}

/**
 * Processes the waiting parts, all shards at once, each oldest first until it is empty
 * or the invocation's deadline is near (`remainingMs`; unbounded when not given). A
 * part another drain finished meanwhile is skipped; a part whose processing throws stays
 * for the next run (the error is raised after the other shards have finished).
 */
export async function drainInbound(remainingMs: () => number = () => Infinity): Promise<DrainResult> {
  const shards = await Promise.allSettled(INBOUND_PARTITIONS.map((shard) => drainShard(shard, remainingMs)));
  const failed = shards.find((shard): shard is PromiseRejectedResult => shard.status === 'rejected');
  if (failed) throw new Error('The inbound drain failed; the part stays for the next run', { cause: failed.reason });
  const drained = shards.map((shard) => (shard as PromiseFulfilledResult<DrainResult>).value);
  return {
    parts: drained.reduce((sum, shard) => sum + shard.parts, 0),
    events: drained.reduce((sum, shard) => sum + shard.events, 0),
    done: drained.every((shard) => shard.done),
  };
}

async function drainShard(shard: string, remainingMs: () => number): Promise<DrainResult> {
  const result = { parts: 0, events: 0, done: false };
  for (;;) {
    const waiting = await waitingInboundBatches(shard, PAGE);
    const before = result.parts;
    for (const key of waiting) {
      if (remainingMs() < DRAIN_DEADLINE_MARGIN_MS) return result;
      const json = await getInboundBatch(key);
      if (json === undefined) continue;
      const events = JSON.parse(json) as ChatWebhookEvent[];
      await processWebhookEvents(events);
      await deleteInboundBatch(key);
      result.parts += 1;
      result.events += events.length;
    }
    // A full page of parts already finished is the index catching up: reading it again would only spin.
    if (waiting.length < PAGE || result.parts === before) return { ...result, done: true };
  }
}
