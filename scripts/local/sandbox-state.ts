import { randomBytes } from 'node:crypto';
import type { SandboxMedia } from './sandbox-media';
import { canonicalWaId } from './sandbox-validate';
import { digitsOf } from './sandbox-http';
import {
  SandboxInputError,
  type SandboxFault,
  type SandboxOptions,
  type SandboxPhoneNumber,
  type SandboxMessageRef,
  type SandboxReadMark,
  type SandboxRequestRecord,
  type SandboxSentMessage,
} from './sandbox-types';

/**
 * What one sandbox keeps while it runs: its settings, the registered business numbers,
 * the session windows customers opened, the failures and faults tests asked for, what
 * it received and sent, and the webhook deliveries still in flight. Every other sandbox
 * module works on this one object; only scripts/local/sandbox.ts creates it.
 */

export interface SandboxSettings {
  host: string;
  appSecret: string;
  statusDelayMs: number;
  graphVersion: string;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  controlToken: string;
}

export interface PendingFault extends SandboxFault {
  remaining: number;
}

export interface SandboxState {
  readonly settings: SandboxSettings;
  /** `http://host:port`, set once the server listens. */
  url: string;
  webhookUrl: string | undefined;
  readonly numbers: Map<string, SandboxPhoneNumber>;
  /** When each customer last wrote to each business number: opens the 24-hour window. */
  readonly lastInboundAt: Map<string, number>;
  readonly failingNumbers: Map<string, number>;
  readonly faults: PendingFault[];
  readonly sent: SandboxSentMessage[];
  /** Every message each business number sent or received, by chatmid: what a quote, a reaction or a read mark may name. */
  readonly messages: Map<string, SandboxMessageRef>;
  /** Inbound messages the business marked read, in order. */
  readonly reads: SandboxReadMark[];
  /** Media by id: what customers sent (control API) and what businesses uploaded. */
  readonly media: Map<string, SandboxMedia>;
  readonly requests: SandboxRequestRecord[];
  /** Aborted by close(): pending deliveries stop. */
  readonly shutdown: AbortController;
  /** Webhook deliveries scheduled or in flight, for idle(). */
  pending: number;
  idleWaiters: Array<() => void>;
}

export function createSandboxState(options: SandboxOptions): SandboxState {
  return {
    settings: {
      host: options.host ?? '127.0.0.1',
      appSecret: options.appSecret,
      statusDelayMs: options.statusDelayMs ?? 50,
      graphVersion: options.graphVersion ?? 'v21.0',
      webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? [200, 1000, 3000],
      webhookTimeoutMs: options.webhookTimeoutMs ?? 5000,
      controlToken: options.controlToken ?? randomBytes(24).toString('base64url'),
    },
    url: '',
    webhookUrl: options.webhookUrl,
    numbers: new Map(),
    lastInboundAt: new Map(),
    failingNumbers: new Map(),
    faults: [],
    sent: [],
    messages: new Map(),
    reads: [],
    media: new Map(),
    requests: [],
    shutdown: new AbortController(),
    pending: 0,
    idleWaiters: [],
  };
}

/** The session-window key of a customer and a business number. */
export function windowKey(phoneNumberId: string, waId: string): string {
  return `${phoneNumberId}:${waId}`;
}

/** Registers or replaces a business number; the local stack re-registers its channels at every start. */
export function registerPhoneNumber(state: SandboxState, number: SandboxPhoneNumber): void {
  state.numbers.set(number.phoneNumberId, { ...number });
}

export function failNumber(state: SandboxState, to: string, code: number): void {
  if (!Number.isInteger(code) || code <= 0) throw new SandboxInputError('code must be a positive integer Meta error code.');
  state.failingNumbers.set(canonicalWaId(digitsOf(to, 'to')), code);
}

export function injectFault(state: SandboxState, fault: SandboxFault): void {
  const kinds: readonly string[] = ['5xx', '429', 'timeout', 'meta_error', 'malformed'];
  if (!kinds.includes(fault.kind)) throw new SandboxInputError(`kind must be one of ${kinds.join(', ')}.`);
  if (fault.path !== undefined && fault.path !== 'messages' && fault.path !== 'templates') {
    throw new SandboxInputError("path must be 'messages' or 'templates'.");
  }
  const count = fault.count ?? 1;
  if (!Number.isInteger(count) || count < 1) throw new SandboxInputError('count must be a positive integer.');
  state.faults.push({ ...fault, remaining: count });
}

/** The first injected fault for the route, counted down (and dropped when used up). */
export function takeFault(state: SandboxState, route: 'messages' | 'templates'): PendingFault | undefined {
  const { faults } = state;
  const index = faults.findIndex((fault) => fault.path === undefined || fault.path === route);
  if (index < 0) return undefined;
  const fault = faults[index];
  fault.remaining -= 1;
  if (fault.remaining <= 0) faults.splice(index, 1);
  return fault;
}

/** Counts a delivery as pending until it settles, for {@link idle}. */
export function track<T>(state: SandboxState, work: Promise<T>): Promise<T> {
  state.pending += 1;
  const settled = work.finally(() => {
    state.pending -= 1;
    if (state.pending > 0) return;
    const waiters = state.idleWaiters;
    state.idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  });
  // Deliveries cut short by close() must not surface as unhandled rejections.
  settled.catch(() => undefined);
  return settled;
}

/** Resolves once no webhook delivery is scheduled or in flight. */
export function idle(state: SandboxState): Promise<void> {
  return state.pending === 0 ? Promise.resolve() : new Promise((resolve) => state.idleWaiters.push(resolve));
}
