import {
  type Account,
  type AlgoOrder,
  type Asset,
  D,
  type Dec,
  type Execution,
  formatDecimal,
  type LiquidationEventRecord,
  type LiquidationPositionRecord,
  type LiquidationPositionSnapshot,
  type Position,
  parseSym,
} from '../../core/model/index.ts';
import type {
  AccountWire,
  AlgoOrderWire,
  AssetWire,
  ExecutionWire,
  LiquidationEventWire,
  LiquidationPositionWire,
  PositionWire,
} from '../../core/venue/index.ts';

/**
 * Writes every Decimal of a model value as the venue writes money: a decimal string. Other values
 * are kept; nested objects and arrays are walked.
 * @param value - a model value
 * @returns the same shape with decimal strings
 */
export function decimalsAsText(value: unknown): unknown {
  if (D.isDecimal(value)) return formatDecimal(value as Dec);
  if (Array.isArray(value)) return value.map(decimalsAsText);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = decimalsAsText(item);
    }
    return out;
  }
  return value;
}

/**
 * Decimal places of the derived figures the venue computes rather than books: riskRatio, liqPrice
 * and the average prices (a position's avgPrice, an order's executedAvgPrice) (Keel's choice: the
 * spec shows no precision; the sim's exact quotients run to 40 digits, which no venue writes and
 * a fixed-precision consumer would trip on). A price below 1 keeps this many significant digits
 * instead (see {@link derivedPrice}). The sim keeps them exact: only what is written rounds.
 */
export const DERIVED_FIGURE_DECIMALS = 8;

function derived(value: Dec): Dec {
  return value.toDecimalPlaces(DERIVED_FIGURE_DECIMALS);
}

/**
 * A derived price as the wire writes it: to {@link DERIVED_FIGURE_DECIMALS} places, or to as many
 * significant digits when it is below 1, so the liqPrice or average price of a coin quoted at 1e-8
 * is not written "0" (which the wire reads as no price).
 * @param value - the exact price
 * @returns the price as written
 */
export function derivedPrice(value: Dec): Dec {
  return value.abs().lt(1) ? value.toSignificantDigits(DERIVED_FIGURE_DECIMALS) : derived(value);
}

function snapshotWithRoundedLiq(snapshot: LiquidationPositionSnapshot): LiquidationPositionSnapshot {
  return { ...snapshot, liqPrice: derivedPrice(snapshot.liqPrice) };
}

/**
 * An execution as the Trades channel and the executions endpoints write it (per public venue docs:
 * `createAt`, and exchangeType / businessType of a crypto sym, read from the sym as orders write
 * them: an equity has neither; the spec: `timestamp`, both written).
 * @param execution - the model execution
 * @returns the wire execution
 */
export function executionToWire(execution: Execution): ExecutionWire {
  const id = parseSym(execution.sym);
  return {
    ...(decimalsAsText(execution) as Record<string, unknown>),
    ...(id.kind === 'crypto' ? { exchangeType: id.exchangeType, businessType: id.businessType } : {}),
    tradingFee: formatDecimal(execution.fee),
    tradingFeeCoin: execution.feeCoin,
    createAt: execution.timestamp,
  } as ExecutionWire;
}

/**
 * A position as `GET /api/v1/trading/position` and the Positions channel write it (avgPrice and
 * liqPrice to {@link DERIVED_FIGURE_DECIMALS} places, or significant digits below 1).
 * @param position - the model position
 * @returns the wire position, with the ADL rank the sim gave it (Keel's own field: the venue serves
 *   ranks only through `GET /api/v1/adl/rank`), so a paper session's strategies see each rank when
 *   a backtest's do
 */
export function positionToWire(position: Position): PositionWire {
  return decimalsAsText({
    ...position,
    avgPrice: derivedPrice(position.avgPrice),
    liqPrice: derivedPrice(position.liqPrice),
  }) as PositionWire;
}

/**
 * An asset balance as the Assets channel writes it; the loan fields only when loan > 0 (spec).
 * @param asset - the model asset
 * @returns the wire asset
 */
export function assetToWire(asset: Asset): AssetWire {
  const hasLoan = asset.loan?.gt(0) === true;
  const { loan, loanValue, netEquity, netEquityValue, netMarginValue, ...rest } = asset;
  return decimalsAsText(
    hasLoan ? { ...rest, loan, loanValue, netEquity, netEquityValue, netMarginValue } : rest,
  ) as AssetWire;
}

/**
 * The trading account as `GET /api/v1/trading/account` and the Accounts channel write it
 * (riskRatio to {@link DERIVED_FIGURE_DECIMALS} places).
 * @param account - the model account
 * @param assets - the portfolio's assets, carried in the REST account reply (Keel's choice, unless the
 *   venue is told to leave them out); omitted on the Accounts channel
 * @returns the wire account
 */
export function accountToWire(account: Account, assets?: readonly Asset[]): AccountWire {
  const wire = decimalsAsText({ ...account, riskRatio: derived(account.riskRatio) }) as AccountWire;
  return assets === undefined ? wire : { ...wire, assets: assets.map(assetToWire) };
}

/**
 * An algo order as the algo endpoints write it (`algoOrderState` for the model's `state`).
 * @param algo - the model algo order
 * @returns the wire algo order
 */
export function algoOrderToWire(algo: AlgoOrder): AlgoOrderWire {
  const { state, ...rest } = algo;
  return { ...(decimalsAsText(rest) as Record<string, unknown>), algoOrderState: state } as AlgoOrderWire;
}

/**
 * A liquidation node snapshot as the LiquidationEvent channel writes it.
 * @param record - the model record
 * @returns the wire record
 */
export function liquidationEventToWire(record: LiquidationEventRecord): LiquidationEventWire {
  return decimalsAsText({
    ...record,
    positions: record.positions.map(snapshotWithRoundedLiq),
  }) as LiquidationEventWire;
}

/**
 * An archived liquidation order as the LiquidationPosition channels write it.
 * @param record - the model record
 * @returns the wire record
 */
export function liquidationPositionToWire(record: LiquidationPositionRecord): LiquidationPositionWire {
  return decimalsAsText({
    ...record,
    position: snapshotWithRoundedLiq(record.position),
  }) as LiquidationPositionWire;
}
