import { rmSync } from 'node:fs';
import { isFinalOrderState, type Order } from '../../core/model/index.ts';
import {
  ORDER_CODEC,
  type RecordCodec,
  type RecordLog,
  type SpillDirectory,
  SpillLog,
} from '../report/index.ts';

/** Final orders held back at most, waiting for an older order to finish (Keel's choice). */
const WINDOW = 4096;
/** Late lines sorted in memory at a time at the end. */
const RUN_LINES = 16_384;
/** Finished orders remembered, so an update arriving after an order's final one replaces it. */
const RECENT_FINAL = 4096;

const PLAIN: RecordCodec<string> = { encode: (line) => line, decode: (line) => line };

interface Staged {
  readonly seq: number;
  readonly index: number;
  readonly line: string;
}

interface Entry {
  readonly seq: number;
  order: Order;
  /** No longer among the open orders holding the window back (finished or set aside). */
  gone: boolean;
}

function staged(seq: number, order: Order): string {
  return `${seq}\t${ORDER_CODEC.encode(order)}`;
}

function parseStaged(line: string, index: number): Staged {
  const tab = line.indexOf('\t');
  return { seq: Number(line.slice(0, tab)), index, line: line.slice(tab + 1) };
}

/**
 * Every order of a run in its final state, in creation order, without holding them. An order
 * stays in memory while it is open. Orders finish in another order than they were created (a
 * resting quote outlives the ones placed after it), so a finished order waits in a bounded window
 * until every order created before it has finished, and is then written to the main file, which
 * so stays in creation order. When more than {@link WINDOW} finished orders wait, the oldest open
 * order is set aside: when it finishes it goes to a small "late" file instead. At the end the late
 * file is sorted (in runs of {@link RUN_LINES}, merged) and the orders are read as a merge of the
 * two files: each order is written once in the common case, memory stays bounded, and the log
 * still reads in creation order. An update arriving after an order's final one (within the last
 * {@link RECENT_FINAL} orders finished) replaces it.
 */
export class OrderJournal {
  private readonly open = new Map<string, Entry>();
  /**
   * The open orders in creation order, finished ones dropped from the front as they come up:
   * the oldest open order in O(1), where a Map's first entry takes a scan over the holes its
   * deletions leave (that scan cost seconds on a 1M-event run).
   */
  private readonly byCreation: Entry[] = [];
  private head = 0;
  private readonly setAside = new Map<string, Entry>();
  private readonly waiting = new SeqHeap();
  private readonly recentFinal = new Map<string, number>();
  /** The ids in `recentFinal`, oldest first around a ring, so the oldest is evicted without a scan. */
  private readonly recentRing: (string | undefined)[] = new Array(RECENT_FINAL);
  private recentAt = 0;
  private readonly main: SpillLog<string>;
  private readonly late: SpillLog<string>;
  private readonly window: number;
  private readonly runLines: number;
  private nextSeq = 0;

  /**
   * @param dir - the run's spill directory
   * @param options - window and run sizes (defaults {@link WINDOW}, {@link RUN_LINES}; small in
   *   tests, so setting orders aside and merging several runs are exercised)
   */
  constructor(
    private readonly dir: SpillDirectory,
    options: { readonly window?: number; readonly runLines?: number } = {},
  ) {
    this.main = new SpillLog(dir, 'orders-main', PLAIN);
    this.late = new SpillLog(dir, 'orders-late', PLAIN);
    this.window = Math.max(1, options.window ?? WINDOW);
    this.runLines = Math.max(1, options.runLines ?? RUN_LINES);
  }

  /** Orders open now (held in memory). */
  get openCount(): number {
    return this.open.size + this.setAside.size;
  }

  /** Finished orders written out of creation order so far (sorted in at the end). */
  get lateCount(): number {
    return this.late.length;
  }

  /**
   * Takes an order update from the venue.
   * @param order - the order's latest state
   */
  update(order: Order): void {
    const id = order.orderId;
    let entry = this.open.get(id);
    const aside = entry === undefined ? this.setAside.get(id) : undefined;
    entry ??= aside;
    if (entry === undefined) {
      const finished = this.recentFinal.get(id);
      if (finished !== undefined) {
        this.late.append(staged(finished, order));
        return;
      }
      entry = { seq: this.nextSeq++, order, gone: false };
      this.open.set(id, entry);
      this.byCreation.push(entry);
    } else {
      entry.order = order;
    }
    if (!isFinalOrderState(order.orderState)) return;
    this.remember(id, entry.seq);
    if (aside !== undefined) {
      this.setAside.delete(id);
      this.late.append(staged(entry.seq, order));
      return;
    }
    this.open.delete(id);
    entry.gone = true;
    this.waiting.push({ seq: entry.seq, index: 0, line: ORDER_CODEC.encode(order) });
    this.drain();
  }

  private remember(id: string, seq: number): void {
    const evicted = this.recentRing[this.recentAt];
    if (evicted !== undefined) this.recentFinal.delete(evicted);
    this.recentRing[this.recentAt] = id;
    this.recentAt = (this.recentAt + 1) % RECENT_FINAL;
    this.recentFinal.set(id, seq);
  }

  /** The oldest order still open (not set aside). */
  private oldestOpen(): Entry | undefined {
    const queue = this.byCreation;
    while (this.head < queue.length && (queue[this.head] as Entry).gone) this.head++;
    if (this.head > 4096 && this.head * 2 > queue.length) {
      queue.splice(0, this.head);
      this.head = 0;
    }
    return queue[this.head];
  }

  /**
   * Ends the run: writes the orders still open (in their last state) and returns every order.
   * @returns every order in its final state (or its last one for orders still open), in creation order
   */
  finish(): RecordLog<Order> {
    for (const entry of this.open.values()) {
      entry.gone = true;
      this.waiting.push({ seq: entry.seq, index: 0, line: ORDER_CODEC.encode(entry.order) });
    }
    this.open.clear();
    this.drain();
    for (const { seq, order } of this.setAside.values()) this.late.append(staged(seq, order));
    this.setAside.clear();
    this.recentFinal.clear();
    this.recentRing.fill(undefined);
    this.byCreation.length = 0;
    this.head = 0;
    this.main.seal();
    this.late.seal();
    return new MergedOrderLog(this.main, this.sortLate(), this.nextSeq);
  }

  /** Writes the finished orders no open order is older than; sets the oldest open one aside while too many wait. */
  private drain(): void {
    for (;;) {
      const oldest = this.oldestOpen();
      const limit = oldest?.seq ?? Number.POSITIVE_INFINITY;
      for (let top = this.waiting.peek(); top !== undefined && top.seq < limit; top = this.waiting.peek()) {
        this.waiting.pop();
        this.main.append(`${top.seq}\t${top.line}`);
      }
      if (this.waiting.size <= this.window || oldest === undefined) return;
      this.open.delete(oldest.order.orderId);
      oldest.gone = true;
      this.setAside.set(oldest.order.orderId, oldest);
    }
  }

  /** The late lines sorted by creation number (the last write of a number first among equals dropped later). */
  private sortLate(): SpillLog<string>[] {
    const runs: SpillLog<string>[] = [];
    let chunk: Staged[] = [];
    let index = 0;
    const flush = (): void => {
      chunk.sort((a, b) => a.seq - b.seq || a.index - b.index);
      const run = new SpillLog(this.dir, `orders-late-${runs.length}`, PLAIN);
      for (const s of chunk) run.appendLine(`${s.seq}\t${s.line}`);
      runs.push(run.seal());
      chunk = [];
    };
    for (const line of this.late.lines()) {
      chunk.push(parseStaged(line, index++));
      if (chunk.length >= this.runLines) flush();
    }
    if (chunk.length > 0) flush();
    rmSync(this.dir.file('orders-late.jsonl'), { force: true });
    return runs;
  }
}

/**
 * The orders as the journal wrote them: the main file (creation order) merged with the sorted
 * runs of late orders; for the same creation number the later write wins (late over main, a
 * later run over an earlier one), so each order comes out once, in its last state.
 */
class MergedOrderLog implements RecordLog<Order> {
  constructor(
    private readonly main: SpillLog<string>,
    private readonly runs: readonly SpillLog<string>[],
    readonly length: number,
  ) {}

  /**
   * The orders' encoded lines, in creation order.
   * @returns one line per order
   */
  *lines(): Generator<string> {
    const sources = [this.main, ...this.runs].map((log) => {
      const lines = log.lines();
      return { lines, head: next(lines) };
    });
    let pending: Staged | undefined;
    for (;;) {
      let best: (typeof sources)[number] | undefined;
      for (const source of sources) {
        // Equal numbers: the later source holds the later write, so it comes after and wins.
        if (source.head !== undefined && (best?.head === undefined || source.head.seq < best.head.seq))
          best = source;
      }
      const head = best?.head;
      if (best === undefined || head === undefined) break;
      best.head = next(best.lines);
      if (pending !== undefined && pending.seq !== head.seq) yield pending.line;
      pending = head;
    }
    if (pending !== undefined) yield pending.line;
  }

  /**
   * Iterates the orders, decoding each line as it is read.
   * @returns the orders in creation order
   */
  *[Symbol.iterator](): Iterator<Order> {
    let i = 0;
    for (const line of this.lines()) yield ORDER_CODEC.decode(line, `orders[${i++}]`);
  }
}

function next(lines: Generator<string>): Staged | undefined {
  const step = lines.next();
  return step.done === true ? undefined : parseStaged(step.value, 0);
}

/** A binary min-heap of staged orders by creation number. */
class SeqHeap {
  private readonly items: Staged[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Staged | undefined {
    return this.items[0];
  }

  push(item: Staged): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as Staged).seq <= item.seq) break;
      items[i] = items[parent] as Staged;
      i = parent;
    }
    items[i] = item;
  }

  pop(): Staged | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && (items[right] as Staged).seq < (items[left] as Staged).seq ? right : left;
      if ((items[child] as Staged).seq >= last.seq) break;
      items[i] = items[child] as Staged;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
