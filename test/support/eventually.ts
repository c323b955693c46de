/** Polls until `check` returns a value, or fails after `ms` (a deadline for a hang, generous for a loaded machine). */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Polls `condition` until it holds, or fails naming `what` after `ms` (a deadline for a
 * hang): for a condition a test waits on closely (every `everyMs`, 25 ms unless a check
 * costs a running stack a request).
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 30_000, everyMs = 25): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
