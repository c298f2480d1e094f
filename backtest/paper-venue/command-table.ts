import {
  closePosition,
  closePositions,
  loanCommand,
  setPositionMode,
  setSubFeeRate,
} from './account-commands.ts';
import { cancelAlgoOrder, cancelAllAlgoOrders, placeAlgoOrder, replaceAlgoOrder } from './algo-commands.ts';
import { cancelOrder, cancelOrders, placeEquityOrder, placeOrder, replaceOrder } from './order-commands.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import type { Params } from './request-fields.ts';

/** A command that changes venue state: run live, and again in order when the journal is replayed. */
type Command = (
  books: ReadonlyMap<string, PortfolioBook>,
  book: PortfolioBook,
  params: Params,
  where: string,
) => unknown;

/**
 * Every state-changing command, by name. REST routes and WebSocket actions both go through this
 * table, so the journal (persistence) records one kind of entry whatever the channel.
 */
export const COMMANDS = {
  placeOrder: (_b, book, params, where) => placeOrder(book, params, where),
  placeEquityOrder: (_b, book, params) => placeEquityOrder(book, params),
  replaceOrder: (_b, book, params, where) => replaceOrder(book, params, where),
  cancelOrder: (_b, book, params, where) => cancelOrder(book, params, where),
  cancelOrders: (_b, book, params, where) => cancelOrders(book, params, where),
  closePosition: (_b, book, params, where) => closePosition(book, params, where),
  closePositions: (_b, book, params, where) => closePositions(book, params, where),
  setPositionMode: (_b, book, params, where) => setPositionMode(book, params, where),
  placeAlgoOrder: (_b, book, params, where) => placeAlgoOrder(book, params, where),
  replaceAlgoOrder: (_b, book, params, where) => replaceAlgoOrder(book, params, where),
  cancelAlgoOrder: (_b, book, params, where) => cancelAlgoOrder(book, params, where),
  cancelAllAlgoOrders: (_b, book, params, where) => cancelAllAlgoOrders(book, params, where),
  borrow: (_b, book, params, where) => loanCommand(book, 'borrow', params, where),
  repay: (_b, book, params, where) => loanCommand(book, 'repay', params, where),
  setSubFeeRate: (books, book, params, where) => setSubFeeRate(books, book, params, where),
} as const satisfies Record<string, Command>;

/** The name of a state-changing command. */
export type CommandName = keyof typeof COMMANDS;

/**
 * Commands that are broker settings rather than order entry: they take effect at once, as the
 * sim's `setFeeMarkup` does, whatever the order-entry latency.
 */
export const IMMEDIATE_COMMANDS: ReadonlySet<CommandName> = new Set<CommandName>(['setSubFeeRate']);

/**
 * Whether a name is a command of {@link COMMANDS} (journal entries are checked on reload).
 * @param name - any text
 * @returns true for a command name
 */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
