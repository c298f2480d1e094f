import type { Intent } from '../model/index.ts';

/**
 * The sym an intent names.
 * @param intent - the intent
 * @returns its sym (the syms, space-separated, of a close of several positions), or undefined
 *   when it names none (a loan, the position mode, a cancel of listed orders or of every sym's)
 */
export function intentSym(intent: Intent): string | undefined {
  if ('sym' in intent && typeof intent.sym === 'string') return intent.sym;
  if (intent.kind === 'closePositions') return intent.symList.join(' ');
  return undefined;
}

/**
 * The syms of the commands the kernel sent lately, by reference: a venue refusal echoes only the
 * command's reference and kind, so its denial takes the sym from here. Bounded: a command's sym
 * is forgotten once `capacity` newer commands naming one were sent (a refusal comes within the
 * request timeout, long before), so a long run does not keep one per command.
 *
 * The commands sit around a ring: slot `n % capacity` holds the command numbered `n` until
 * `capacity` more are sent. Noting one costs two array writes, where a map by reference cost an
 * insert and a delete on every modify of a quote (some 4 % of a quoting backtest); a reference is
 * looked up only when the venue refuses its command, newest first, so a refusal arriving soon
 * after its command finds it within a few slots.
 */
export class CommandSyms {
  private readonly refs: (string | undefined)[];
  private readonly syms: string[];
  private sentCount = 0;

  /** @param capacity - how many commands' syms are kept */
  constructor(private readonly capacity = 10_000) {
    this.refs = new Array(Math.max(0, capacity)).fill(undefined);
    this.syms = new Array(Math.max(0, capacity)).fill('');
  }

  /**
   * Notes the sym of a command as it is sent.
   * @param intent - the command
   */
  sent(intent: Intent): void {
    const sym = intentSym(intent);
    if (sym === undefined || this.capacity <= 0) return;
    const slot = this.sentCount++ % this.capacity;
    this.refs[slot] = intent.ref;
    this.syms[slot] = sym;
  }

  /**
   * @param ref - a command's reference
   * @returns the sym the command named (the latest of that reference's), while kept; undefined
   *   when it named none
   */
  symOf(ref: string): string | undefined {
    const oldest = Math.max(0, this.sentCount - this.capacity);
    for (let n = this.sentCount - 1; n >= oldest; n--) {
      const slot = n % this.capacity;
      if (this.refs[slot] === ref) return this.syms[slot];
    }
    return undefined;
  }
}
