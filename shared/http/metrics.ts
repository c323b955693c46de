import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Business metrics in CloudWatch Embedded Metric Format (Powertools Metrics):
 * namespace `WorkspaceApi`, dimension `service` = workspace-api. EMF lines are JSON on
 * stdout; in Lambda CloudWatch turns them into metrics, locally `npm start` writes
 * them to DATA_DIR/logs/service.log with the other JSON logs. POWERTOOLS_METRICS_DISABLED=true
 * (the unit tests) turns them off.
 *
 * | metric | dimensions | emitted by |
 * |---|---|---|
 * | Requests | endpoint, statusClass (2xx/4xx/5xx) | every API request (envelope middleware) |
 * | RateLimitRefusals | endpoint, statusClass | every 429 of the rate limiter |
 * | MessagesSent, MessagesFailed | messageType | countMessageSent / countMessageFailed |
 * | AutomationsTriggered | — | countAutomationTriggered |
 */
export const metrics = new Metrics({ namespace: 'WorkspaceApi', serviceName: 'workspace-api' });

/** Records one API request and flushes (one EMF line per request). */
export function recordRequest(endpoint: string, status: number): void {
  metrics.addDimensions({ endpoint, statusClass: `${Math.floor(status / 100)}xx` });
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  if (status === 429) metrics.addMetric('RateLimitRefusals', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
}

/** One metric, published at once: usable from any handler (API, webhook, queue runner). */
function count(name: string, dimensions: Record<string, string> = {}): void {
  const single = metrics.singleMetric();
  for (const [key, value] of Object.entries(dimensions)) single.addDimension(key, value);
  single.addMetric(name, MetricUnit.Count, 1);
}

/** A message accepted by the chat network; `messageType`: template, text, image, video, document, audio. */
export const countMessageSent = (messageType: string) => count('MessagesSent', { messageType });

/** A message that failed: refused by the chat network, or reported failed by its webhook. */
export const countMessageFailed = (messageType: string) => count('MessagesFailed', { messageType });

/** An automation execution started (automations/trigger or an inbound keyword). */
export const countAutomationTriggered = () => count('AutomationsTriggered');
