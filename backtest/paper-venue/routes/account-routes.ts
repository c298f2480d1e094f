import type { Dec, InstrumentSpec } from '../../../core/model/index.ts';
import { D, formatDecimal } from '../../../core/model/index.ts';
import type { EndpointName, FeeRateWire, SymInfoWire } from '../../../core/venue/index.ts';
import { MAX_FEE_RATE_PORTFOLIOS } from '../../../core/venue/index.ts';
import { badParameter } from '../envelope.ts';
import { pageOf, RECENT_WINDOW, windowed } from '../paging.ts';
import type { PortfolioBook } from '../portfolio-book.ts';
import { optionalList, optionalText, requiredText } from '../request-fields.ts';
import { accountToWire, decimalsAsText } from '../wire-views.ts';
import { withdrawAvailable } from '../withdraw-available.ts';
import { requireReadable, visibleBooks } from './portfolio-access.ts';
import type { RouteContext, RouteHandler } from './route-context.ts';

function symInfo(spec: InstrumentSpec): SymInfoWire {
  return decimalsAsText({
    sym: spec.sym,
    state: spec.state,
    pricePrecision: spec.pricePrecision,
    qtyPrecision: spec.qtyPrecision,
    tickSize: spec.tickSize,
    lotSize: spec.lotSize,
    minSize: spec.minSize,
    minNotional: spec.minNotional,
    maxLimitSize: spec.maxLimitSize,
    maxMarketSize: spec.maxMarketSize,
    maxNumOrders: spec.maxNumOrders,
    contractSize: spec.contractSize,
    defaultLeverage: spec.defaultLeverage,
    liquidationFee: spec.liquidationFee,
  }) as SymInfoWire;
}

/**
 * A portfolio's fee rate with its symbol groups (spec: fee-rate endpoints carry the list of
 * symbols of each fee group). Groups are the instruments sharing one maker / taker rate.
 */
function feeRate(
  book: PortfolioBook,
  instruments: readonly InstrumentSpec[],
  syms?: readonly string[],
): FeeRateWire {
  const markup: Dec = book.markup ?? D(0);
  const groups = new Map<string, { maker: Dec; taker: Dec; syms: string[] }>();
  for (const spec of instruments) {
    if (syms !== undefined && !syms.includes(spec.sym)) continue;
    const maker = spec.fees.maker.plus(spec.fees.markup).plus(markup);
    const taker = spec.fees.taker.plus(spec.fees.markup).plus(markup);
    const key = `${maker.toFixed()}|${taker.toFixed()}`;
    const group = groups.get(key) ?? { maker, taker, syms: [] };
    group.syms.push(spec.sym);
    groups.set(key, group);
  }
  const list = [...groups.values()];
  const first = list[0];
  return {
    portfolioId: book.portfolioId,
    ...(first ? { makerFeeRate: formatDecimal(first.maker), takerFeeRate: formatDecimal(first.taker) } : {}),
    markup: formatDecimal(markup.mul(10_000)),
    groups: list.map((g, i) => ({
      groupName: i === 0 ? 'DEFAULT' : `GROUP_${i + 1}`,
      makerFeeRate: formatDecimal(g.maker),
      takerFeeRate: formatDecimal(g.taker),
      syms: g.syms,
    })),
  };
}

async function tradingAccount(context: RouteContext): Promise<unknown> {
  const snapshot = await context.book.sim.snapshot();
  if (!snapshot.account) throw badParameter(context.where, 'the portfolio has no account yet');
  const account = { ...snapshot.account, positionMode: context.book.positionMode };
  return accountToWire(account, context.accountAssets ? snapshot.assets : undefined);
}

function feeRates(context: RouteContext): unknown {
  const ids = optionalList(context.params, 'portfolioIds', context.where);
  const syms = optionalList(context.params, 'syms', context.where);
  if (ids !== undefined && ids.length > MAX_FEE_RATE_PORTFOLIOS) {
    throw badParameter(
      `${context.where} portfolioIds`,
      `has ${ids.length} portfolios, at most ${MAX_FEE_RATE_PORTFOLIOS}`,
    );
  }
  const main = [...context.books.values()].find((b) => b.isMain) ?? context.book;
  // Without desired symbols the spec returns only the main portfolio's rate.
  if (syms === undefined) return [feeRate(main, context.instruments)];
  const books = (ids ?? [context.book.portfolioId]).map((id) => {
    requireReadable(context, id, 'portfolioIds');
    const book = context.books.get(id);
    if (!book)
      throw badParameter(`${context.where} portfolioIds`, `${id} is not a portfolio of this account`);
    return book;
  });
  return books.map((book) => feeRate(book, context.instruments, syms));
}

function collectionRecords(context: RouteContext): unknown {
  const subId = optionalText(context.params, 'subPortfolioId', context.where);
  const sym = optionalText(context.params, 'sym', context.where);
  if (subId !== undefined) requireReadable(context, subId, 'subPortfolioId');
  const rows = visibleBooks(context)
    .filter((b) => !b.isMain && (subId === undefined || b.portfolioId === subId))
    .flatMap((b) =>
      b.executions.flatMap((e) => {
        // The markup part of the fee as the sim charged it (notional x the markup of its time).
        const markup = b.markupCharged.get(e.transactionId);
        if (markup === undefined || (sym !== undefined && e.sym !== sym)) return [];
        return [
          {
            sym: e.sym,
            feePrice: formatDecimal(e.price),
            subPortfolioId: b.portfolioId,
            fee: formatDecimal(markup),
            feeCoin: e.feeCoin,
            createAt: e.timestamp,
          },
        ];
      }),
    );
  return pageOf(
    windowed(rows, (r) => r.createAt, context.params, RECENT_WINDOW, context.now(), context.where),
    context.params,
    context.where,
  );
}

/**
 * Each coin of the portfolio with what of it may leave the account ({@link withdrawAvailable}: its
 * own free balance, bounded by the free margin and, with loans, the LTV limit).
 */
async function accountCurrencyInfo(context: RouteContext): Promise<unknown> {
  const snapshot = await context.book.sim.snapshot();
  const account = snapshot.account;
  if (!account) throw badParameter(context.where, 'the portfolio has no account yet');
  const risk = context.book.sim.loanRisk();
  return snapshot.assets.map((a) => ({
    coin: a.coin,
    withdrawAvailable: formatDecimal(
      withdrawAvailable(a, context.book.sim.coinValue(a.coin), account, risk, context.loans),
    ),
  }));
}

/** REST routes of the account, symbols, assets, system status and broker fee endpoints. */
export const ACCOUNT_ROUTES: Partial<Record<EndpointName, RouteHandler>> = {
  setPositionMode: (c) => c.execute('setPositionMode'),
  getTradingAccount: tradingAccount,
  getSymInfo: (c) => {
    const sym = optionalText(c.params, 'sym', c.where);
    return c.instruments.filter((s) => sym === undefined || s.sym === sym).map(symInfo);
  },
  getTradeAccounts: (c) =>
    visibleBooks(c).map((b) => ({
      portfolioId: b.portfolioId,
      name: b.isMain ? 'main (paper)' : 'sub-portfolio (paper)',
      positionMode: b.positionMode,
    })),
  getAccountCurrencyInfo: accountCurrencyInfo,
  getCurrencies: async (c) =>
    (await c.book.sim.snapshot()).assets.map((a) => ({
      coin: a.coin,
      network: 'PAPER',
      depositEnable: false,
      withdrawEnable: false,
      transferEnable: false,
      withdrawFee: '0',
      transferFee: '0',
    })),
  // Keel's choice of shape (spec: not shown); the paper venue has no upgrades. `syntheticFeed` is
  // Keel's extension: a live session against this venue labels what it writes SYNTHETIC.
  getSystemStatus: (c) => ({
    status: 'NORMAL',
    message: 'paper venue: no system upgrade scheduled',
    ...(c.syntheticFeed ? { syntheticFeed: true } : {}),
  }),
  getFeeRate: feeRates,
  getSubFeeRate: (c) => feeRate(c.book, c.instruments),
  setSubFeeRate: (c) => c.execute('setSubFeeRate'),
  getSubPortfolioFeeRate: (c) => {
    const id = requiredText(c.params, 'subPortfolioId', c.where);
    requireReadable(c, id, 'subPortfolioId');
    const book = c.books.get(id);
    if (!book || book.isMain)
      throw badParameter(`${c.where} subPortfolioId`, `${id} is not a sub-portfolio of this account`);
    return feeRate(book, c.instruments);
  },
  getCollectionRecords: collectionRecords,
};
