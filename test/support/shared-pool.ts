/**
 * The test files that run in one module graph per worker (vitest.config.ts, project
 * `shared`: worker threads, `isolate: false`), so that each worker loads the data layer,
 * the AWS SDK, aws-cdk-lib and the compiler once, not once per file. Every other file runs
 * isolated (project `isolated`: a fresh process per file), as all did before.
 *
 * A file here shares its worker's modules with the files that ran before it there, so it
 * must leave nothing behind that another file could see: no environment variable set,
 * no module mocked or spied on, no SDK client mocked or patched, no service clock frozen
 * or shifted, no queue provided, no private store, no global assigned. Neither may any
 * test module it imports (test/support/chat.ts sets the chat network's variables, so the
 * files that use it stay isolated). test/architecture/shared-pool.test.ts checks each
 * file here and the test modules it imports against STATE_LEFT_BEHIND; a file that fails
 * it belongs in the isolated project. Files whose cost is the processes they start (a local
 * stack, a whole-program type check) gain nothing here and stay out; a file that starts only
 * a short one (type-check.test.ts's two-file check) saves its own fork here.
 */
export const SHARED_POOL_FILES = [
  'test/architecture/bundle-clients.test.ts',
  'test/architecture/bundle-table-actions.test.ts',
  'test/architecture/bundle-target.test.ts',
  'test/architecture/call-path.test.ts',
  'test/architecture/data-seam.test.ts',
  'test/architecture/dependencies.test.ts',
  'test/architecture/endpoint-recipe.test.ts',
  'test/architecture/entities.test.ts',
  'test/architecture/function-length.test.ts',
  'test/architecture/import-cycles.test.ts',
  'test/architecture/layers.test.ts',
  'test/architecture/local-only-exports.test.ts',
  'test/architecture/names.test.ts',
  'test/architecture/self-contained.test.ts',
  'test/architecture/shared-pool.test.ts',
  'test/architecture/table-docs.test.ts',
  'test/architecture/type-check.test.ts',
  'test/bench/cost-model.test.ts',
  'test/bench/derived.test.ts',
  'test/chat/graph-client.test.ts',
  'test/chat/inbound-content.test.ts',
  'test/chat/payloads.test.ts',
  'test/chat/sandbox-media.test.ts',
  'test/chat/sandbox-rich.test.ts',
  'test/chat/signature.test.ts',
  'test/chat/to-caller-error.test.ts',
  'test/chat/webhook-payload.test.ts',
  'test/client/compile.test.ts',
  'test/events/batch-order.test.ts',
  'test/events/lanes.test.ts',
  'test/events/post-webhook.test.ts',
  'test/events/read-after-writes.test.ts',
  'test/events/retry-schedule.test.ts',
  'test/events/signing.test.ts',
  'test/events/url-policy.test.ts',
  'test/events/webhook-roles.test.ts',
  'test/functions/channels-list.test.ts',
  'test/functions/contacts-complete-pages.test.ts',
  'test/functions/contacts-deep-pages.test.ts',
  'test/functions/contacts.test.ts',
  'test/functions/custom-fields.test.ts',
  'test/functions/labels.test.ts',
  'test/functions/object-internal-names.test.ts',
  'test/infra/assembly.test.ts',
  'test/infra/generated-docs.test.ts',
  'test/infra/production-readiness.test.ts',
  'test/infra/stack.test.ts',
  'test/infra/user-pool.test.ts',
  'test/openapi/contract.test.ts',
  'test/openapi/document.test.ts',
  'test/openapi/serving.test.ts',
  'test/scripts/build-cache.test.ts',
  'test/scripts/contacts-import-docs.test.ts',
  'test/scripts/data-dir.test.ts',
  'test/scripts/decode-stack-trace.test.ts',
  'test/scripts/local-gateway-template.test.ts',
  'test/scripts/local-iam.test.ts',
  'test/scripts/local-store.test.ts',
  'test/scripts/phone-metadata.test.ts',
  'test/scripts/portal-gateway.test.ts',
  'test/scripts/portal-users.test.ts',
  'test/shared/contact-index-entries.test.ts',
  'test/shared/contact-index-stream.test.ts',
  'test/shared/definition-sizes.test.ts',
  'test/shared/entity.test.ts',
  'test/shared/event-outbox.test.ts',
  'test/shared/item-check.test.ts',
  'test/shared/json-error-position.test.ts',
  'test/shared/keys.test.ts',
  'test/shared/ttl-cache.test.ts',
];

/** What a file may not do, nor a test module it imports, to run in the shared pool. */
export const STATE_LEFT_BEHIND: readonly { what: string; pattern: RegExp }[] = [
  {
    what: 'a module mocked, stubbed or spied on, or fake timers',
    pattern: /\bvi\.(mock|doMock|unmock|stubEnv|stubGlobal|spyOn|useFakeTimers|setSystemTime)\b/,
  },
  {
    what: 'an environment variable set or removed',
    pattern: /process\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)|delete process\.env|Object\.assign\(process\.env/,
  },
  { what: 'an SDK client mocked or patched', pattern: /\bmockClient\(|middlewareStack\.add\(|\.send\s*=(?!=)|prototype\.\w+\s*=(?!=)/ },
  { what: 'the service clock frozen or shifted', pattern: /\bclock\.(freeze|shift|reset)\(/ },
  { what: 'a queue provided', pattern: /\bprovide\w*Queue\(/ },
  { what: 'a private store', pattern: /\busePrivateStore\(/ },
  { what: 'a global assigned, or the working directory changed', pattern: /globalThis(\.\w+|\[[^\]]+\])\s*=(?!=)|process\.chdir\(/ },
];
