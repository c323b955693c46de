import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { sandboxSent, startStack, type RunningStack } from '../support/local-stack';

const CHANNEL = 'ch_demoacmesupport';

describe('automations end to end (npm start, local runner, sandbox chat network)', () => {
  let stack: RunningStack;
  let teamKey: string;

  beforeAll(async () => {
    stack = await startStack();
    teamKey = stack.demo.workspaces[0].keys.find((k) => k.role === 'team')!.apiKey;
  });
  afterAll(async () => stack?.stop());

  const labelsOf = async (phone: string) => {
    const listed = await stack.call('contacts/list', { apiKey: teamKey, params: { search: phone } });
    return (listed.body.data[0]?.labels ?? []).map((label: { name: string }) => label.name) as string[];
  };

  it('triggering "welcome flow" for a new number labels the contact, sends hello_world and counts the execution', async () => {
    // Prepare
    const phone = '14155550142';
    const before = (await stack.call('automations/list', { apiKey: teamKey })).body.data.find((a: { name: string }) => a.name === 'Welcome Flow');
    // Act
    const triggered = await stack.call('automations/trigger', { apiKey: teamKey, params: { phoneNumber: '+1 415 555 0142', automationName: 'welcome flow' } });
    const labels = await eventually(async () => ((await labelsOf(phone)).includes('new') ? labelsOf(phone) : undefined));
    const sent = await eventually(async () => (await sandboxSent(stack.dataDir)).find((s) => s.body.to === phone));
    const after = (await stack.call('automations/list', { apiKey: teamKey, method: 'GET' })).body.data.find((a: { name: string }) => a.name === 'Welcome Flow');
    // Assess
    expect(triggered.status).toBe(200);
    expect(triggered.body.data).toMatchObject({ automationName: 'Welcome Flow', status: 'triggered' });
    expect(labels).toEqual(['new']);
    expect(sent.body).toMatchObject({ type: 'template', template: { name: 'hello_world' } });
    expect(after.executionCount).toBe(before.executionCount + 1);
  });

  it('creates an automation from a steps file with the CLI, and refuses a bad step naming it', async () => {
    // Prepare
    const good = join(stack.dataDir, 'steps.json');
    const bad = join(stack.dataDir, 'bad-steps.json');
    await writeFile(
      good,
      JSON.stringify({
        steps: [
          { type: 'wait', seconds: 3 },
          { type: 'add_labels', labels: ['VIP'] },
        ],
      }),
    );
    await writeFile(
      bad,
      JSON.stringify([
        { type: 'add_labels', labels: ['VIP'] },
        { type: 'wait', days: 90 },
      ]),
    );
    // Act
    const created = await stack.admin('automation', 'create', '--channel', CHANNEL, '--name', 'Follow up', '--steps', good);
    const refused = await stack.admin('automation', 'create', '--channel', CHANNEL, '--name', 'Broken', '--steps', bad);
    const inactive = await stack.admin('automation', 'create', '--channel', CHANNEL, '--name', 'Later', '--status', 'inactive');
    const listed = await stack.call('automations/list', { apiKey: teamKey });
    // Assess
    expect(created.code).toBe(0);
    expect(created.json).toEqual({ id: expect.stringMatching(/^au_/), name: 'Follow up', status: 'active' });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Invalid step 2 (wait)');
    expect(inactive.json.status).toBe('inactive');
    expect(listed.body.data.map((a: { name: string }) => a.name)).toEqual(['Follow up', 'Later', 'Welcome Flow']);
    expect(listed.body.total).toBe(3);
  });

  it('loses nothing when the stack is SIGKILLed during a wait: the step runs after the restart', async () => {
    // Prepare
    const phone = '14155550143';
    const triggered = await stack.call('automations/trigger', { apiKey: teamKey, params: { phoneNumber: phone, automationName: 'Follow up' } });
    expect(triggered.status).toBe(200);
    // Act
    await stack.stop('SIGKILL');
    stack = await startStack({ dataDir: stack.dataDir });
    const labels = await eventually(async () => ((await labelsOf(phone)).includes('VIP') ? labelsOf(phone) : undefined));
    // Assess
    expect(labels).toEqual(['VIP']);
  });
});
