import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPES } from '../../shared/events/event-types';
import { eventViolations } from './contract';

/**
 * An integrator's webhook receiver on 127.0.0.1 for tests: it verifies every delivery
 * with the `standardwebhooks` library (against each secret it is given) and answers
 * by a script (a status code, `hang` to never answer, or `hold` to answer 200 once the
 * test calls `release()`). Every body is validated against
 * the published event schemas (docs/openapi.json `webhooks`, test/support/contract.ts):
 * a delivery that disagrees is recorded in `violations`, and `close()` (every test file's
 * clean-up) throws them, so a builder that drifts from its schema fails the suite.
 */

export interface ReceivedDelivery {
  webhookId: string;
  timestamp: string;
  signature: string;
  body: string;
  event: { id: string; type: string; timestamp: string; data: Record<string, any> };
  /** The secrets `new Webhook(secret).verify(body, headers)` accepted. */
  verifiedBy: string[];
  answered: number | 'hang';
  /** What disagrees with the event's published schema (empty when it conforms). */
  violations: string[];
}

export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  secrets: string[];
  /** Answers to give next, in order; then `fallback`. */
  script: Array<number | 'hang' | 'hold'>;
  fallback: number;
  /** Requests it has not answered (`hang`) whose connection is still open: attempts still waiting for it. */
  hanging: number;
  /** Answers every held delivery (200). */
  release(): void;
  /** Every delivery's disagreements with the published event schemas. */
  violations: string[];
  /** Stops the server; throws when any delivery disagreed with its published schema. */
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const receiver = {
    received: [] as ReceivedDelivery[],
    violations: [] as string[],
    secrets: [] as string[],
    script: [] as Array<number | 'hang' | 'hold'>,
    fallback: 200,
    hanging: 0,
  } as Receiver;
  const held: Array<() => void> = [];
  receiver.release = () => held.splice(0).forEach((answer) => answer());
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    const verifiedBy = receiver.secrets.filter((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    const scripted = receiver.script.shift() ?? receiver.fallback;
    const answer = scripted === 'hold' ? 200 : scripted;
    const event = JSON.parse(body);
    const violations: string[] = [];
    receiver.received.push({
      webhookId: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
      body,
      event,
      verifiedBy,
      answered: answer,
      violations,
    });
    if (scripted === 'hold') held.push(() => res.writeHead(200).end('ok'));
    else if (answer !== 'hang') res.writeHead(answer).end('ok');
    else {
      receiver.hanging++;
      res.on('close', () => receiver.hanging--);
    }
    // Checked after answering, so the check never makes an attempt late.
    violations.push(...eventViolations(event));
    receiver.violations.push(...violations);
  });
  // Compiles each type's validator now, not during the first delivery.
  for (const type of EVENT_TYPES) eventViolations({ type });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (receiver.violations.length)
      throw new Error(`Deliveries disagree with the published event schemas (docs/openapi.json webhooks):\n  ${receiver.violations.join('\n  ')}`);
  };
  return receiver;
}
