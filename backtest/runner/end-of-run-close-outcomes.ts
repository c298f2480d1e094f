import type { DenialRecord } from '../report/index.ts';

/** What the end-of-run close tells of each closing command: denied by the gate, or sent to the venue. */
export interface EndOfRunCloseListener {
  /** A command the gate denied (as Keel's own, `keel`). */
  denied(denial: DenialRecord): void;
  /** A position's closing order the gate approved and the venue was sent. */
  sent(sym: string): void;
}

/**
 * Why each position the end-of-run close could not close stayed open: the denial of its last
 * closing command, when the gate denied it (a closing order sent later, in a further round,
 * forgets it: that one reached the venue).
 */
export class EndOfRunCloseOutcomes implements EndOfRunCloseListener {
  readonly #refusals = new Map<string, DenialRecord>();

  denied(denial: DenialRecord): void {
    if (denial.intentKind === 'closePosition' && denial.sym !== undefined)
      this.#refusals.set(denial.sym, denial);
  }

  sent(sym: string): void {
    this.#refusals.delete(sym);
  }

  /** @returns the denial of each sym whose last closing command the gate denied */
  refusals(): ReadonlyMap<string, DenialRecord> {
    return this.#refusals;
  }
}
