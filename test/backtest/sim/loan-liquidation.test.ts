import { describe, expect, it } from 'vitest';
import type { LoanOptions } from '../../../backtest/sim/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { D, LIQUIDATION_NODE_TYPES } from '../../../core/model/index.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { aBar, aMarket, aSim, aTrade, type SimUnderTest } from '../../kit/sim-builders.ts';

const HOUR = 3_600_000;
const ETH = 'OKX_SPOT_ETH_USDT';
/** ETH/USDT spot: taker 10 bps, liquidation fee 0.5 %, tick 0.01, lot 0.001. */
const ethSpot = anEthSpot({ tickSize: D('0.01') });

/** ETH at 87.6 % a year (0.0001 ETH per ETH and hour), USDT at 8.76 % (0.00001 per hour); maintenance 5 % of loan value. */
const LOANS: LoanOptions = {
  assets: {
    'OKX:ETH': { annualRate: D('0.876'), userQuota: D('100'), pool: D('100') },
    'OKX:USDT': { annualRate: D('0.0876'), userQuota: D('100000'), pool: D('100000') },
  },
  maxBorrowLtv: D('0.5'),
  maintenanceMarginRate: D('0.05'),
};

function borrow(ref: string, amount: string, coin: string): Intent {
  return { kind: 'borrow', ref, exchange: 'OKX', coin, amount: D(amount) };
}

const spot = (ref: string, side: 'BUY' | 'SELL', qty: string) => aMarket(ref, side, qty, { sym: ETH });
const ethTrade = (ts: number, price: number) => aTrade(ts, price, 100, 'BUY', ETH);

function aLoanSim(overrides: Parameters<typeof aSim>[0] = {}): SimUnderTest {
  return aSim({ instruments: [ethSpot], startingBalances: { USDT: D('1000') }, loans: LOANS, ...overrides });
}

/**
 * 1000 USDT; borrow 5 ETH at 100 and sell them (a short financed by the loan): USDT 1000 + 500 -
 * 0.5 fee = 1499.5, ETH 0, loan 5 ETH. Two hours of interest (5 x 0.0001 an hour) take ETH to
 * -0.001. Equity at ETH price p: 1499.5 - 5.001 p; maintenance 5 x p x 5 % = 0.25 p; liquidation
 * when p > 1499.5 / 5.251 = 285.5646.
 */
function aLoanFinancedShort(overrides: Parameters<typeof aSim>[0] = {}): SimUnderTest {
  const t = aLoanSim(overrides);
  t.sim.onMarket(ethTrade(0, 100));
  t.send(borrow('b', '5', 'ETH'), spot('s', 'SELL', '5'));
  t.sim.advanceTo(1);
  t.sim.onMarket(ethTrade(2 * HOUR, 200));
  return t;
}

async function balances(t: SimUnderTest): Promise<Record<string, string>> {
  const { assets } = await t.sim.snapshot();
  return Object.fromEntries(assets.map((a) => [a.coin, a.balance.toFixed()]));
}

describe('sim venue: liquidation of loans (spot positions financed by borrowing)', () => {
  it('liquidates a short financed by an ETH loan when ETH rallies: buys back principal and interest at the mark, pays the liquidation fee, repays (hand-computed)', async () => {
    const t = aLoanFinancedShort();
    expect(await balances(t)).toEqual({ USDT: '1499.5', ETH: '-0.001' });
    // at 285: equity 1499.5 - 1425.285 = 74.215 >= MM 71.25, risk ratio 0.96 >= 0.8: a margin call only
    t.sim.onMarket(ethTrade(2 * HOUR + 1, 285));
    expect(t.of('liquidationEvent')).toHaveLength(0);
    expect(t.of('account').at(-1)?.account.accountStatus).toBe('MARGIN_CALL');
    // at 290: equity 1499.5 - 1450.29 = 49.21 < MM 72.5
    t.sim.onMarket(ethTrade(2 * HOUR + 2, 290));
    const nodes = t.of('liquidationEvent').map((e) => e.record);
    expect(nodes.map((n) => n.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
    expect(nodes[0]?.eventType).toBe('FULL_LIQUIDATION');
    expect([nodes[0]?.equity.toFixed(), nodes[0]?.maintainMargin.toFixed()]).toEqual(['49.21', '72.5']);
    expect(nodes[0]?.timestamp).toBe(2 * HOUR + 2);
    // buys back 5 principal + 0.001 interest owed = 5.001 ETH at 290 = 1450.29; fee 0.5 % = 7.25145
    const records = t.of('liquidationPosition');
    expect(records.map((e) => e.byUser)).toEqual([false, true]);
    const record = records[0]?.record;
    expect([
      record?.sym,
      record?.side,
      record?.quantity.toFixed(),
      record?.price.toFixed(),
      record?.liquidationFee.toFixed(),
    ]).toEqual([ETH, 'BUY', '5.001', '290', '7.25145']);
    // the holding lost the 0.001 ETH the interest took: short 5.001 when taken over
    expect(record?.position.positionQty.toFixed()).toBe('-5.001');
    // USDT 1499.5 - 1450.29 - 7.25145 = 41.95855; ETH -0.001 + 5.001 - 5 repaid = 0; no loan left
    expect(await balances(t)).toEqual({ USDT: '41.95855', ETH: '0' });
    expect(t.sim.loanRisk().totalLoanValue.toFixed()).toBe('0');
    expect(t.of('loan').at(-1)?.loan.principal.toFixed()).toBe('0');
    // final equity = 49.21 before, less the fee
    expect(t.sim.equity().toFixed()).toBe('41.95855');
    expect(t.sim.ledger().liquidationFees.toFixed()).toBe('7.25145');
    expect(t.sim.statement().map((f) => `${f.type} ${f.coin} ${f.amount.toFixed()} ${f.ts}`)).toEqual([
      'BORROW ETH 5 0',
      `DEDUCT_INTEREST ETH -0.0005 ${HOUR}`,
      `DEDUCT_INTEREST ETH -0.0005 ${2 * HOUR}`,
      `LIQUIDATION_FEE USDT -7.25145 ${2 * HOUR + 2}`,
      `REPAY ETH -5 ${2 * HOUR + 2}`,
    ]);
    // the buy-back closes the holding: sold 5, 0.001 taken by the interest, 5.001 bought; as the
    // ETH balance, it holds nothing, and an end-of-run close has nothing to sell
    expect((await t.sim.snapshot()).positions).toEqual([]);
    // the account passed through LIQUIDATION and is NORMAL again
    expect(t.of('account').some((e) => e.account.accountStatus === 'LIQUIDATION')).toBe(true);
    expect(t.of('account').at(-1)?.account.accountStatus).toBe('NORMAL');
  });

  it('liquidates a long financed by a USDT loan when ETH crashes: sells just enough ETH to repay, keeps the rest (hand-computed)', async () => {
    const t = aLoanSim();
    t.sim.onMarket(ethTrade(0, 100));
    // borrow 1000 USDT (LTV 1000 / 2000 = 0.5), buy 19 ETH at 100: USDT 2000 - 1900 - 1.9 = 98.1
    t.send(borrow('b', '1000', 'USDT'), spot('l', 'BUY', '19'));
    t.sim.advanceTo(1);
    // one hour of interest 1000 x 0.00001 = 0.01: USDT 98.09
    t.sim.onMarket(ethTrade(HOUR, 60));
    expect(await balances(t)).toEqual({ USDT: '98.09', ETH: '19' });
    expect(t.of('liquidationEvent')).toHaveLength(0);
    // at 50: equity 98.09 + 950 - 1000 = 48.09 < MM 1000 x 5 % = 50
    t.sim.onMarket(ethTrade(HOUR + 1, 50));
    const nodes = t.of('liquidationEvent').map((e) => e.record);
    expect(nodes.map((n) => n.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
    expect([nodes[0]?.equity.toFixed(), nodes[0]?.maintainMargin.toFixed()]).toEqual(['48.09', '50']);
    // needs 1000 - 98.09 = 901.91 USDT: 901.91 / (50 x 0.995) = 18.1288 -> 18.129 ETH on the lot;
    // proceeds 906.45, fee 4.53225
    const record = t.of('liquidationPosition')[0]?.record;
    expect([
      record?.side,
      record?.quantity.toFixed(),
      record?.price.toFixed(),
      record?.liquidationFee.toFixed(),
    ]).toEqual(['SELL', '18.129', '50', '4.53225']);
    // USDT 98.09 + 906.45 - 4.53225 - 1000 repaid = 0.00775; ETH 19 - 18.129 = 0.871
    expect(await balances(t)).toEqual({ USDT: '0.00775', ETH: '0.871' });
    expect(t.sim.loanRisk().totalLoanValue.toFixed()).toBe('0');
    // equity 48.09 - 4.53225 = 0.00775 + 0.871 x 50
    expect(t.sim.equity().toFixed()).toBe('43.55775');
    expect(
      t.sim
        .statement()
        .slice(-2)
        .map((f) => `${f.type} ${f.coin} ${f.amount.toFixed()}`),
    ).toEqual(['LIQUIDATION_FEE USDT -4.53225', 'REPAY USDT -1000']);
  });

  it('buys back on the SHORT leg in BOTH mode, the interest part too: the interest grew that leg', async () => {
    const t = aLoanSim({ positionMode: 'BOTH' });
    t.sim.onMarket(ethTrade(0, 100));
    t.send(borrow('b', '5', 'ETH'), aMarket('s', 'SELL', '5', { sym: ETH, positionSide: 'SHORT' }));
    t.sim.advanceTo(1);
    t.sim.onMarket(ethTrade(2 * HOUR, 200));
    t.sim.onMarket(ethTrade(2 * HOUR + 1, 290));
    // 5.001 bought as in NET mode, all on the SHORT leg: 5 sold and 0.001 taken by the interest
    const records = t.of('liquidationPosition').filter((e) => !e.byUser);
    expect(
      records.map((e) => `${e.record.side} ${e.record.quantity.toFixed()} ${e.record.position.positionSide}`),
    ).toEqual(['BUY 5.001 SHORT']);
    expect(records.map((e) => e.record.liquidationFee.toFixed())).toEqual(['7.25145']);
    expect((await t.sim.snapshot()).positions).toEqual([]);
    expect(await balances(t)).toEqual({ USDT: '41.95855', ETH: '0' });
  });

  it('refuses a borrow or repay sent while the loans are frozen in liquidation (406021)', () => {
    const t = aLoanFinancedShort();
    t.sim.events.subscribe((event) => {
      if (event.kind !== 'liquidationEvent' || event.record.nodeType !== 'LOANS_FROZEN') return;
      // a command that reaches the venue while the process runs (zero latency: it arrives now)
      t.send({ kind: 'repay', ref: 'r', exchange: 'OKX', coin: 'ETH', amount: D('1') });
      t.sim.advanceTo(t.sim.now());
    });
    t.sim.onMarket(ethTrade(2 * HOUR + 1, 290));
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['r', 406021]]);
    expect(t.of('liquidationPosition')).toHaveLength(2);
  });

  it('liquidates a loan-financed short inside a bar at the first tick past the crossing, not at the close', async () => {
    const t = aLoanSim({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 100, 100, 100, 100, ETH));
    t.send(borrow('b', '5', 'ETH'), spot('s', 'SELL', '5'));
    t.sim.advanceTo(60_001);
    t.sim.onMarket(aBar(120_000, 100, 100, 100, 100, ETH)); // sells 5 at the open 100: USDT 1499.5
    expect(await balances(t)).toEqual({ USDT: '1499.5', ETH: '0' });
    // equity 1499.5 - 5 p < 0.25 p when p > 285.619: the first tick past it is 285.62
    t.sim.onMarket(aBar(180_000, 200, 300, 200, 210, ETH));
    const record = t.of('liquidationPosition')[0]?.record;
    // 5 x 285.62 = 1428.1, fee 7.1405
    expect([record?.side, record?.quantity.toFixed(), record?.price.toFixed()]).toEqual([
      'BUY',
      '5',
      '285.62',
    ]);
    expect(await balances(t)).toEqual({ USDT: '64.2595', ETH: '0' });
  });
});
