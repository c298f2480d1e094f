import { D } from '../../core/model/index.ts';
import type { PortfolioView } from './account-view.ts';

/** A record of a view, as read back from the snapshot's JSON or built now. */
type ViewRecord = Readonly<Record<string, unknown>>;

/**
 * One kind of record the check compares: where a portfolio's view lists them, how each is keyed
 * and named, and the fields a client was told and holds the venue to (what marks move, such as a
 * position's unrealized PnL or liqPrice, is left out: it is no part of what the venue acknowledged).
 */
interface LedgerList {
  /** The records of a portfolio's view; undefined when the view has no such list (an older Keel's). */
  readonly records: (portfolio: ViewRecord) => readonly ViewRecord[] | undefined;
  readonly key: (record: ViewRecord) => string;
  readonly name: (record: ViewRecord) => string;
  readonly summary: (record: ViewRecord) => string;
  readonly fields: readonly string[];
  /** Whether the record holds anything (a flat position or an unmoved balance is the same as none). */
  readonly holds?: (record: ViewRecord) => boolean;
}

/** The field a balance is compared by: its change since the portfolio started. */
const CHANGE = 'change';

const DECIMAL = /^-?\d+(\.\d+)?$/;

const text = (record: ViewRecord, field: string): string => String(record[field] ?? '');
const nonZero = (field: string) => (record: ViewRecord) => !isZero(record[field]);
const listOf = (field: string) => (portfolio: ViewRecord) => {
  const list = portfolio[field];
  return Array.isArray(list) ? (list as unknown[]).filter(isRecord) : undefined;
};

const LEDGER: readonly LedgerList[] = [
  {
    records: listOf('orders'),
    key: (o) => text(o, 'orderId'),
    name: (o) => `order ${text(o, 'orderId')} (clientOrderId ${text(o, 'clientOrderId')})`,
    summary: (o) =>
      `${text(o, 'orderState')} ${text(o, 'orderType')} ${text(o, 'side')} ${text(o, 'orderQty')} ${text(o, 'sym')}` +
      (isZero(o.executedQty) ? '' : `, ${text(o, 'executedQty')} filled at ${text(o, 'executedAvgPrice')}`),
    fields: [
      'clientOrderId',
      'sym',
      'side',
      'orderType',
      'orderState',
      'orderQty',
      'limitPrice',
      'executedQty',
      'executedAvgPrice',
      'fee',
    ],
  },
  {
    records: listOf('executions'),
    key: (e) => text(e, 'transactionId'),
    name: (e) => `execution ${text(e, 'transactionId')} of order ${text(e, 'orderId')}`,
    summary: (e) => `${text(e, 'side')} ${text(e, 'quantity')} ${text(e, 'sym')} at ${text(e, 'price')}`,
    fields: ['orderId', 'sym', 'side', 'quantity', 'price', 'fee'],
  },
  {
    records: listOf('positions'),
    key: (p) => `${text(p, 'sym')} ${text(p, 'positionSide')}`,
    name: (p) =>
      `the ${text(p, 'sym')} position${text(p, 'positionSide') === 'NONE' ? '' : ` (${text(p, 'positionSide')})`}`,
    summary: (p) => `${text(p, 'positionQty')} at ${text(p, 'avgPrice')}`,
    fields: ['positionQty', 'avgPrice'],
    holds: nonZero('positionQty'),
  },
  {
    // What the journal moved each balance by: a venue restarted with other starting balances (its
    // configuration, not its journal) is not taken for another account.
    records: (portfolio) => {
      const assets = listOf('assets')(portfolio);
      return assets === undefined ? undefined : balanceChanges(assets, portfolio.startingBalances);
    },
    key: (a) => text(a, 'coin'),
    name: (a) => `the ${text(a, 'coin')} balance`,
    summary: (a) => `${text(a, CHANGE)} since the start`,
    fields: [CHANGE],
    holds: nonZero(CHANGE),
  },
  {
    records: listOf('loans'),
    key: (l) => `${text(l, 'exchange')}:${text(l, 'coin')}`,
    name: (l) => `the ${text(l, 'coin')} loan`,
    summary: (l) => `principal ${text(l, 'principal')}`,
    fields: ['principal'],
    holds: nonZero('principal'),
  },
];

/**
 * The first way an account rebuilt by replaying a data dir's journal differs from the one the
 * venue saved at close (the snapshot's `view`): an order, execution, position, balance or loan the
 * saved venue held and the replay does not, one the replay made that it did not hold, or an
 * acknowledged field of one (state, quantities, prices, fee; a balance's change since the
 * portfolio started) that differs. Amounts are compared as numbers ("0.10" is "0.1"). What the
 * saved view does not list (a list or field an older Keel did not write, a portfolio this venue
 * runs without) is not compared; a difference found while the venue runs without a saved
 * portfolio says so, as the likely cause.
 * @param saved - the snapshot's `view`, as read back (unchecked JSON)
 * @param rebuilt - the replayed venue's view
 * @returns the first difference, in words; undefined when the replay rebuilt what was saved
 */
export function firstAccountDifference(
  saved: unknown,
  rebuilt: readonly PortfolioView[],
): string | undefined {
  if (!Array.isArray(saved)) return undefined;
  const rebuiltById = new Map(rebuilt.map((view) => [view.portfolioId, view as unknown as ViewRecord]));
  const savedPortfolios = (saved as unknown[]).filter(isRecord);
  const leftOut = savedPortfolios
    .map((portfolio) => portfolio.portfolioId)
    .filter((id) => typeof id === 'string' && !rebuiltById.has(id));
  // A portfolio left out leaves its commands unrun, and the loan pool and quotas are shared.
  const cause =
    leftOut.length === 0
      ? ''
      : ` (this venue runs without portfolio ${leftOut.join(', ')}, whose journaled commands stay ` +
        'unrun: a loan pool or quota shared with it can make the others run otherwise)';
  for (const savedPortfolio of savedPortfolios) {
    const id = savedPortfolio.portfolioId;
    const now = typeof id === 'string' ? rebuiltById.get(id) : undefined;
    if (now === undefined) continue;
    for (const ledger of LEDGER) {
      const savedRecords = ledger.records(savedPortfolio);
      if (savedRecords === undefined) continue;
      const difference = firstListDifference(ledger, savedRecords, ledger.records(now) ?? []);
      if (difference !== undefined) return `portfolio ${id}: ${difference}${cause}`;
    }
  }
  return undefined;
}

function firstListDifference(
  ledger: LedgerList,
  saved: readonly ViewRecord[],
  rebuilt: readonly ViewRecord[],
): string | undefined {
  const holds = ledger.holds ?? (() => true);
  const left = new Map<string, ViewRecord>();
  for (const record of rebuilt) if (holds(record)) left.set(ledger.key(record), record);
  for (const record of saved) {
    if (!holds(record)) continue;
    const key = ledger.key(record);
    const now = left.get(key);
    if (now === undefined)
      return `${ledger.name(record)}, held when saved, is not in the replay: ${ledger.summary(record)}`;
    left.delete(key);
    for (const field of ledger.fields) {
      if (!(field in record) || sameValue(record[field], now[field])) continue;
      return `${ledger.name(record)}: ${field} ${String(record[field])} when saved, ${String(now[field] ?? 'none')} in the replay`;
    }
  }
  for (const record of left.values())
    return `the replay made ${ledger.name(record)}, which the saved venue did not hold: ${ledger.summary(record)}`;
  return undefined;
}

/** Each balance less the portfolio's starting balance of its coin (none: 0). */
function balanceChanges(assets: readonly ViewRecord[], starting: unknown): ViewRecord[] {
  const startOf = (coin: string): string => {
    const value = isRecord(starting) ? starting[coin] : undefined;
    return typeof value === 'string' && DECIMAL.test(value) ? value : '0';
  };
  return assets.flatMap((asset) => {
    const balance = asset.balance;
    if (typeof balance !== 'string' || !DECIMAL.test(balance)) return [];
    const coin = text(asset, 'coin');
    return [{ coin, [CHANGE]: D(balance).minus(startOf(coin)).toFixed() }];
  });
}

function isRecord(value: unknown): value is ViewRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameValue(saved: unknown, now: unknown): boolean {
  if (saved === now) return true;
  if (typeof saved !== 'string' || typeof now !== 'string') return false;
  return DECIMAL.test(saved) && DECIMAL.test(now) && D(saved).eq(D(now));
}

function isZero(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && DECIMAL.test(value) && D(value).isZero());
}
