import type { MarketEvent } from '../../model/index.ts';

/** What is wrong with a BBO Keel decoded but did not expect, and whether it is dropped. */
export interface UnexpectedQuote {
  /** The problem as logged: its kind, then `, got` and the values (one log line per kind). */
  readonly problem: string;
  /** true: not delivered (a sym the session never subscribed to); false: delivered all the same. */
  readonly drop: boolean;
}

/**
 * Whether a decoded market event is a BBO Keel does not expect. A BBO of a sym the client has no
 * subscription of is dropped: nothing of the session asked for it, and a strategy or the kernel's
 * marks would take it as that sym's price. A crossed BBO (bid above ask, both set) is delivered
 * (Keel's choice): a venue's book can cross for a moment, and a strategy reads the quote and
 * decides (the built-in ones skip a crossed quote); dropping it would hide a real market from the
 * strategies and the recording. Both are counted unexpected and logged the first time each kind
 * occurs. A locked BBO (bid equal to ask) is not flagged.
 * @param event - the decoded event
 * @param subscribed - the syms the client subscribed to a channel of
 * @returns the problem, or undefined for any other event and a BBO that is as expected
 */
export function unexpectedQuote(
  event: MarketEvent,
  subscribed: ReadonlySet<string>,
): UnexpectedQuote | undefined {
  if (event.kind !== 'quote') return undefined;
  if (!subscribed.has(event.sym))
    return { problem: `BBO of a sym not subscribed to (dropped), got ${event.sym}`, drop: true };
  if (event.bid > 0 && event.ask > 0 && event.bid > event.ask)
    return {
      problem: `crossed BBO, bid above ask (delivered), got ${event.sym} bid ${event.bid} ask ${event.ask}`,
      drop: false,
    };
  return undefined;
}
