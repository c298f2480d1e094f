/** The intents a strategy's hook of one kind built and left unsent, over a run. */
export interface UnsentIntents {
  /** The hook, e.g. `onBar`. */
  readonly where: string;
  /** How many calls of it left any unsent. */
  readonly calls: number;
  /** How many intents those calls left unsent, in all. */
  readonly intents: number;
}

/**
 * How many intents a strategy's order factory built and how many reached the kernel (returned,
 * given to `ctx.submit`, or emitted by `setup`): two counters, so the hot path (a market maker
 * builds intents on most quotes) pays two increments per intent and nothing else. An intent built
 * in a hook and neither returned nor submitted by the time the hook returned (a Nautilus habit:
 * `submit_order` is a call, `ctx.order.market(...)` only builds) is noted per hook kind, once it
 * happens, for the run's warnings.
 */
export class IntentTally {
  /** Intents the factory built. */
  built = 0;
  /** Intents the strategy handed the kernel. */
  sent = 0;
  /** Made at the first unsent intent: most runs never have one. */
  private unsentByHook: Map<string, { calls: number; intents: number }> | undefined;

  /** @returns built less sent so far: a hook's unsent intents are what it adds to this */
  get outstanding(): number {
    return this.built - this.sent;
  }

  /**
   * Notes that a call of a hook returned with intents it built still unsent.
   * @param where - the hook
   * @param intents - how many
   */
  noteUnsent(where: string, intents: number): void {
    this.unsentByHook ??= new Map();
    const seen = this.unsentByHook.get(where);
    if (seen === undefined) this.unsentByHook.set(where, { calls: 1, intents });
    else {
      seen.calls++;
      seen.intents += intents;
    }
  }

  /** @returns per hook kind, in the order first seen, the intents its calls built and never sent */
  unsent(): UnsentIntents[] {
    return [...(this.unsentByHook ?? [])].map(([where, { calls, intents }]) => ({ where, calls, intents }));
  }
}
