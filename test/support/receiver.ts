import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * An integrator's webhook receiver on 127.0.0.1 for tests: it verifies every delivery
 * with the `standardwebhooks` library (against each secret it is given) and answers
 * by a script (a status code, or `hang` to never answer).
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
}

export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  secrets: string[];
  /** Answers to give next, in order; then `fallback`. */
  script: Array<number | 'hang'>;
  fallback: number;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const receiver = { received: [] as ReceivedDelivery[], secrets: [] as string[], script: [] as Array<number | 'hang'>, fallback: 200 } as Receiver;
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
    const answer = receiver.script.shift() ?? receiver.fallback;
    receiver.received.push({
      webhookId: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
      body,
      event: JSON.parse(body),
      verifiedBy,
      answered: answer,
    });
    if (answer === 'hang') return;
    res.writeHead(answer).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
