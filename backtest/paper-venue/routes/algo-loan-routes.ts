import type { Dec } from '../../../core/model/index.ts';
import { D, formatDecimal } from '../../../core/model/index.ts';
import type { EndpointName } from '../../../core/venue/index.ts';
import { loanHeadroom, resolveLoanOptions } from '../../sim/index.ts';
import { algoTarget } from '../algo-commands.ts';
import { badParameter, errorFromReason } from '../envelope.ts';
import { loanLeverage, maxLoanOf } from '../max-loan.ts';
import { NINETY_DAYS, pageOf, windowed } from '../paging.ts';
import { venueLoansOf } from '../portfolio-book.ts';
import { optionalText, requiredText } from '../request-fields.ts';
import { statementEntries } from '../statement-entries.ts';
import { algoOrderToWire, decimalsAsText, liquidationEventToWire } from '../wire-views.ts';
import type { RouteContext, RouteHandler } from './route-context.ts';

async function adlRank(context: RouteContext): Promise<unknown> {
  const sym = optionalText(context.params, 'sym', context.where);
  try {
    const ranks = await context.book.sim.adlRanks(sym);
    return ranks.map((r) => ({
      sym: r.sym,
      positionId: r.positionId,
      positionSide: r.positionSide,
      adlRank: r.rank,
    }));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // The sim's message leads with its code ("401011 the sym..."): the envelope states it once.
    if (typeof code === 'number') throw errorFromReason((error as Error).message, code);
    throw error;
  }
}

function loanTerms(context: RouteContext) {
  return Object.entries(context.loans?.assets ?? {}).map(([key, terms]) => {
    const [exchange = '', coin = ''] = key.split(':');
    return { exchange, coin, terms };
  });
}

function loanRows(context: RouteContext) {
  return [...context.book.loans.values()].map((loan) =>
    decimalsAsText({
      coin: loan.coin,
      exchange: loan.exchange,
      loan: loan.principal,
      interest: loan.interest,
      annualRate: loan.annualRate,
    }),
  );
}

function interestRows(context: RouteContext) {
  return [...context.book.loans.values()].map((loan) =>
    decimalsAsText({
      coin: loan.coin,
      exchange: loan.exchange,
      interest: loan.interest,
      annualRate: loan.annualRate,
    }),
  );
}

// Coins valued at par in the sim count in full; Keel's choice of discount table (spec: not shown).
function discountRows(context: RouteContext) {
  const coins = new Set(loanTerms(context).map((t) => t.coin));
  return [...coins].map((coin) => ({ coin, discountRate: '1' }));
}

/**
 * The portfolio's loan risk as its sim enforces it (`loanRiskOf`): LTV = loan value / (equity +
 * loan value), the loans valued at their coins' prices, net margin value = equity; risk level
 * WARNING from the configured `ltvWarningLevel` on, where borrowing is refused (406020).
 */
function marginLoanInfo(context: RouteContext): unknown {
  const risk = context.book.sim.loanRisk();
  const warningLevel = resolveLoanOptions(context.loans).ltvWarningLevel;
  return decimalsAsText({
    ltv: risk.ltv.toDecimalPlaces(6),
    riskLevel: risk.ltv.gte(warningLevel) ? 'WARNING' : 'NORMAL',
    totalLoanValue: risk.totalLoanValue,
    netMarginValue: risk.netMarginValue,
    loans: context.book.sim.loans().map((l) => ({
      exchange: l.exchange,
      coin: l.coin,
      principal: l.principal,
      interest: l.interest,
    })),
  });
}

/**
 * The largest borrow of each borrowable asset the portfolio would be granted now ({@link maxLoanOf}:
 * the borrow's quota, pool, margin and LTV checks), the quota and pool over the venue's loans.
 */
async function marginMaxLoan(context: RouteContext): Promise<unknown> {
  const snapshot = await context.book.sim.snapshot();
  const account = snapshot.account;
  if (!account) throw badParameter(context.where, 'the portfolio has no account yet');
  const sim = context.book.sim;
  const standing = { account, risk: sim.loanRisk(), coinValue: (coin: string) => sim.coinValue(coin) };
  return loanTerms(context).map(({ exchange, coin, terms }) => {
    const headroom = loanHeadroom(terms, venueLoansOf(context.books), exchange, coin);
    return {
      coin,
      exchange,
      maxLoan: formatDecimal(maxLoanOf(coin, terms, headroom, standing, context.loans)),
    };
  });
}

/** The config rows' `leverage` ({@link loanLeverage}), left out when maxBorrowLtv bounds none. */
function optionalLeverage(context: RouteContext): { leverage?: Dec } {
  const leverage = loanLeverage(context.loans);
  return leverage === undefined ? {} : { leverage };
}

/** The sim's statement types the margin-loan statement lists. */
const LOAN_STATEMENT_TYPES = new Set(['BORROW', 'REPAY', 'DEDUCT_INTEREST', 'LIQUIDATION_FEE']);

/**
 * The sim's borrow, repay, interest and liquidation-fee flows, newest first: the repays include
 * those a liquidation made (no loan order stands for them), so the statement lists every move of
 * the principal, as a backtest's cash flows do. Borrow and repay amounts are written unsigned, as
 * their loan orders are; interest and liquidation fees signed (negative = charged). The ids are
 * the trading statement's (`statement-entries.ts`).
 */
function loanStatement(context: RouteContext): unknown {
  const coin = optionalText(context.params, 'coin', context.where);
  const flows = statementEntries(context.book.sim.statement())
    .filter((f) => LOAN_STATEMENT_TYPES.has(f.type) && (coin === undefined || f.coin === coin))
    .map((f) => ({
      id: f.id,
      type: f.type,
      coin: f.coin,
      amount: formatDecimal(f.type === 'BORROW' || f.type === 'REPAY' ? f.amount.abs() : f.amount),
      exchange: f.exchange,
      createAt: f.ts,
    }));
  return pageOf(
    windowed(flows, (r) => r.createAt, context.params, NINETY_DAYS, context.now(), context.where),
    context.params,
    context.where,
  );
}

/** REST routes of algo orders, ADL rank, liquidation events and loans. */
export const ALGO_LOAN_ROUTES: Partial<Record<EndpointName, RouteHandler>> = {
  placeAlgoOrder: (c) => c.execute('placeAlgoOrder'),
  replaceAlgoOrder: (c) => c.execute('replaceAlgoOrder'),
  cancelAlgoOrder: (c) => c.execute('cancelAlgoOrder'),
  getAlgoOrder: (c) => algoOrderToWire(algoTarget(c.book, c.params, c.where)),
  getOpenAlgoOrders: (c) => {
    if (c.params.attachedOrderId !== undefined)
      throw badParameter(`${c.where} attachedOrderId`, 'is not accepted by this endpoint (spec)');
    return [...c.book.openAlgoIds].flatMap((id) => c.book.algos.get(id) ?? []).map(algoOrderToWire);
  },
  getAlgoOrderHistory: (c) => {
    if (c.params.attachedOrderId !== undefined)
      throw badParameter(`${c.where} attachedOrderId`, 'is not accepted by this endpoint (spec)');
    const sym = optionalText(c.params, 'sym', c.where);
    const algos = [...c.book.algos.values()].filter((a) => sym === undefined || a.sym === sym);
    return pageOf(
      windowed(algos, (a) => a.updateAt, c.params, NINETY_DAYS, c.now(), c.where).map(algoOrderToWire),
      c.params,
      c.where,
    );
  },
  cancelAllAlgoOrders: (c) => c.execute('cancelAllAlgoOrders'),
  getAdlRank: adlRank,
  getLiquidationEvent: (c) => {
    const id = requiredText(c.params, 'liquidationEventId', c.where);
    const nodes = c.book.liquidations.get(id);
    if (!nodes || nodes.length === 0)
      throw badParameter(
        `${c.where} liquidationEventId`,
        `${id} is not a liquidation event of this portfolio`,
      );
    return {
      liquidationEventId: id,
      eventType: nodes[0]?.eventType ?? '',
      nodes: nodes.map(liquidationEventToWire),
    };
  },
  // The pool's own limit (spec: "Maximum loanable quantity of an asset on an exchange", asked by
  // exchange and asset only), not the account's: that is /marginLoan/loan/maxLoan.
  getLoanPool: (c) => {
    const exchange = requiredText(c.params, 'exchange', c.where);
    const asset = requiredText(c.params, 'asset', c.where);
    const terms = c.loans?.assets[`${exchange}:${asset}`];
    const left = terms ? loanHeadroom(terms, venueLoansOf(c.books), exchange, asset).pool : D(0);
    return { exchange, asset, maxLoanable: formatDecimal(D.max(left, 0)) };
  },
  getLoanInfoDetail: loanRows,
  getCoinDiscountDetail: discountRows,
  getUserInterestDetail: interestRows,
  getLoanInfoLegacy: loanRows,
  getCoinDiscountLegacy: discountRows,
  getUserInterestLegacy: interestRows,
  getMarginLoanInfo: marginLoanInfo,
  getMarginLoanConfig: (c) =>
    loanTerms(c).map(({ exchange, coin, terms }) =>
      decimalsAsText({
        coin,
        exchange,
        ...optionalLeverage(c),
        maxBorrowQuota: terms.userQuota,
        maintenanceMarginRate: resolveLoanOptions(c.loans).maintenanceMarginRate,
        annualInterestRate: terms.annualRate,
      }),
    ),
  getMarginMaxLoan: marginMaxLoan,
  marginBorrow: (c) => c.execute('borrow'),
  marginRepay: (c) => c.execute('repay'),
  getMarginLoanOrders: (c) => {
    const coin = optionalText(c.params, 'coin', c.where);
    const rows = c.book.loanOrders.filter((o) => coin === undefined || o.coin === coin);
    return pageOf(
      windowed(rows, (o) => Number(o.createAt ?? 0), c.params, NINETY_DAYS, c.now(), c.where),
      c.params,
      c.where,
    );
  },
  getMarginLoanStatement: loanStatement,
};
