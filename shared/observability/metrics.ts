import { clock } from '../clock';
/**
 * Business metrics in CloudWatch Embedded Metric Format: one JSON line on stdout per
 * data point, which CloudWatch turns into metrics in namespace `WorkspaceApi` with the
 * dimensions `service` = workspace-api and `stage` (env STAGE, set on every function by
 * infra/functions.ts; `local` when unset), so two stages in one account never mix their
 * counts; locally `npm start` writes them to
 * DATA_DIR/logs/service.log with the other JSON logs. POWERTOOLS_METRICS_DISABLED=true
 * turns them off. Written by hand rather than with Powertools Metrics for the reason
 * the logger is (shared/observability/logger.ts): the format is a few fields, the library's
 * import cost is paid by every function at init.
 *
 * | metric | dimensions (after service, stage) | emitted by |
 * |---|---|---|
 * | Requests | endpoint, statusClass (2xx/4xx/5xx) | every API request (envelope middleware) |
 * | RateLimitRefusals | endpoint, statusClass | every 429 of the rate limiter |
 * | MessagesSent, MessagesFailed | messageType | countMessageSent / countMessageFailed |
 * | AutomationsTriggered | — | countAutomationTriggered |
 * | WebhookStatusMismatches | — | countWebhookStatusMismatch: a signed status naming a message of another phone number (ignored) |
 * | EventOutboxOldestDueAge (ms) | — | every event re-drive pass: the oldest item it found due with a tenant (alarm `EventOutboxAge`) |
 */

import { config } from '../config';

export const NAMESPACE = 'WorkspaceApi';
export const SERVICE = 'workspace-api';

/** Writes one EMF line: every metric in `unit` (a Count unless said), all under one dimension set. */
function publish(counts: Record<string, number>, dimensions: Record<string, string> = {}, unit: 'Count' | 'Milliseconds' = 'Count'): void {
  if (config.metricsDisabled()) return;
  const allDimensions = { service: SERVICE, stage: config.stage(), ...dimensions };
  const metrics = Object.keys(counts).map((name) => ({ Name: name, Unit: unit }));
  const line = {
    _aws: { Timestamp: clock.realNow(), CloudWatchMetrics: [{ Namespace: NAMESPACE, Dimensions: [Object.keys(allDimensions)], Metrics: metrics }] },
    ...allDimensions,
    ...counts,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** Records one API request (one EMF line per request). */
export function recordRequest(endpoint: string, status: number): void {
  const counts: Record<string, number> = { Requests: 1 };
  if (status === 429) counts.RateLimitRefusals = 1;
  publish(counts, { endpoint, statusClass: `${Math.floor(status / 100)}xx` });
}

/** A message accepted by the chat network; `messageType`: template, text, image, video, document, audio. */
export const countMessageSent = (messageType: string) => publish({ MessagesSent: 1 }, { messageType });

/** A message that failed: refused by the chat network, or reported failed by its webhook. */
export const countMessageFailed = (messageType: string) => publish({ MessagesFailed: 1 }, { messageType });

/** An automation execution started (automations/trigger or an inbound keyword). */
export const countAutomationTriggered = () => publish({ AutomationsTriggered: 1 });

/** An event delivery attempt to an integrator's webhook: `outcome` succeeded, retrying, failed (the last retry) or gone (410). */
/** How a webhook delivery attempt ended, as the WebhookDeliveries metric counts it. */
export type WebhookDeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'gone';

export const countWebhookDelivery = (outcome: WebhookDeliveryOutcome) =>
  publish(outcome === 'succeeded' ? { WebhookDeliveries: 1 } : { WebhookDeliveries: 1, WebhookDeliveryFailures: 1 }, { outcome });

/** A signed status webhook that named a message of another phone number (another channel or tenant): ignored. */
export const countWebhookStatusMismatch = () => publish({ WebhookStatusMismatches: 1 });

/** The age of the oldest item an event re-drive pass found due with a tenant (0: none): a hand-off that keeps failing grows it. */
export const recordEventOutboxAge = (ageMs: number) => publish({ EventOutboxOldestDueAge: ageMs }, {}, 'Milliseconds');
/** A send the chat network accepted for a wa_id that turned out to be opted out (a form of the number no check knew): recorded, so the next send is refused. */
export const countSendToOptedOut = () => publish({ SendsToOptedOut: 1 });
