/**
 * The sandbox chat network's public shapes: its options, what it records, the faults
 * it can inject, its handle, and its two errors. scripts/local/sandbox.ts re-exports them.
 */

/** The header every control call carries the sandbox's control token in (here, not in sandbox-control.ts: the operator CLI sends it without loading the sandbox). */
export const SANDBOX_CONTROL_HEADER = 'x-sandbox-control-token';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Signs webhook deliveries (`X-Hub-Signature-256`). */
  appSecret: string;
  webhookUrl?: string;
  /** Pause before each status webhook. Default 50 ms. */
  statusDelayMs?: number;
  graphVersion?: string;
  /** Pauses between webhook delivery attempts; their count is the number of retries. Default [200, 1000, 3000]. */
  webhookRetryDelaysMs?: number[];
  /** Per webhook delivery attempt. Default 5000 ms. */
  webhookTimeoutMs?: number;
  /** The control API's token (SANDBOX_CONTROL_HEADER); a random one per run by default. */
  controlToken?: string;
}

export interface SandboxPhoneNumber {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  displayPhoneNumber: string;
}

/** A send the sandbox accepted and gave an id. */
export interface SandboxSentMessage {
  phoneNumberId: string;
  body: unknown;
  chatmid: string;
  at: number;
}

/** A message a business number sent or received. */
export interface SandboxMessageRef {
  phoneNumberId: string;
  waId: string;
  direction: 'inbound' | 'outbound';
}

/** An inbound message the business marked read (`status: read`). */
export interface SandboxReadMark {
  phoneNumberId: string;
  chatmid: string;
  typingIndicator: boolean;
  at: number;
}

/** Every Graph API request received, answered or not (faults included). */
export interface SandboxRequestRecord {
  method: string;
  path: string;
  at: number;
}

export type SandboxFaultKind = '5xx' | '429' | 'timeout' | 'meta_error' | 'malformed';

export interface SandboxFault {
  kind: SandboxFaultKind;
  /** How many matching requests it answers. Default 1. */
  count?: number;
  /** The Meta error code in the answer. */
  code?: number;
  /** For 429: the Retry-After header. Default 1. */
  retryAfterSeconds?: number;
  /** Which endpoint it hits; both when absent. */
  path?: 'messages' | 'templates';
}

export interface InboundInput {
  phoneNumberId: string;
  from: string;
  /** A text message; or pass `message`. */
  text?: string;
  /** Any other message type, in the Cloud API shape without from/id/timestamp: `{type: 'image', image: {id, mime_type, caption}}` (scripts/local/inbound-messages.ts builds them). */
  message?: Record<string, unknown>;
  profileName?: string;
}

export interface SandboxHandle {
  /** e.g. `http://127.0.0.1:41234`; the control API lives under it. */
  url: string;
  /** `url` plus the Graph version, what a Cloud API client takes as its base. */
  graphBaseUrl: string;
  /** What every control API call sends in SANDBOX_CONTROL_HEADER. */
  controlToken: string;
  close(): Promise<void>;
  registerPhoneNumber(number: SandboxPhoneNumber): void;
  sent: SandboxSentMessage[];
  reads: SandboxReadMark[];
  requests: SandboxRequestRecord[];
  /** Every later message to `to` fails by webhook with `code`. */
  failNumber(to: string, code: number): void;
  injectFault(fault: SandboxFault): void;
  /** Delivers an inbound message by webhook; rejects with {@link SandboxWebhookError} unless the service answers 200. */
  deliverInbound(input: InboundInput): Promise<{ chatmid: string }>;
  setWebhookUrl(url: string | undefined): void;
  /** Resolves once no webhook delivery is scheduled or in flight. */
  idle(): Promise<void>;
}

/** The service did not acknowledge a delivery; `status` is its last HTTP status, 0 when it was unreachable. */
export class SandboxWebhookError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'SandboxWebhookError';
  }
}

/** A caller's mistake in a control API call or a handle method. */
export class SandboxInputError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}
