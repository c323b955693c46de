/**
 * One read shared by writers that each need a read made after their own writes (to see
 * what changed meanwhile): the read is sent only once no writer that has begun is still
 * writing, so it comes after every write of those that wait for it. A writer that ends
 * while the read is on its way waits for the next one. A writer never waits for one that
 * has not begun, so writers that wait on each other (one begins once another is done)
 * cannot hold each other up.
 */
export interface ReadAfterWrites<T> {
  /**
   * Runs `writes`; resolves to a read sent after they ended when they return true (the
   * writer needs it), to undefined when they return false. A failed read fails every
   * writer waiting for it.
   */
  after(writes: () => Promise<boolean>): Promise<T | undefined>;
}

export function readAfterWrites<T>(read: () => Promise<T>): ReadAfterWrites<T> {
  let writing = 0;
  let waiting: Array<{ resolve: (value: T) => void; reject: (error: unknown) => void }> = [];
  const sendIfNoneWriting = () => {
    if (writing > 0 || waiting.length === 0) return;
    const readers = waiting;
    waiting = [];
    read().then(
      (value) => readers.forEach((reader) => reader.resolve(value)),
      (error: unknown) => readers.forEach((reader) => reader.reject(error)),
    );
  };
  return {
    async after(writes) {
      writing++;
      let value: Promise<T> | undefined;
      try {
        if (await writes()) value = new Promise<T>((resolve, reject) => waiting.push({ resolve, reject }));
      } finally {
        writing--;
        sendIfNoneWriting();
      }
      return value;
    },
  };
}
