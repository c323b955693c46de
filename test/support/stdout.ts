import { vi } from 'vitest';

/** The JSON lines written to stdout while `act` runs (the logger's lines and the EMF metrics). */
export async function jsonLines(act: () => Promise<unknown> | unknown): Promise<any[]> {
  const lines: any[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    for (const line of text.split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line));
    (rest.find((arg) => typeof arg === 'function') as (() => void) | undefined)?.();
    return true;
  }) as typeof process.stdout.write);
  try {
    await act();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

/** The EMF lines (CloudWatch embedded metrics) written to stdout while `act` runs. */
export const emfLines = async (act: () => Promise<unknown> | unknown) => (await jsonLines(act)).filter((line) => '_aws' in line);
