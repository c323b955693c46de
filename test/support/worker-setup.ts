import { inject } from 'vitest';
import { captureWorkerLogs } from './log-capture';

// Set before any test file imports the data layer, which creates its client at import.
process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
process.env.TABLE_NAME = 'workspace-api';
process.env.AWS_REGION = 'local';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// `npm start` and the operator CLI, which the end-to-end tests run as processes: the run's bundles (test/support/script-bundles.ts), or '' (none: through tsx).
process.env.TEST_SCRIPT_BUNDLES = inject('scriptBundles');
// Webhook secrets are sealed under a local key (shared/events/secret-box.ts), kept outside the worktree.
process.env.WEBHOOK_SECRETS_KEY_FILE ??= `${process.env.TMPDIR ?? '/tmp'}/workspace-api-test-webhook-secrets.key`;
// The log audit needs the request logs: they go to a capture file, not the report.
const logCaptureDir = inject('logCaptureDir');
if (logCaptureDir) {
  process.env.TEST_LOG_CAPTURE_DIR = logCaptureDir;
  process.env.POWERTOOLS_LOG_LEVEL ??= 'INFO';
  captureWorkerLogs(logCaptureDir);
}
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

// Media go to files, as on the local stack (shared/media/media-store.ts), each worker under its own folder.
process.env.MEDIA_DIR ??= (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/wsapi-media-`);
// Links chat/media/get signs here are opened in-process (openLocalLink), never through a gateway.
process.env.MEDIA_URL_BASE ??= 'http://127.0.0.1:9';
process.env.MEDIA_SIGNING_KEY ??= 'test-media-signing-key';

// Handlers run from source here, as on the local stack: automation steps go to the table queue.
// Loaded on first use, not here: a test file may point the data layer at a store of its own
// (usePrivateStore) before anything imports the data client, which reads the endpoint at import.
const { provideStepQueue } = await import('../../shared/queue/step-queue');
provideStepQueue({ enqueue: async (message) => (await import('../../scripts/local/table-step-queue')).tableStepQueue.enqueue(message) });
const { provideEventQueue } = await import('../../shared/queue/event-queue');
provideEventQueue({ enqueue: async (message) => (await import('../../scripts/local/table-step-queue')).tableEventQueue.enqueue(message) });
