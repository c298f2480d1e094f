import type { Intent } from '../model/index.ts';
import { RecentRefs } from './recent-refs.ts';

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
 * request timeout, long before), so a long run does not keep one per command. The references sit
 * in a {@link RecentRefs} ring, each sym at its command's slot.
 */
export class CommandSyms {
  private readonly refs: RecentRefs;
  private readonly syms: string[];

  /** @param capacity - how many commands' syms are kept */
  constructor(capacity = 10_000) {
    this.refs = new RecentRefs(capacity);
    this.syms = new Array(Math.max(0, capacity)).fill('');
  }

  /**
   * Notes the sym of a command as it is sent.
   * @param intent - the command
   */
  sent(intent: Intent): void {
    const sym = intentSym(intent);
    if (sym === undefined) return;
    const slot = this.refs.push(intent.ref);
    if (slot !== -1) this.syms[slot] = sym;
  }

  /**
   * @param ref - a command's reference
   * @returns the sym the command named (the latest of that reference's), while kept; undefined
   *   when it named none
   */
  symOf(ref: string): string | undefined {
    const slot = this.refs.slotOf(ref);
    return slot === -1 ? undefined : this.syms[slot];
  }
}
