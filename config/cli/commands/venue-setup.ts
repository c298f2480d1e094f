import type { z } from 'zod';
import { DEFAULT_VALUATION_COINS } from '../../../backtest/sim/index.ts';
import type { InstrumentSpec } from '../../../core/model/index.ts';
import {
  type fillModelConfigSchema,
  type LoanTermsConfig,
  loanTermsConfigSchema,
  type PaperConfig,
  paperConfigSchema,
} from '../../schema/index.ts';

/** A fill model as `paper.fillModel` takes it: a name, or a name with settings. */
export type VenueFillModel = z.output<typeof fillModelConfigSchema>;

/** Latency as `paper.latency` takes it (order entry, User Data, the jitter's seed). */
export type VenueLatency = NonNullable<PaperConfig['latency']>;

/** Loan terms as `paper.loans` takes them (in the form given: numbers or decimal strings). */
export type VenueLoans = z.input<typeof loanTermsConfigSchema>;

/**
 * The loan terms of a `keel venue` started without `--loans` (Keel's assumptions, no venue's
 * rates, so that borrowing can be rehearsed at all): USDT on both exchanges of its synthetic
 * instruments at 8 % a year up to 50000, ETH on OKX (the spot instrument's base coin, to sell
 * short) at 3 % a year up to 20; the LTV limits and minimum borrow are `paper.loans`' defaults.
 */
export const DEFAULT_VENUE_LOANS: VenueLoans = {
  assets: {
    'BINANCE:USDT': { annualRate: 0.08, userQuota: 50000 },
    'OKX:USDT': { annualRate: 0.08, userQuota: 50000 },
    'OKX:ETH': { annualRate: 0.03, userQuota: 20 },
  },
};

/**
 * How `keel venue` sets up its simulated account and matching, kept in its data dir so that a
 * restart replays the same account.
 */
export interface VenueSetup {
  /** Starting balances of the account by asset, as decimal strings. */
  readonly balances: Readonly<Record<string, string>>;
  /** The sims' fill model. */
  readonly fillModel: VenueFillModel;
  /** The venue's latency; absent = none (commands run at once). */
  readonly latency?: VenueLatency;
  /**
   * Its loan terms; absent = none, nothing can be borrowed (a data dir started before they were
   * kept: every venue then had none).
   */
  readonly loans?: VenueLoans;
}

/**
 * Loan terms as the venue runs them, validated (defaults filled in).
 * @param loans - the terms of a setup
 * @returns the terms, undefined for none
 */
export function venueLoanTerms(loans: VenueLoans | undefined): LoanTermsConfig | undefined {
  return loans === undefined ? undefined : loanTermsConfigSchema.parse(loans);
}

/** What each starting balance of a venue from before its setup was kept held. */
const CASH_BEFORE_IT_WAS_KEPT = '100000';

/**
 * The setup of a data dir `keel venue` started before it kept its setup there: 100000 USDT and
 * 100000 USD, the queue fill model and no latency, as every venue then started.
 */
export const SETUP_BEFORE_IT_WAS_KEPT: VenueSetup = {
  balances: { USDT: CASH_BEFORE_IT_WAS_KEPT, USD: CASH_BEFORE_IT_WAS_KEPT },
  fillModel: 'queue',
};

/**
 * The starting balances of a venue whose `--balance` names none: what `paper.startingCash`
 * defaults to (100000 USDT), whatever the feed, so a Keel config run against it sizes orders on
 * the capital a paper run of the same data starts with (the venue counts USDT one for one with
 * the USD a US equity settles in, as the paper venue of a paper run does).
 * @returns the balances, as decimal strings
 */
export function defaultVenueBalances(): Record<string, string> {
  const cash = paperConfigSchema.shape.startingCash.parse(undefined);
  return Object.fromEntries(Object.entries(cash).map(([asset, amount]) => [asset, amount.toFixed()]));
}

/**
 * The coins a venue listing these instruments can value, so that its equity counts a balance of
 * them: those it counts at 1 (USDT, USDC, USD), then the base coins of the instruments it lists
 * against one of those, valued at their price. It counts any other coin as 0.
 * @param instruments - the instruments the venue lists
 * @returns the coins, the ones counted at 1 first
 */
export function coinsTheVenueValues(instruments: readonly InstrumentSpec[]): string[] {
  const valued = new Set(DEFAULT_VALUATION_COINS);
  for (const { id } of instruments)
    if (id.kind === 'crypto' && DEFAULT_VALUATION_COINS.includes(id.quote)) valued.add(id.base);
  return [...valued];
}

/**
 * A setup's part as its flag reads (`--balance USDT=100000 --balance USD=5000`,
 * `--fill-model bar`, `--latency {fixedMs: 10, ...}`), for messages.
 * @param key - which part
 * @param setup - the setup
 * @returns the flags
 */
export function setupFlags(key: keyof VenueSetup, setup: VenueSetup): string {
  if (key === 'balances')
    return Object.entries(setup.balances)
      .map(([asset, amount]) => `--balance ${asset}=${amount}`)
      .join(' ');
  if (key === 'fillModel') return `--fill-model ${flowText(setup.fillModel)}`;
  if (key === 'loans')
    return setup.loans === undefined
      ? 'no --loans (no loan terms, as every venue had before --loans)'
      : `--loans '${flowText(setup.loans)}'`;
  return setup.latency === undefined ? 'no --latency' : `--latency ${flowText(setup.latency)}`;
}

function flowText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  const fields = Object.entries(value).map(([key, field]) => `${key}: ${flowText(field)}`);
  return `{${fields.join(', ')}}`;
}

/**
 * Where a part of a venue's setup came from: a flag, the default, the data dir that kept it, or a
 * data dir started before setups were kept (what every venue then had).
 */
export type SetupOrigin = 'flag' | 'default' | 'data dir' | 'old data dir';

/** What the start lines of `keel venue` state of its setup. */
export interface SetupStatement {
  /** The account's starting balances, as the venue holds them. */
  readonly balances: Readonly<Record<string, { toFixed(): string }>>;
  /** The fill model as the venue describes it (its settings included). */
  readonly fillModel: string;
  /** The latency the venue applies; absent = none. */
  readonly latency: VenueLatency | undefined;
  /** The loan terms the venue lends on; absent = none. */
  readonly loans: VenueLoans | undefined;
  /** Where each part came from. */
  readonly origins: Readonly<Record<keyof VenueSetup, SetupOrigin>>;
  /** The model a backtest would default to on this feed (what a default fill model was chosen from). */
  readonly sourceDefault: string;
}

/**
 * The start lines of `keel venue` stating its account, fill model and latency, and where each
 * came from, so that a run against it can be compared with a backtest or paper run of the same
 * data.
 * @param statement - the setup and its origins
 * @returns the lines
 */
export function venueSetupLines(statement: SetupStatement): string[] {
  const { origins } = statement;
  const balances = Object.entries(statement.balances)
    .map(([asset, amount]) => `${amount.toFixed()} ${asset}`)
    .join(' + ');
  const fillDefault =
    statement.sourceDefault === 'bar'
      ? 'the default for data that begins with bars only, as a backtest and a paper run choose'
      : 'the default for data that begins with quotes, trades or books, as a backtest and a paper run choose';
  const latency = statement.latency;
  return [
    `  account:         ${balances} (${originText(origins.balances, '--balance', "the default, paper.startingCash's")})`,
    `  fill model:      ${statement.fillModel} (${originText(origins.fillModel, '--fill-model', fillDefault)})`,
    `  latency:         ${latency === undefined ? 'none: commands run at once' : latencyText(latency)} (${originText(origins.latency, '--latency', 'the default')})`,
    `  loans:           ${loansText(statement.loans)} (${originText(origins.loans, '--loans', "Keel's assumed terms, no venue's rates", '--loans sets them')})`,
  ];
}

function originText(origin: SetupOrigin, flag: string, fallback: string, sets = `${flag} sets it`): string {
  if (origin === 'flag') return flag;
  if (origin === 'data dir') return 'kept in the data dir';
  if (origin === 'old data dir') return 'the data dir predates kept setups: what every venue had up to 0.2.0';
  return `${fallback}; ${sets}`;
}

function loansText(loans: VenueLoans | undefined): string {
  const terms = venueLoanTerms(loans);
  if (terms === undefined) return 'none: nothing can be borrowed (406014)';
  const assets = Object.entries(terms.assets).map(
    ([key, asset]) =>
      `${key} ${asset.annualRate.mul(100).toFixed()} % a year, quota ${asset.userQuota.toFixed()}${asset.minBorrow === undefined ? '' : `, minimum ${asset.minBorrow.toFixed()}`}`,
  );
  return assets.length === 0 ? 'no borrowable asset (406014)' : assets.join('; ');
}

function latencyText(latency: VenueLatency): string {
  const leg = (fixedMs: number, jitterMs: number) =>
    jitterMs > 0 ? `${fixedMs} ms + U[0, ${jitterMs}) ms` : `${fixedMs} ms`;
  const user = latency.userData ?? latency.marketData;
  return `order entry ${leg(latency.fixedMs, latency.jitterMs)}, User Data ${user === undefined ? '0 ms' : leg(user.fixedMs, user.jitterMs)}, seed ${latency.seed}`;
}
