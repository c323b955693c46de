import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { BENCH_TENANT } from './fixtures';

/**
 * The services besides DynamoDB that the chat sends and automations/trigger call,
 * answered in-process for the warm-CPU benchmark so only our code is timed:
 *
 * - Secrets Manager (the channel's access token; shared/chat/access-tokens.ts caches
 *   it per container, as in Lambda),
 * - SQS (automations/trigger hands step 1 to the queue; shared/queue/step-queue.ts
 *   sends there when AUTOMATION_QUEUE_URL is set, as it is in AWS and in the child's
 *   environment, bench/warm-cpu.ts),
 * - the chat network: global fetch, which shared/chat/graph-client.ts calls, answers
 *   a send with the Graph API's success shape (the one scripts/local/sandbox-graph.ts answers).
 */

const ACCESS_TOKEN = `EAAB${'x'.repeat(180)}`;

export interface CannedServices {
  /** Calls made so far to each service (for checking that a floor makes the same calls as its stack). */
  counts(): { secrets: number; sqs: number; graph: number };
  resetHistory(): void;
}

/** Installs the canned answers for the rest of the process. `waId` is the canonical id the chat network reports for the recipient. */
export function installCannedServices(options: { waId: string }): CannedServices {
  const secrets = mockClient(SecretsManagerClient);
  secrets.on(GetSecretValueCommand, { SecretId: BENCH_TENANT.accessTokenSecret }).resolves({ SecretString: ACCESS_TOKEN });
  const sqs = mockClient(SQSClient);
  sqs.on(SendMessageCommand).resolves({ MessageId: '00000000-0000-4000-8000-000000000000' });

  let graph = 0;
  const answer = JSON.stringify({
    messaging_product: 'whatsapp',
    contacts: [{ input: `+${options.waId}`, wa_id: options.waId }],
    messages: [{ id: 'wamid.HBgLMTQxNTAwMDAwMTQVAgARGBJCRU5DSFNFTkQA', message_status: 'accepted' }],
  });
  // What graph-client.ts reads of a fetch Response (status, headers, text()); a plain object, since
  // building a real Response and reading its body stream costs ~50 µs that is not our code.
  const headers = new Headers({ 'Content-Type': 'application/json' });
  const refusal = JSON.stringify({ error: { code: 100, message: 'no canned answer for this request' } });
  globalThis.fetch = (async (url: string | URL | Request) => {
    graph++;
    const body = String(url).endsWith('/messages') ? answer : refusal;
    return { ok: body === answer, status: body === answer ? 200 : 400, headers, text: async () => body } as unknown as Response;
  }) as typeof fetch;

  return {
    counts: () => ({ secrets: secrets.commandCalls(GetSecretValueCommand).length, sqs: sqs.commandCalls(SendMessageCommand).length, graph }),
    resetHistory: () => {
      secrets.resetHistory();
      sqs.resetHistory();
      graph = 0;
    },
  };
}
