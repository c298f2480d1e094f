/**
 * Keel's example strategies, by the name a config's `use:` gives.
 * @packageDocumentation
 */
import type { StrategyDefinition } from '../core/kernel/index.ts';
import { bracket } from './bracket.ts';
import { grid } from './grid.ts';
import { loanCarry } from './loan-carry.ts';
import { marketMaker } from './market-maker.ts';
import { riskGuard } from './risk-guard.ts';
import { smaCross } from './sma-cross.ts';
import { twap } from './twap.ts';

export type { BracketParams } from './bracket.ts';
export type { GridParams } from './grid.ts';
export type { LoanCarryParams } from './loan-carry.ts';
export type { MarketMakerParams } from './market-maker.ts';
export type { RiskGuardParams } from './risk-guard.ts';
export type { SmaCrossParams } from './sma-cross.ts';
export type { TwapParams } from './twap.ts';
export { bracket, grid, loanCarry, marketMaker, riskGuard, smaCross, twap };

/** The built-in strategies by name. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds plugins of every parameter and state type
export const BUILT_IN_STRATEGIES: ReadonlyMap<string, StrategyDefinition<any, any>> = new Map(
  [smaCross, marketMaker, grid, twap, bracket, loanCarry, riskGuard].map((s) => [s.name, s]),
);
