import { createHash } from 'node:crypto';
import { getWorkspace } from '../../shared/data/tenants';
import { upsertCustomField, upsertLabel } from '../../shared/data/definitions';
import { ensureContact } from '../../shared/data/contacts';
import { automationCreate, channelAssign, channelCreate, keyCreate, workspaceCreate } from '../admin/commands';

/**
 * The demo seed: two workspaces with keys and channels, written on first start.
 * Keys, ids and tokens are derived from fixed names, so the demo keys are the same
 * on every machine and every start (they are demo keys: never use them elsewhere).
 */

const derived = (label: string, length = 43) => createHash('sha256').update(`workspace-api-demo:${label}`).digest('base64url').slice(0, length);

interface DemoChannel {
  id: string;
  name: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
  wabaId: string;
  accessToken: string;
}

interface DemoKey {
  role: 'admin' | 'team';
  userId: string;
  keyId: string;
  apiKey: string;
}

export interface DemoWorkspace {
  id: string;
  name: string;
  keys: DemoKey[];
  channels: DemoChannel[];
}

const channel = (slug: string, name: string, n: number): DemoChannel => ({
  id: `ch_demo${slug}`,
  name,
  phoneNumberId: `10000000000000${n}`,
  displayPhoneNumber: `+1 555 010 00${n.toString().padStart(2, '0')}`,
  wabaId: `20000000000000${n}`,
  accessToken: `EAAdemo${derived(`token-${slug}`, 40)}`,
});

const key = (slug: string, role: 'admin' | 'team'): Omit<DemoKey, 'userId'> => ({ role, keyId: `key_demo${slug}`, apiKey: `wsk_${derived(`key-${slug}`)}` });

/** The demo's fixed shape (user ids are filled in when the seed creates the users). */
export const DEMO = {
  acme: {
    id: 'ws_demoacme',
    name: 'Acme Demo',
    support: channel('acmesupport', 'Acme Support', 1),
    sales: channel('acmesales', 'Acme Sales', 2),
    admin: key('acmeadmin', 'admin'),
    team: key('acmeteam', 'team'),
  },
  globex: { id: 'ws_demoglobex', name: 'Globex Demo', main: channel('globexmain', 'Globex Main', 3), admin: key('globexadmin', 'admin') },
};

/** Seeds the demo when its first workspace is missing; returns whether it seeded. */
export async function seedDemo(): Promise<boolean> {
  if (await getWorkspace(DEMO.acme.id)) return false;
  const acme = DEMO.acme;
  await workspaceCreate(acme.name, acme.id);
  const acmeAdmin = await keyCreate({ workspaceId: acme.id, role: 'admin', name: 'demo admin', apiKey: acme.admin.apiKey, keyId: acme.admin.keyId });
  const acmeTeam = await keyCreate({ workspaceId: acme.id, role: 'team', name: 'demo team', apiKey: acme.team.apiKey, keyId: acme.team.keyId });
  for (const ch of [acme.support, acme.sales]) await channelCreate({ ...ch, workspaceId: acme.id, ownerUserId: acmeAdmin.userId });
  await channelAssign(acme.support.id, acmeTeam.userId);

  const globex = DEMO.globex;
  await workspaceCreate(globex.name, globex.id);
  const globexAdmin = await keyCreate({ workspaceId: globex.id, role: 'admin', name: 'demo admin', apiKey: globex.admin.apiKey, keyId: globex.admin.keyId });
  await channelCreate({ ...globex.main, workspaceId: globex.id, ownerUserId: globexAdmin.userId });

  const support = acme.support.id;
  await upsertLabel({ workspaceId: acme.id, channelId: support }, 'new', { color: '#2E7D32', displayOrder: 1, description: 'New lead' });
  await upsertLabel({ workspaceId: acme.id, channelId: support }, 'VIP', { color: '#F9A825', displayOrder: 2, description: 'Important customer' });
  await upsertCustomField({ workspaceId: acme.id, channelId: support }, 'city', { type: 'text' });
  await upsertCustomField({ workspaceId: acme.id, channelId: support }, 'tier', { type: 'dropdown', options: ['bronze', 'silver', 'gold'] });
  await ensureContact({ workspaceId: acme.id, channelId: support }, '14155550100', {
    name: 'Ann Example',
    email: 'ann@example.com',
    customFields: { city: 'San Francisco' },
  });
  // Every demo channel gets the "Welcome Flow": label the contact "new", send hello_world.
  for (const [workspaceId, channelId] of [
    [acme.id, acme.sales.id],
    [globex.id, globex.main.id],
  ]) {
    await upsertLabel({ workspaceId, channelId }, 'new', { color: '#2E7D32', displayOrder: 1, description: 'New lead' });
  }
  for (const channelId of [acme.support.id, acme.sales.id, globex.main.id]) {
    await automationCreate(channelId, 'Welcome Flow', 'active', [
      { type: 'add_labels', labels: ['new'] },
      { type: 'send_template', templateName: 'hello_world' },
    ]);
  }
  return true;
}

/** The demo as demo.json lists it, with the user ids read back from the keys. */
export async function demoWorkspaces(userIdOfKey: (keyId: string) => Promise<string>): Promise<DemoWorkspace[]> {
  const withUser = async (k: Omit<DemoKey, 'userId'>) => ({ ...k, userId: await userIdOfKey(k.keyId) });
  return [
    {
      id: DEMO.acme.id,
      name: DEMO.acme.name,
      keys: [await withUser(DEMO.acme.admin), await withUser(DEMO.acme.team)],
      channels: [DEMO.acme.support, DEMO.acme.sales],
    },
    { id: DEMO.globex.id, name: DEMO.globex.name, keys: [await withUser(DEMO.globex.admin)], channels: [DEMO.globex.main] },
  ];
}
