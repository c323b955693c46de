/**
 * A queue loop's sleep between turns: it ends after its time, or at once when something
 * the loop waits for happens (`wake`: a message written in this process, a batch or a
 * table read ending, `stop`). A wake while the loop is not asleep does nothing: the loop
 * looks at its state again before it sleeps next.
 */
export class WakeableSleep {
  private wakeUp: (() => void) | undefined;

  /** Resolves after `ms` (never by itself when it is Infinity), or at the next `wake`. */
  async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = undefined;
  }

  wake(): void {
    this.wakeUp?.();
  }
}
