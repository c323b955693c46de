import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../support/invariants';
import { expectRerunComplete, useImportStack } from './import-stack';

/**
 * contacts/import against the local stack (`npm start`'s program): SIGKILL of the
 * stack in the middle of imports, then the same imports run again, leave every
 * contact exactly once, indexed and counted, with no recount. (The operator CLI's
 * imports and a SIGKILL of the CLI: import-crash-cli.e2e.test.ts, a file of its own so
 * that the two run in parallel.)
 */

const run = useImportStack();

/**
 * contacts/import as a client does it: a 503 is retried after its Retry-After, and a call
 * that answers with `pending` rows (it ran out of time: on a loaded machine the restarted
 * stack is slow) is sent again until none is pending, as the API documents; both are
 * safe because what was applied is not applied twice. The last answer is returned.
 */
async function importAsAClientWould(contacts: Array<{ phoneNumber: string; name: string }>) {
  for (let attempt = 1; ; attempt++) {
    const response = await run.stack.call('contacts/import', { apiKey: run.adminKey, params: { channelId: run.channelId, contacts } });
    const unfinished = response.status === 503 || (response.status === 200 && response.body.data.pending.length > 0);
    if (!unfinished || attempt === 20) return response;
    if (response.status === 503) await new Promise((resolvePromise) => setTimeout(resolvePromise, Number(response.headers.get('Retry-After') ?? 1) * 1000));
  }
}

/** Rows whose numbers start with `prefix` (a run's own numbers). */
const rowsOf = (prefix: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ phoneNumber: `+44 20 ${prefix}${String(from + i).padStart(6, '0')}`, name: `Import ${prefix} ${from + i}` }));

describe('contacts/import and a crash', () => {
  it(
    'leaves every contact exactly once, indexed and counted, when the stack is SIGKILLed mid-import and the imports are run again',
    { timeout: 240_000 },
    async () => {
      // Prepare: 4 calls of 100 rows (several claims each), all in flight
      const before = await run.total();
      const calls = Array.from({ length: 4 }, (_, k) => rowsOf('79', k * 100, 100));
      const imported = before + calls.flat().length;
      const sent = calls.map((contacts) =>
        run.stack.call('contacts/import', { apiKey: run.adminKey, params: { channelId: run.channelId, contacts } }).catch(() => undefined),
      );
      // Act: kill once an eighth of the contacts are in the table, restart, run the same calls again
      for (let waited = 0; waited < 60_000; waited += 50) {
        if ((await run.contactsStored()) > before + 50) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await run.stack.stop('SIGKILL');
      await Promise.all(sent);
      await run.restart();
      const broken = await checkInvariants({ endpoint: await run.storeEndpoint(), channelId: run.channelId });
      const again = [];
      for (const contacts of calls) again.push(await importAsAClientWould(contacts));
      const rerun = await checkInvariants({ endpoint: await run.storeEndpoint(), channelId: run.channelId });
      const shortAfterRerun = imported - (await run.total());
      const recount = await run.stack.admin('contacts', 'recount', '--channel', run.channelId);
      const after = await checkInvariants({ endpoint: await run.storeEndpoint(), channelId: run.channelId });
      // Assess
      for (const response of again) expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
      expect(again.reduce((sum, response) => sum + response.body.data.failed, 0)).toBe(0);
      expect(broken.contacts).toBeLessThan(imported);
      expectRerunComplete(rerun, imported, shortAfterRerun);
      expect(recount.code, recount.stderr).toBe(0);
      expect(after.violations).toEqual([]);
      expect(after.contacts).toBe(imported);
      expect(await run.total()).toBe(imported);
    },
  );
});
