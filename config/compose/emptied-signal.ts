/**
 * A promise that settles the next time something held empties (held events delivered, held
 * fills passed on): made when first asked for while something is held, settled once, and made
 * anew for the next wait. A lockstep ack waits on it.
 */
export class EmptiedSignal {
  private waiting: { readonly promise: Promise<void>; readonly resolve: () => void } | undefined;

  /** @returns the promise of the next emptying (the same one until it settles) */
  next(): Promise<void> {
    if (this.waiting === undefined) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.waiting = { promise, resolve };
    }
    return this.waiting.promise;
  }

  /** What was held is empty: settles the promise given, if one was. */
  emptied(): void {
    this.waiting?.resolve();
    this.waiting = undefined;
  }
}
