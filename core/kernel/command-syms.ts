import type { Intent } from '../model/index.ts';
import { RetentionQueue } from './retention-queue.ts';

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
 */
export class CommandSyms {
  private readonly syms = new Map<string, string>();
  private readonly recent: RetentionQueue;

  /** @param capacity - how many commands' syms are kept */
  constructor(capacity = 10_000) {
    this.recent = new RetentionQueue(capacity);
  }

  /**
   * Notes the sym of a command as it is sent.
   * @param intent - the command
   */
  sent(intent: Intent): void {
    const sym = intentSym(intent);
    if (sym === undefined) return;
    this.syms.set(intent.ref, sym);
    const evicted = this.recent.push(intent.ref);
    if (evicted !== undefined && evicted !== intent.ref) this.syms.delete(evicted);
  }

  /**
   * @param ref - a command's reference
   * @returns the sym the command named, while kept; undefined when it named none
   */
  symOf(ref: string): string | undefined {
    return this.syms.get(ref);
  }
}
