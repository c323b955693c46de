import { describe, expect, it } from 'vitest';
import { keptOnceLoaded, TtlCache } from '../../shared/cache/ttl-cache';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, set: (ms: number) => (now = ms) };
}

/** A load that counts its calls and answers `value` (or the next of `values`). */
function counting<V>(...values: V[]) {
  let calls = 0;
  const load = async () => values[Math.min(calls++, values.length - 1)];
  return { load, calls: () => calls };
}

describe('the TTL cache', () => {
  it('reuses a value until its maximum age, then loads again', async () => {
    // Prepare
    const time = manualClock();
    const cache = new TtlCache<string, string>({ maxAgeMs: 5_000, now: time.now });
    const source = counting('first', 'second');
    // Act
    const loaded = await cache.get('k', source.load);
    time.set(1_000_000 + 4_999);
    const young = await cache.get('k', source.load);
    time.set(1_000_000 + 5_000);
    const old = await cache.get('k', source.load);
    // Assess
    expect([loaded, young, old]).toEqual(['first', 'first', 'second']);
    expect(source.calls()).toBe(2);
  });

  it('does not use an entry past its own deadline, even when young', async () => {
    // Prepare
    const time = manualClock(0);
    const cache = new TtlCache<string, { expiresAt: number }>({ maxAgeMs: 10_000, expiresAt: (value) => value.expiresAt, now: time.now });
    const source = counting({ expiresAt: 2_000 }, { expiresAt: 2_000 });
    // Act
    await cache.get('k', source.load);
    time.set(1_999);
    await cache.get('k', source.load);
    const beforeDeadline = source.calls();
    time.set(2_000);
    await cache.get('k', source.load);
    // Assess
    expect(beforeDeadline).toBe(1);
    expect(source.calls()).toBe(2);
  });

  it('does not use an entry that seems to come from the future (the clock went back)', async () => {
    // Prepare
    const time = manualClock(10_000);
    const cache = new TtlCache<string, number>({ maxAgeMs: 5_000, now: time.now });
    const source = counting(1, 2);
    // Act
    await cache.get('k', source.load);
    time.set(9_000);
    const value = await cache.get('k', source.load);
    // Assess
    expect(value).toBe(2);
  });

  it('keeps no failed load: the next call loads again', async () => {
    // Prepare
    const cache = new TtlCache<string, string>({ maxAgeMs: Infinity });
    let calls = 0;
    const load = async () => {
      calls++;
      if (calls === 1) throw new Error('first load fails');
      return 'ok';
    };
    // Act
    const first = await cache.get('k', load).then(String, (error: Error) => error.message);
    const second = await cache.get('k', load);
    const third = await cache.get('k', load);
    // Assess
    expect([first, second, third]).toEqual(['first load fails', 'ok', 'ok']);
    expect(calls).toBe(2);
  });

  it('forgets a load that throws before returning a promise', async () => {
    // Prepare
    const cache = new TtlCache<string, string>({ maxAgeMs: Infinity });
    const throwing = (() => {
      throw new Error('sync');
    }) as () => Promise<string>;
    // Act
    const first = await cache.get('k', throwing).then(String, (error: Error) => error.message);
    const second = await cache.get('k', async () => 'ok');
    // Assess
    expect(first).toBe('sync');
    expect(second).toBe('ok');
  });

  it('does not keep values `keep` refuses', async () => {
    // Prepare
    const cache = new TtlCache<string, string | undefined>({ maxAgeMs: Infinity, keep: (value) => value !== undefined });
    const source = counting<string | undefined>(undefined, 'found');
    // Act
    const missing = await cache.get('k', source.load);
    const found = await cache.get('k', source.load);
    const again = await cache.get('k', source.load);
    // Assess
    expect([missing, found, again]).toEqual([undefined, 'found', 'found']);
    expect(source.calls()).toBe(2);
  });

  it('shares one load between concurrent calls for a key', async () => {
    // Prepare
    const cache = new TtlCache<string, string>({ maxAgeMs: 1_000 });
    let release!: (value: string) => void;
    let calls = 0;
    const load = () => {
      calls++;
      return new Promise<string>((resolve) => (release = resolve));
    };
    // Act
    const pending = [cache.get('k', load), cache.get('k', load), cache.get('k', load)];
    release('shared');
    const values = await Promise.all(pending);
    // Assess
    expect(values).toEqual(['shared', 'shared', 'shared']);
    expect(calls).toBe(1);
  });

  it('shares a failing load between concurrent calls, then loads again', async () => {
    // Prepare
    const cache = new TtlCache<string, string>({ maxAgeMs: 1_000 });
    let calls = 0;
    const load = async () => {
      calls++;
      if (calls === 1) throw new Error('down');
      return 'up';
    };
    // Act
    const outcomes = await Promise.all([cache.get('k', load), cache.get('k', load)].map((p) => p.then(String, (error: Error) => error.message)));
    const later = await cache.get('k', load);
    // Assess
    expect(outcomes).toEqual(['down', 'down']);
    expect(later).toBe('up');
    expect(calls).toBe(2);
  });

  it('evicts the entry loaded longest ago beyond its bound', async () => {
    // Prepare
    const cache = new TtlCache<string, string>({ maxAgeMs: Infinity, maxEntries: 2 });
    const loads: string[] = [];
    const load = (key: string) => async () => {
      loads.push(key);
      return key.toUpperCase();
    };
    // Act
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('c', load('c'));
    await cache.get('b', load('b'));
    await cache.get('a', load('a'));
    // Assess
    expect(cache.size).toBe(2);
    expect(loads).toEqual(['a', 'b', 'c', 'a']);
  });

  it('reload reads again whatever is kept, and an `accept` the entry fails loads again', async () => {
    // Prepare
    const cache = new TtlCache<string, { version: number }>({ maxAgeMs: Infinity });
    const source = counting({ version: 1 }, { version: 2 }, { version: 3 });
    // Act
    await cache.get('k', source.load);
    const reloaded = await cache.reload('k', source.load);
    const sameVersion = await cache.get('k', source.load, (entry) => entry.value.version === 2);
    const newerVersion = await cache.get('k', source.load, (entry) => entry.value.version === 3);
    // Assess
    expect(reloaded.version).toBe(2);
    expect(sameVersion.version).toBe(2);
    expect(newerVersion.version).toBe(3);
    expect(source.calls()).toBe(3);
  });
});

describe('keptOnceLoaded', () => {
  it('loads once for the container and retries after a failure', async () => {
    // Prepare
    let calls = 0;
    const file = keptOnceLoaded(async () => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return `content ${calls}`;
    });
    // Act
    const failed = await file().then(String, (error: Error) => error.message);
    const values = [await file(), await file()];
    // Assess
    expect(failed).toBe('not yet');
    expect(values).toEqual(['content 2', 'content 2']);
  });
});
