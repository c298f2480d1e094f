import {
  type AlgoChildGivenUp,
  AWAITING_ALGO_CHILD_MS,
  AWAITING_ALGO_CHILDREN_KEPT,
  FILL_AWAITING_ORDER_MS,
  type FillGivenUp,
  type GivenUpCause,
} from '../../core/kernel/index.ts';

/** How many algo orders, and how many orders, the warnings name one by one; the rest are counted. */
export const GIVEN_UP_WARNINGS_NAMED = 20;

/** What was given up of one algo order's orders, or of one order's fills. */
interface GivenUpGroup {
  readonly sym: string;
  /** The orders (or fills) given up, by why. */
  readonly byCause: Record<GivenUpCause, number>;
  /** The updates and fills held for the orders and dropped with them (algo orders only). */
  dropped: number;
}

/**
 * The result's warnings of what the kernel gave up to no strategy: one line per algo order the
 * venue never reported, for all the orders it sent (`Kernel.algoChildrenGivenUp`), and one per
 * order whose first update never came, for all its fills that came before
 * (`Kernel.fillsGivenUp`). Each says how many were given up after the wait and how many were
 * pushed out by newer ones first (orders, or the updates and fills held for them). The first {@link GIVEN_UP_WARNINGS_NAMED} of each are named; the
 * rest are counted in one more line.
 */
export class GivenUpWarnings {
  private readonly algoOrders = new Map<string, GivenUpGroup>();
  private readonly orders = new Map<string, GivenUpGroup>();
  private algoOrdersUnnamed = 0;
  private ordersUnnamed = 0;

  /**
   * Counts an order given up waiting for its algo order.
   * @param report - the kernel's report
   */
  algoChild(report: AlgoChildGivenUp): void {
    const group = groupOf(this.algoOrders, report.algoOrderId, report.sym);
    if (group === undefined) {
      this.algoOrdersUnnamed++;
      return;
    }
    group.byCause[report.cause]++;
    group.dropped += report.dropped;
  }

  /**
   * Counts a fill given up waiting for its order's first update.
   * @param report - the kernel's report
   */
  fill(report: FillGivenUp): void {
    const group = groupOf(this.orders, report.orderId, report.sym);
    if (group === undefined) this.ordersUnnamed++;
    else group.byCause[report.cause]++;
  }

  /** @returns the warnings, algo orders first, each in the order first given up */
  warnings(): string[] {
    const lines: string[] = [];
    for (const [algoOrderId, group] of this.algoOrders)
      lines.push(
        `algo order ${algoOrderId} on ${group.sym} was never reported by the venue (placed by hand, or its report was lost): ` +
          `${total(group)} order(s) it sent were given up to no strategy (${causes(group, AWAITING_ALGO_CHILD_MS)}), ` +
          `with ${group.dropped} update(s) and fill(s) held for them`,
      );
    if (this.algoOrdersUnnamed > 0)
      lines.push(
        `${this.algoOrdersUnnamed} more order(s) of other algo orders the venue never reported were given up to no strategy`,
      );
    for (const [orderId, group] of this.orders)
      lines.push(
        `order ${orderId} on ${group.sym}: ${total(group)} fill(s) came before its first update, ` +
          `which never came, and were given up to no strategy (${causes(group, FILL_AWAITING_ORDER_MS)})`,
      );
    if (this.ordersUnnamed > 0)
      lines.push(
        `${this.ordersUnnamed} more fill(s) of other orders whose first update never came were given up to no strategy`,
      );
    return lines;
  }
}

/** The group of `id`, made at its first report; undefined when it is not named (too many are). */
function groupOf(groups: Map<string, GivenUpGroup>, id: string, sym: string): GivenUpGroup | undefined {
  const known = groups.get(id);
  if (known !== undefined || groups.size >= GIVEN_UP_WARNINGS_NAMED) return known;
  const group: GivenUpGroup = { sym, byCause: { timeout: 0, capacity: 0, backlog: 0 }, dropped: 0 };
  groups.set(id, group);
  return group;
}

function total(group: GivenUpGroup): number {
  return group.byCause.timeout + group.byCause.capacity + group.byCause.backlog;
}

/**
 * E.g. `2 after waiting 10 s, 1 pushed out by 1000 newer ones first, 1 whose updates and fills
 * were pushed out by 1000 newer ones held first`.
 */
function causes(group: GivenUpGroup, waitMs: number): string {
  const parts: string[] = [];
  if (group.byCause.timeout > 0) parts.push(`${group.byCause.timeout} after waiting ${waitMs / 1000} s`);
  if (group.byCause.capacity > 0)
    parts.push(`${group.byCause.capacity} pushed out by ${AWAITING_ALGO_CHILDREN_KEPT} newer ones first`);
  if (group.byCause.backlog > 0)
    parts.push(
      `${group.byCause.backlog} whose updates and fills were pushed out by ${AWAITING_ALGO_CHILDREN_KEPT} newer ones held first`,
    );
  return parts.join(', ');
}
