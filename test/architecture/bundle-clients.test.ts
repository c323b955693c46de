import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bundlePath } from '../../infra/bundles';
import { API_ROUTES, PORTAL_ROUTES, SUPPORT_FUNCTIONS, WEBHOOK_PATH } from '../../shared/routes';

/**
 * A function's route row declares the AWS services it calls besides the table; CDK grants
 * exactly those and sets their environment (the queue URLs, the key id) from the same flags
 * (infra/functions.ts). A bundle that carries a client its row does not declare would fail
 * in AWS (no URL, no grant) while working locally, where the queues are provided in-process;
 * a declared client the bundle lacks is a grant nobody uses. Each client is recognised in
 * the built bundle (built by the global setup, as CDK builds it) by the service's wire name,
 * which minification keeps.
 */
const SERVICES = [
  { client: 'SQS', marker: 'AmazonSQS', declares: (row: Record<string, unknown>) => Boolean(row.sendsToQueue || row.sendsToEventQueue) },
  // The public WhatsApp webhook reads its own secret (app secret, verify token), never a channel's token; the pagers the
  // cursor-signing key; the functions that hash numbers the suppression key.
  {
    client: 'Secrets Manager',
    marker: 'secretsmanager.',
    declares: (row: Record<string, unknown>) => Boolean(row.readsSecrets || row.signsCursors || row.hashesNumbers || row.publicPath === WEBHOOK_PATH),
  },
  // Not a client but the code that hashes numbers under the suppression key (shared/data/number-hash.ts), by its error text:
  // CDK gives the key's secret (SUPPRESSION_KEY_SECRET_ARN and GetSecretValue on it) to the rows with `hashesNumbers` only.
  {
    client: 'number hasher',
    marker: 'Numbers cannot be hashed',
    declares: (row: Record<string, unknown>) => Boolean(row.hashesNumbers),
  },
  // Not a client but the code that reads a channel's access token (shared/chat/access-tokens.ts accessTokenFor), by its error text.
  {
    client: 'channel access token reader',
    marker: 'has no chat-network access token configured',
    declares: (row: Record<string, unknown>) => Boolean(row.readsSecrets),
  },
  { client: 'KMS', marker: 'TrentService', declares: (row: Record<string, unknown>) => Boolean(row.sealsWebhookSecrets || row.opensWebhookSecrets) },
];

const FUNCTIONS: Array<{ name: string; row: Record<string, unknown> }> = [
  ...API_ROUTES.map((route) => ({ name: route.name, row: { ...route } })),
  ...PORTAL_ROUTES.map((route) => ({ name: route.name, row: { ...route } })),
  ...Object.values(SUPPORT_FUNCTIONS).map((fn) => ({ name: fn.name, row: { ...fn } })),
];

describe('SDK clients in the bundles', () => {
  it.each(SERVICES)('a bundle carries the $client client exactly when its route row declares it', async ({ marker, declares }) => {
    // Prepare
    const bundles = await Promise.all(FUNCTIONS.map(async ({ name, row }) => ({ name, row, code: await readFile(bundlePath(name), 'utf8') })));
    // Act
    const carrying = bundles.filter((bundle) => bundle.code.includes(marker)).map((bundle) => bundle.name);
    const declaring = bundles.filter((bundle) => declares(bundle.row)).map((bundle) => bundle.name);
    // Assess
    expect(carrying.length).toBeGreaterThan(0);
    expect(carrying).toEqual(declaring);
  });
});
