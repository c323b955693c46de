import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundlePath } from '../../infra/bundles';
import { SOURCE_MAPS_FOLDER } from '../../infra/function-code';
import { API_ROUTES, findRoute, PORTAL_ROUTES, SUPPORT_FUNCTIONS } from '../../shared/routes';
import { eventually } from '../support/eventually';
import { CDK_OUT, readTemplate, resourceName, type CfnTemplate } from '../../scripts/local/template';
import { demoKey, stackDataDirs, startStack } from '../support/local-stack';
import { inTemplateMode, recordedCalls } from '../support/template-mode';

/**
 * The template-driven stack (STACK_SOURCE=template npm start) by its own means: a role
 * without a statement fails the call, the assets are the local build's bundles without
 * their source maps, the gateway's body limits. The end-to-end scenarios run in this mode too, one file each in
 * test/e2e/template-mode/ (test/support/template-mode.ts).
 */
await inTemplateMode('gateway', () =>
  describe('the template-driven stack, by its own means', () => {
    it('refuses a call the role does not grant: the function fails and the call is recorded with the missing statement', async () => {
      // Prepare: the template with ChannelsList's table read statement removed
      const { template } = readTemplate();
      const broken = structuredClone(template) as CfnTemplate;
      const policy = Object.values(broken.Resources).find(
        (resource) =>
          resource.Type === 'AWS::IAM::Policy' && resource.Metadata?.['aws:cdk:path'] === 'WorkspaceApi-dev/ChannelsList/Role/DefaultPolicy/Resource',
      )!;
      const statements = policy.Properties!.PolicyDocument.Statement as { Action: string | string[] }[];
      const reads = findRoute('channels/list')!.tableActions.map((action) => `dynamodb:${action}`);
      policy.Properties!.PolicyDocument.Statement = statements.filter((statement) => ![statement.Action].flat().some((action) => reads.includes(action)));
      const file = join(await mkdtemp(join(tmpdir(), 'wsapi-template-')), 'broken.template.json');
      writeFileSync(file, JSON.stringify(broken));
      const stack = await startStack({ source: 'template', env: { STACK_TEMPLATE_FILE: file } });
      stackDataDirs.delete(stack.dataDir); // its refusals are the point, not a finding
      try {
        const adminKey = demoKey(stack);
        const teamKey = demoKey(stack, 'team');
        // Act
        const response = await fetch(`${stack.baseUrl}/channels/list`, { headers: { 'X-API-Key': adminKey } });
        const other = await fetch(`${stack.baseUrl}/labels/list`, { headers: { 'X-API-Key': teamKey } });
        // Assess
        expect(response.status).toBeGreaterThanOrEqual(500);
        expect(other.status).toBe(200);
        const refused = recordedCalls([stack.dataDir]).filter((call) => !call.allowed);
        expect(refused.length).toBeGreaterThan(0);
        expect(refused.every((call) => call.functionName === 'ChannelsList')).toBe(true);
        expect(refused[0].reason).toMatch(
          /^ChannelsList may not dynamodb:(Query|GetItem|BatchGetItem) on arn:aws:dynamodb:local:000000000000:table\/workspace-api.*lacks the statement \{"Effect":"Allow","Action":"dynamodb:/,
        );
      } finally {
        await stack.stop();
      }
    }, 180_000);

    it('deploys the bundles the local stack runs: each asset holds the built index.mjs and static files, no source map; every map is published beside the assets', () => {
      // Prepare
      const { template } = readTemplate();
      const functions = Object.entries(template.Resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
      const specs = new Map([...API_ROUTES, ...PORTAL_ROUTES, ...Object.values(SUPPORT_FUNCTIONS)].map((fn) => [fn.name, fn]));

      // Act
      const assets = functions.map(([id, fn]) => {
        const name = resourceName(template, id);
        const folder = join(CDK_OUT, String(fn.Metadata!['aws:asset:path']));
        const files = readdirSync(folder).sort();
        const sameBytes = files.filter((file) => readFileSync(join(folder, file)).equals(readFileSync(join(dirname(bundlePath(name)), file))));
        return { name, files, sameBytes };
      });
      const published = [...specs.keys()].filter((name) => existsSync(join(CDK_OUT, SOURCE_MAPS_FOLDER, 'WorkspaceApi-dev', name, 'index.mjs.map')));

      // Assess
      expect(assets.map((asset) => asset.name).sort()).toEqual([...specs.keys()].sort());
      for (const { name, files, sameBytes } of assets) {
        const spec = specs.get(name)!;
        const staticFiles = 'staticFiles' in spec ? Object.keys(spec.staticFiles ?? {}) : [];
        expect(files, name).toEqual(['index.mjs', ...staticFiles].sort());
        expect(sameBytes, name).toEqual(files);
      }
      expect(published).toEqual([...specs.keys()]);
    });

    it('answers bodies past Lambda\u2019s 6 MB and API Gateway\u2019s 10 MB with 413 payload_too_large from the gateway, the function never invoked', async () => {
      // Prepare
      const stack = await startStack({ source: 'template' });
      try {
        const key = demoKey(stack);
        const post = (bytes: number) =>
          fetch(`${stack.baseUrl}/contacts/import`, {
            method: 'POST',
            headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
            body: JSON.stringify({ channelId: stack.demo.workspaces[0].channels[0].id, contacts: [], padding: 'x'.repeat(bytes) }),
          });
        const logged = () => (existsSync(join(stack.dataDir, 'logs', 'service.log')) ? readFileSync(join(stack.dataDir, 'logs', 'service.log'), 'utf8') : '');

        // Act
        const answers = [];
        for (const megabytes of [7, 9.5, 11]) {
          const response = await post(megabytes * 1024 * 1024);
          answers.push({ megabytes, status: response.status, requestId: response.headers.get('x-request-id')!, body: await response.json() });
        }
        // A body above the endpoint's own limit but within Lambda's reaches the function, which logs its request.
        const ownLimit = await post(2 * 1024 * 1024);
        const ownLimitId = ownLimit.headers.get('x-request-id')!;
        await eventually(async () => (logged().includes(ownLimitId) ? true : undefined));

        // Assess
        for (const { megabytes, status, body } of answers) {
          expect(status, `${megabytes} MB`).toBe(413);
          expect(body, `${megabytes} MB`).toMatchObject({ success: false, error: 'payload_too_large', details: { parameter: 'body' } });
        }
        expect(ownLimit.status).toBe(400);
        expect(((await ownLimit.json()) as { error: string }).error).toBe('payload_too_large');
        for (const { requestId } of answers) expect(logged()).not.toContain(requestId);
      } finally {
        await stack.stop();
      }
    }, 240_000);
  }),
);
