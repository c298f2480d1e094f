import type { Kernel } from '../../core/kernel/index.ts';

/**
 * Warnings for the orders a strategy's position close may have made that went to no strategy:
 * the venue names a close's order as it likes (the close request carries no reference), so the
 * kernel tells it by its leg, and gives it to nobody when it cannot be sure whose it is (see
 * `InFlightCloses`). The strategy was not told of the order or its fills (`onOrder`, `onFill`,
 * `closeRef`), though its position moved.
 * @param kernel - the run's kernel, after the run
 * @returns one sentence per leg, strategies and reason
 */
export function unattributedCloseWarnings(kernel: Kernel): string[] {
  return kernel.unattributedCloseOrders().map((left) => {
    const leg = left.positionSide === 'NONE' ? left.sym : `${left.sym} ${left.positionSide}`;
    const orders =
      left.count === 1
        ? `the order ${left.firstOrder}`
        : `${left.count} orders (the first ${left.firstOrder})`;
    const strategies = left.owners.join(' and ');
    const why =
      left.reason === 'ambiguous'
        ? `${strategies} were closing that leg at once, and the venue's close orders cannot be told apart (on a live venue the spec does not say when a close's order is made; a backtest or paper run gives it to the close sent first)`
        : `it may be the order of ${strategies}'s close, which had ended before the order came (a report of the position came first, or the close's outcome was unknown, or another close's order on the leg could not be told from its own)`;
    return `${orders} closing ${leg} went to no strategy: ${why}; ${strategies} heard nothing of it (onOrder, onFill, closeRef), though the position moved`;
  });
}
