import { rmSync } from 'node:fs';
import { isFinalOrderState, type Order } from '../../core/model/index.ts';
import {
  ORDER_CODEC,
  type RecordCodec,
  type RecordLog,
  type SpillDirectory,
  SpillLog,
} from '../report/index.ts';

/** Staged lines sorted in memory at a time when the final orders came out of creation order. */
const RUN_LINES = 16_384;
/** Finished orders remembered, so an update arriving after an order's final one replaces it. */
const RECENT_FINAL = 4096;

const PLAIN: RecordCodec<string> = { encode: (line) => line, decode: (line) => line };

interface Staged {
  readonly seq: number;
  readonly index: number;
  readonly line: string;
}

function parseStaged(line: string, index: number): Staged {
  const tab = line.indexOf('\t');
  return { seq: Number(line.slice(0, tab)), index, line: line.slice(tab + 1) };
}

/**
 * Every order of a run in its final state, in creation order, without holding them: an order
 * stays in memory only while it is open; when it reaches a final state (FILLED, CANCELLED,
 * REJECTED, FAIL) it is written to a staging file with its creation number, and the orders still
 * open at the end follow. Orders finish in another order than they were created (a resting quote
 * outlives the ones placed after it), so at the end the staging file is sorted by creation
 * number: in runs of {@link RUN_LINES} lines sorted in memory, then merged into the final log,
 * so memory stays bounded (creation order cannot be the writing order without holding every
 * order created after the oldest open one). When the orders happened to finish in creation
 * order, the staging file is copied as it is. An update arriving after an order's final one
 * (within the last {@link RECENT_FINAL} orders finished) replaces it.
 */
export class OrderJournal {
  private readonly open = new Map<string, { readonly seq: number; order: Order }>();
  private readonly recentFinal = new Map<string, number>();
  private readonly staging: SpillLog<string>;
  private nextSeq = 0;
  private lastStaged = -1;
  private inOrder = true;

  private readonly runLines: number;

  /**
   * @param dir - the run's spill directory
   * @param options - lines sorted in memory at a time (default {@link RUN_LINES}; small in tests,
   *   so the merge of several runs is exercised)
   */
  constructor(
    private readonly dir: SpillDirectory,
    options: { readonly runLines?: number } = {},
  ) {
    this.staging = new SpillLog(dir, 'orders-staged', PLAIN);
    this.runLines = Math.max(1, options.runLines ?? RUN_LINES);
  }

  /** Orders open now (held in memory). */
  get openCount(): number {
    return this.open.size;
  }

  /**
   * Takes an order update from the venue.
   * @param order - the order's latest state
   */
  update(order: Order): void {
    let entry = this.open.get(order.orderId);
    if (entry === undefined) {
      const finished = this.recentFinal.get(order.orderId);
      if (finished !== undefined) {
        this.stage(finished, order);
        return;
      }
      entry = { seq: this.nextSeq++, order };
      this.open.set(order.orderId, entry);
    } else {
      entry.order = order;
    }
    if (!isFinalOrderState(order.orderState)) return;
    this.open.delete(order.orderId);
    this.stage(entry.seq, order);
    this.recentFinal.set(order.orderId, entry.seq);
    if (this.recentFinal.size > RECENT_FINAL) {
      const oldest = this.recentFinal.keys().next().value as string;
      this.recentFinal.delete(oldest);
    }
  }

  /**
   * Ends the run: writes the orders still open, sorts by creation and returns the orders.
   * @returns every order in its final state (or its last one for orders still open), in creation order
   */
  finish(): RecordLog<Order> {
    for (const { seq, order } of this.open.values()) this.stage(seq, order);
    this.open.clear();
    this.recentFinal.clear();
    this.staging.seal();
    const orders = new SpillLog(this.dir, 'orders', ORDER_CODEC);
    if (this.inOrder) {
      for (const line of this.staging.lines()) orders.appendLine(parseStaged(line, 0).line);
    } else {
      this.sortInto(orders);
    }
    rmSync(this.dir.file('orders-staged.jsonl'), { force: true });
    return orders.seal();
  }

  private stage(seq: number, order: Order): void {
    if (seq <= this.lastStaged) this.inOrder = false;
    else this.lastStaged = seq;
    this.staging.appendLine(`${seq}\t${ORDER_CODEC.encode(order)}`);
  }

  /** Sorts the staged lines by creation number (the last write of a number wins) into `out`. */
  private sortInto(out: SpillLog<Order>): void {
    const runs: SpillLog<string>[] = [];
    let chunk: Staged[] = [];
    let index = 0;
    const flush = (): void => {
      chunk.sort((a, b) => a.seq - b.seq || a.index - b.index);
      const run = new SpillLog(this.dir, `orders-run-${runs.length}`, PLAIN);
      for (const s of chunk) run.appendLine(`${s.seq}\t${s.line}`);
      runs.push(run.seal());
      chunk = [];
    };
    for (const line of this.staging.lines()) {
      chunk.push(parseStaged(line, index++));
      if (chunk.length >= this.runLines) flush();
    }
    if (chunk.length > 0) flush();
    const heads = runs.map((run) => {
      const lines = run.lines();
      return { lines, head: nextStaged(lines) };
    });
    let pending: Staged | undefined;
    for (;;) {
      let best: { lines: Generator<string>; head: Staged | undefined } | undefined;
      for (const source of heads) {
        // Equal numbers: the later run holds the later write, so it comes after and wins.
        if (source.head !== undefined && (best?.head === undefined || source.head.seq < best.head.seq))
          best = source;
      }
      const next = best?.head;
      if (best === undefined || next === undefined) break;
      best.head = nextStaged(best.lines);
      if (pending !== undefined && pending.seq !== next.seq) out.appendLine(pending.line);
      pending = next;
    }
    if (pending !== undefined) out.appendLine(pending.line);
    for (let r = 0; r < runs.length; r++) rmSync(this.dir.file(`orders-run-${r}.jsonl`), { force: true });
  }
}

function nextStaged(lines: Generator<string>): Staged | undefined {
  const step = lines.next();
  return step.done === true ? undefined : parseStaged(step.value, 0);
}
