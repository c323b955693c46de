import { describe, expect, it } from 'vitest';
import { readAfterWrites } from '../../shared/domain/read-after-writes';

/**
 * The read the deliverer's fan-outs share after parking lanes
 * (shared/domain/read-after-writes.ts): sent after every write of the writers it serves,
 * once for the writers at once; a log of what happened, in order, shows it.
 */

/** A promise and its resolution, for writes that end when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function loggedRead() {
  const log: string[] = [];
  let reads = 0;
  const shared = readAfterWrites(async () => {
    const read = ++reads;
    log.push(`read ${read}`);
    return read;
  });
  const writer = (name: string, ends: Promise<void>, needsRead = true) =>
    shared.after(async () => {
      await ends;
      log.push(`${name} wrote`);
      return needsRead;
    });
  return { log, writer, shared };
}

describe('a read shared after writes', () => {
  it('is sent once for the writers at once, after the last of their writes', async () => {
    // Prepare
    const { log, writer } = loggedRead();
    const [a, b, c] = [gate(), gate(), gate()];
    const results = Promise.all([writer('a', a.opened), writer('b', b.opened), writer('c', c.opened, false)]);
    // Act
    a.open();
    await a.opened;
    c.open();
    await c.opened;
    b.open();
    // Assess: no read while b still wrote; one read for both a and b; c, needing none, gets none (but held the read)
    expect(await results).toEqual([1, 1, undefined]);
    expect(log).toEqual(['a wrote', 'c wrote', 'b wrote', 'read 1']);
  });

  it('gives a writer that ends while the read is on its way a read of its own, sent after its writes', async () => {
    // Prepare: the first read takes until the test lets it answer
    const log: string[] = [];
    const answer = gate();
    let reads = 0;
    const shared = readAfterWrites(async () => {
      const read = ++reads;
      log.push(`read ${read} sent`);
      if (read === 1) await answer.opened;
      return read;
    });
    const first = shared.after(async () => (log.push('a wrote'), true));
    await new Promise(setImmediate);
    // Act: b writes while a's read is on its way
    const second = shared.after(async () => (log.push('b wrote'), true));
    answer.open();
    // Assess
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(log).toEqual(['a wrote', 'read 1 sent', 'b wrote', 'read 2 sent']);
  });

  it('does not wait for a writer that begins only once another has its read (a contact’s next event)', async () => {
    // Prepare, Act: b begins after a's read; c writes beside a
    const { log, writer } = loggedRead();
    const c = gate();
    const chain = writer('a', Promise.resolve()).then(() => writer('b', Promise.resolve()));
    const beside = writer('c', c.opened);
    setImmediate(c.open);
    // Assess: both finish, b with a read after its own write
    expect(await Promise.all([chain, beside])).toEqual([2, 1]);
    expect(log).toEqual(['a wrote', 'c wrote', 'read 1', 'b wrote', 'read 2']);
  });

  it('lets the others read when a writer fails, and fails every writer waiting for a read that fails', async () => {
    // Prepare
    const { writer } = loggedRead();
    const failing = readAfterWrites<number>(() => Promise.reject(new Error('table down')));
    // Act, Assess: a failed write does not hold the read of the others
    const [failed, served] = await Promise.allSettled([writer('x', Promise.reject(new Error('write failed'))), writer('y', Promise.resolve())]);
    expect(failed.status).toBe('rejected');
    expect(served).toEqual({ status: 'fulfilled', value: 1 });
    const reads = await Promise.allSettled([failing.after(async () => true), failing.after(async () => true)]);
    expect(reads.map((read) => read.status)).toEqual(['rejected', 'rejected']);
  });
});
