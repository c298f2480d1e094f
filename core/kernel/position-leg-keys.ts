import type { PositionSide } from '../model/index.ts';
import { positionKey } from '../model/index.ts';

/**
 * The positions key of each leg of a sym (`sym|positionSide`), built once per sym: netQty runs on
 * every quote, and a fresh key string would be hashed each time.
 */
export class PositionLegKeys {
  private readonly bySym = new Map<string, Readonly<Record<PositionSide, string>>>();

  /**
   * @param sym - the symbol
   * @param positionSide - NONE, LONG or SHORT
   * @returns the leg's key in the kernel state's positions
   */
  of(sym: string, positionSide: PositionSide): string {
    return this.legsOf(sym)[positionSide];
  }

  /**
   * @param sym - the symbol
   * @returns the keys of its three legs, by position side
   */
  legsOf(sym: string): Readonly<Record<PositionSide, string>> {
    let keys = this.bySym.get(sym);
    if (keys === undefined) {
      keys = {
        NONE: positionKey(sym, 'NONE'),
        LONG: positionKey(sym, 'LONG'),
        SHORT: positionKey(sym, 'SHORT'),
      };
      this.bySym.set(sym, keys);
    }
    return keys;
  }
}
