import type {
  AlgoOrderRecord,
  BacktestMeta,
  BacktestResult,
  CashFlowRecord,
  DenialRecord,
  EquitySample,
  LiquidationRecord,
  PricePoint,
} from '../../backtest/report/index.ts';
import { computeMetrics, roundTripsFromFills } from '../../backtest/report/index.ts';
import { D, type Execution, type Order, ZERO } from '../../core/model/index.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const HOUR = 3_600_000;

/** Meta with every assumption filled in, labelled synthetic, overridable per field. */
export function aBacktestMeta(fields: Partial<BacktestMeta> = {}): BacktestMeta {
  return {
    title: 'SMA crossover on synthetic BTC',
    strategies: [{ id: 's1', name: 'sma-cross', params: { fast: 10, slow: 30 } }],
    recordings: [{ path: 'synthetic-btc.jsonl.gz', synthetic: true, description: 'geometric random walk' }],
    fillModel: { name: 'bar-next-open', description: 'Market orders fill at the next bar open.' },
    latencyModel: { name: 'fixed', description: 'Orders reach the venue 50 ms after they are sent.' },
    feeModel: { name: 'maker-taker', description: 'Maker 2 bps, taker 5 bps of notional.' },
    synthetic: true,
    runConfig: { startingCash: '10000', closeAtEnd: true },
    assumptions: ['Funding is not charged.'],
    ...fields,
  };
}

function anOrder(fill: Execution): Order {
  return {
    orderId: fill.orderId,
    clientOrderId: fill.clientOrderId,
    portfolioId: fill.portfolioId,
    sym: fill.sym,
    side: fill.side,
    orderType: 'MARKET',
    timeInForce: 'IOC',
    orderState: 'FILLED',
    orderQty: fill.quantity,
    limitPrice: ZERO,
    executedQty: fill.quantity,
    executedAmount: fill.quantity.mul(fill.price),
    executedAvgPrice: fill.price,
    fee: fill.fee,
    feeCoin: fill.feeCoin,
    reduceOnly: false,
    positionSide: 'NONE',
    createAt: fill.timestamp,
    updateAt: fill.timestamp,
  };
}

/**
 * @param points - every price of a sym, in time order
 * @returns the lowest and highest of them (the earliest of equal ones), as a run records them
 */
function extremesOf(points: readonly PricePoint[]): { low?: PricePoint; high?: PricePoint } {
  let low: PricePoint | undefined;
  let high: PricePoint | undefined;
  for (const p of points) {
    if (low === undefined || p.price < low.price) low = p;
    if (high === undefined || p.price > high.price) high = p;
  }
  return { ...(low === undefined ? {} : { low }), ...(high === undefined ? {} : { high }) };
}

/**
 * A small but complete backtest result: `bars` hourly prices on a deterministic wave, a long
 * trade of 1 BTC every 40 hours held 20 hours, taker fee 5 bps, equity marked to market every
 * hour from 10 000 USDT. Everything is consistent (trades from the fills, metrics from both).
 * @param bars - number of hourly prices (at least 2)
 * @param meta - meta fields to override
 * @returns the result
 */
export function aBacktestResult(bars = 200, meta: Partial<BacktestMeta> = {}): BacktestResult {
  const start = Date.UTC(2024, 0, 1);
  const points: PricePoint[] = [];
  for (let i = 0; i < bars; i++) {
    const price = Math.round((40_000 + 2_000 * Math.sin(i / 9) + 15 * i) * 10) / 10;
    points.push({ ts: start + i * HOUR, price });
  }
  const fills: Execution[] = [];
  const equityCurve: EquitySample[] = [];
  let cash = D(10_000);
  let qty = ZERO;
  for (let i = 0; i < points.length; i++) {
    const { ts, price } = points[i] as PricePoint;
    const open = i % 40 === 5 && i + 20 < points.length;
    const close = i % 40 === 25;
    if (open || close) {
      const p = D(price);
      const fee = p.mul('0.0005');
      const n = fills.length + 1;
      fills.push({
        transactionId: `t${n}`,
        portfolioId: 'p1',
        orderId: `o${n}`,
        clientOrderId: `c${n}`,
        sym: SYM,
        side: open ? 'BUY' : 'SELL',
        positionSide: 'NONE',
        quantity: D(1),
        price: p,
        fee,
        feeCoin: 'USDT',
        rebate: ZERO,
        rpnl: ZERO,
        execType: 'TAKER',
        timestamp: ts,
      });
      cash = open ? cash.minus(p).minus(fee) : cash.plus(p).minus(fee);
      qty = open ? qty.plus(1) : qty.minus(1);
    }
    equityCurve.push({ ts, equity: cash.plus(qty.mul(price)) });
  }
  const { closed, open } = roundTripsFromFills(fills);
  return {
    meta: aBacktestMeta(meta),
    orders: fills.map(anOrder),
    fills,
    trades: closed,
    openTrades: open,
    equityCurve,
    prices: [{ sym: SYM, points, ...extremesOf(points) }],
    metrics: computeMetrics({
      equityCurve,
      trades: closed,
      openTrades: open,
      fills,
      buyAndHold: { prices: [{ sym: SYM, points }] },
    }),
  };
}

/**
 * {@link aBacktestResult} of a perpetual that paid funding (1.02 at hour 8, received 0.5 at hour
 * 16), paid loan interest (0.1 at hour 9) and was liquidated once at hour 30 (one fill, fee 12.5),
 * with its metrics recomputed from them and the settle asset in its run config.
 * @param bars - number of hourly prices (at least 31 for the liquidation to fall inside)
 * @returns the result
 */
export function aBacktestResultWithCashFlows(bars = 60): BacktestResult {
  const base = aBacktestResult(bars, {
    runConfig: { startingCash: '10000', settleAsset: 'USDT', closeAtEnd: true },
  });
  const start = Date.UTC(2024, 0, 1);
  const cashFlows: CashFlowRecord[] = [
    { ts: start + 8 * HOUR, kind: 'FUNDING_FEE', asset: 'USDT', amount: D('-1.02'), sym: SYM },
    { ts: start + 9 * HOUR, kind: 'DEDUCT_INTEREST', asset: 'USDT', amount: D('-0.1') },
    { ts: start + 16 * HOUR, kind: 'FUNDING_FEE', asset: 'USDT', amount: D('0.5'), sym: SYM },
  ];
  const liquidations: LiquidationRecord[] = [
    {
      liquidationEventId: 'SIM-L-9',
      eventType: 'FULL_LIQUIDATION',
      ts: start + 30 * HOUR,
      equityBefore: D('4.5'),
      maintenanceMargin: D('4.6'),
      equityAfter: D('-6.83125'),
      fills: [
        { orderId: 'SIM-O-10', sym: SYM, side: 'SELL', quantity: D(1), price: D('1000'), fee: D('12.5') },
      ],
    },
  ];
  return {
    ...base,
    cashFlows,
    liquidations,
    metrics: computeMetrics({
      equityCurve: base.equityCurve,
      trades: base.trades,
      openTrades: base.openTrades,
      fills: base.fills,
      buyAndHold: { prices: base.prices },
      cashFlows,
      liquidations,
      accountCurrency: 'USDT',
    }),
  };
}

/**
 * A result with algo orders and denied intents added: a stop-loss leg of the result's first order
 * that fired, a standalone trigger moved once and then cancelled, and two denials (risk, kernel).
 * Texts a strategy chose (refs, reasons) may be overridden, e.g. with hostile HTML.
 * @param result - the result to add them to
 * @param text - the ref of the cancelled trigger and the reason of the risk denial
 * @returns the result with `algoOrders` and `denials`
 */
export function withAlgoOrdersAndDenials(result: BacktestResult, text = 'moved-stop'): BacktestResult {
  const entry = [...result.orders][0];
  const t = entry?.createAt ?? Date.UTC(2024, 0, 1);
  const base = {
    portfolioId: 'p1',
    strategyId: 's1',
    sym: SYM,
    side: 'SELL' as const,
    triggerType: 'LastPrice' as const,
    price: ZERO,
    qty: D(1),
    reduceOnly: true,
    positionSide: 'NONE' as const,
  };
  const leg: AlgoOrderRecord = {
    ...base,
    algoOrderId: 'A-1',
    clientAlgoOrderId: `${entry?.clientOrderId ?? 'o'}-sl`,
    algoOrderType: 'TP_SL',
    conditionType: 'LTE',
    triggerPrice: D(39_000),
    state: 'TRIGGERED',
    orderId: 'O-SL',
    ...(entry === undefined ? {} : { attachedOrderId: entry.orderId }),
    createAt: t,
    updateAt: t + HOUR,
    steps: [
      { ts: t, state: 'NEW', triggerPrice: D(39_000), price: ZERO, qty: D(1) },
      { ts: t + HOUR, state: 'TRIGGERED', triggerPrice: D(39_000), price: ZERO, qty: D(1) },
    ],
  };
  const trigger: AlgoOrderRecord = {
    ...base,
    algoOrderId: 'A-2',
    clientAlgoOrderId: text,
    algoOrderType: 'TRIGGER',
    conditionType: 'GTE',
    triggerPrice: D(45_000),
    state: 'CANCELLED',
    createAt: t,
    updateAt: t + 2 * HOUR,
    steps: [
      { ts: t, state: 'NEW', triggerPrice: D(44_000), price: ZERO, qty: D(1) },
      { ts: t + HOUR, state: 'NEW', triggerPrice: D(45_000), price: ZERO, qty: D(1) },
      { ts: t + 2 * HOUR, state: 'CANCELLED', triggerPrice: D(45_000), price: ZERO, qty: D(1) },
    ],
  };
  const denials: DenialRecord[] = [
    {
      ts: t,
      strategyId: 's1',
      intentKind: 'placeOrder',
      ref: 's1-9',
      sym: SYM,
      source: 'risk',
      check: 'submitRate',
      reason: text,
    },
    {
      ts: t + HOUR,
      strategyId: 's1',
      intentKind: 'cancelAlgoOrder',
      ref: 's1-10',
      source: 'kernel',
      check: 'kernel.ownership',
      reason: 'order x was not placed by strategy s1',
    },
  ];
  return { ...result, algoOrders: [leg, trigger], denials };
}

/**
 * A result whose trailing stops can be read once and fail when read again: `result.json` (read
 * first) is written whole, and the CSV of trailing stops (written last) fails, as a run stopped
 * while writing its files does.
 * @param bars - bars of the result (see {@link aBacktestResult})
 * @returns the result, and the error its second read throws says `stopped while writing`
 */
export function aResultFailingAtItsLastFile(bars = 200): BacktestResult {
  let reads = 0;
  const trailingStops = {
    [Symbol.iterator]() {
      reads++;
      if (reads > 1) throw new Error('stopped while writing');
      return [][Symbol.iterator]();
    },
  };
  return { ...aBacktestResult(bars), trailingStops } as unknown as BacktestResult;
}
