import { rmSync } from 'node:fs';
import { type RecordCodec, type RecordLog, type SpillDirectory, SpillLog } from '../report/index.ts';
import { HeldJournalLog } from './held-journal-log.ts';
import { MergedLog } from './merged-log.ts';
import { SeqHeap } from './seq-heap.ts';
import { parseStaged, type Staged } from './staged-line.ts';

/** Final records held back at most, waiting for an older record to finish (Keel's choice). */
const WINDOW = 4096;
/** Late lines sorted in memory at a time at the end. */
const RUN_LINES = 16_384;
/** Finished records remembered, so an update arriving after a record's final one replaces it. */
const RECENT_FINAL = 4096;
/**
 * Records a journal holds as they are before it writes its files (Keel's choice, as a spill
 * log's): a short run (a bar backtest's few thousand orders) then encodes a record only if its
 * result is read or written, where encoding each finished order cost a tenth of a bar run's
 * bookkeeping per fill.
 */
const KEEP_IN_MEMORY = 4096;

const PLAIN: RecordCodec<string> = { encode: (line) => line, decode: (line) => line };

interface Entry<T> {
  readonly seq: number;
  readonly id: string;
  record: T;
  /** No longer among the open records holding the window back (finished or set aside). */
  gone: boolean;
}

/** Sizes of a {@link CreationOrderJournal}: small in tests, so setting aside and merging are exercised. */
export interface CreationOrderJournalOptions {
  /** Finished records held back at most (default 4096). */
  readonly window?: number;
  /** Late lines sorted in memory at a time (default 16 384). */
  readonly runLines?: number;
  /** Records held as they are before the files are used (default 4096; 0 writes from the first). */
  readonly keepInMemory?: number;
}

/**
 * Every record of a run (orders, algo orders) in its final state, in creation order, without
 * holding them. A record stays in memory while it is open. Records finish in another order than
 * they were created (a resting quote outlives the ones placed after it), so a finished record
 * waits in a bounded window until every record created before it has finished, and is then
 * written to the main file, which so stays in creation order. When more than `window` finished
 * records wait, the oldest open one is set aside: when it finishes it goes to a small "late"
 * file instead. At the end the late file is sorted (in runs, merged) and the records are read as
 * a merge of the two files: each record is written once in the common case, memory stays
 * bounded, and the log still reads in creation order. An update arriving after a record's final
 * one (within the last 4096 records finished) replaces it. What is held may differ from what is
 * read back (an order and its owner, held apart so an update costs no copy, read back as one
 * record): `encode` writes what is held, `codec` reads it back. A short run's records (up to
 * 4096) are held as they are and encoded only when read or written (see {@link HeldJournalLog}).
 * @typeParam T - what is held per record
 * @typeParam R - the record read back
 */
export class CreationOrderJournal<T, R = T> {
  private readonly open = new Map<string, Entry<T>>();
  /**
   * The open records in creation order, finished ones dropped from the front as they come up:
   * the oldest open record in O(1), where a Map's first entry takes a scan over the holes its
   * deletions leave (that scan cost seconds on a 1M-event run).
   */
  private readonly byCreation: Entry<T>[] = [];
  private head = 0;
  private readonly setAside = new Map<string, Entry<T>>();
  private readonly waiting = new SeqHeap();
  private readonly recentFinal = new Map<string, number>();
  /** The ids in `recentFinal`, oldest first around a ring, so the oldest is evicted without a scan. */
  private readonly recentRing: (string | undefined)[] = new Array(RECENT_FINAL);
  private recentAt = 0;
  private readonly main: SpillLog<string>;
  private readonly late: SpillLog<string>;
  private readonly window: number;
  private readonly runLines: number;
  private readonly keep: number;
  /**
   * While the run is short: each finished record's last state by creation number, nothing
   * encoded yet; undefined once more than `keep` records were created and everything goes
   * through the files.
   */
  private held: (T | undefined)[] | undefined = [];
  private nextSeq = 0;

  /**
   * @param dir - the run's spill directory
   * @param name - what the records are, e.g. `orders`: names the spill files
   * @param encode - writes a held record as the line the codec reads
   * @param codec - how a line reads back as a record
   * @param options - window and run sizes
   */
  constructor(
    private readonly dir: SpillDirectory,
    private readonly name: string,
    private readonly encode: (record: T) => string,
    private readonly codec: RecordCodec<R>,
    options: CreationOrderJournalOptions = {},
  ) {
    this.main = new SpillLog(dir, `${name}-main`, PLAIN);
    this.late = new SpillLog(dir, `${name}-late`, PLAIN);
    this.window = Math.max(1, options.window ?? WINDOW);
    this.runLines = Math.max(1, options.runLines ?? RUN_LINES);
    this.keep = Math.max(0, options.keepInMemory ?? KEEP_IN_MEMORY);
  }

  /** Records open now (held in memory). */
  get openCount(): number {
    return this.open.size + this.setAside.size;
  }

  /** Finished records written out of creation order so far (sorted in at the end). */
  get lateCount(): number {
    return this.late.length;
  }

  /**
   * The latest state of a record still open (held in memory).
   * @param id - the record's id
   * @returns the record, or undefined when it is not open (unknown or finished)
   */
  current(id: string): T | undefined {
    return (this.open.get(id) ?? this.setAside.get(id))?.record;
  }

  /**
   * The records open now (held in memory), oldest first among those not set aside, then those
   * set aside: what a run may still ask the venue about.
   * @returns the records' latest states
   */
  *openRecords(): Generator<T> {
    for (const entry of this.open.values()) yield entry.record;
    for (const entry of this.setAside.values()) yield entry.record;
  }

  /**
   * @param id - a record's id
   * @returns whether it finished among the last 4096 records that did
   */
  finishedRecently(id: string): boolean {
    return this.recentFinal.has(id);
  }

  /**
   * Takes a record's latest state.
   * @param id - the record's id
   * @param record - its latest state
   * @param final - whether that state is final
   */
  update(id: string, record: T, final: boolean): void {
    let entry = this.open.get(id);
    const aside = entry === undefined ? this.setAside.get(id) : undefined;
    entry ??= aside;
    if (entry === undefined) {
      const finished = this.recentFinal.get(id);
      if (finished !== undefined) {
        if (this.held !== undefined) this.held[finished] = record;
        else this.late.append(`${finished}\t${this.encode(record)}`);
        return;
      }
      if (this.held !== undefined && this.nextSeq >= this.keep) this.writeHeld();
      entry = { seq: this.nextSeq++, id, record, gone: false };
      this.open.set(id, entry);
      this.byCreation.push(entry);
    } else {
      entry.record = record;
    }
    if (!final) return;
    this.remember(id, entry.seq);
    if (aside !== undefined) {
      this.setAside.delete(id);
      this.late.append(`${entry.seq}\t${this.encode(record)}`);
      return;
    }
    this.open.delete(id);
    entry.gone = true;
    if (this.held !== undefined) {
      this.held[entry.seq] = record;
      return;
    }
    this.waiting.push({ seq: entry.seq, index: 0, line: this.encode(record) });
    this.drain();
  }

  /**
   * Ends holding: the finished records held go where the files would have them (the same
   * records come out, each in its last state), and from now on every record goes to the files.
   * No record was set aside while held, nothing having waited in the window.
   */
  private writeHeld(): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    for (let seq = 0; seq < held.length; seq++) {
      const record = held[seq];
      if (record !== undefined) this.waiting.push({ seq, index: 0, line: this.encode(record) });
    }
    this.drain();
  }

  private remember(id: string, seq: number): void {
    const evicted = this.recentRing[this.recentAt];
    if (evicted !== undefined) this.recentFinal.delete(evicted);
    this.recentRing[this.recentAt] = id;
    this.recentAt = (this.recentAt + 1) % RECENT_FINAL;
    this.recentFinal.set(id, seq);
  }

  /** The oldest record still open (not set aside). */
  private oldestOpen(): Entry<T> | undefined {
    const queue = this.byCreation;
    while (this.head < queue.length && (queue[this.head] as Entry<T>).gone) this.head++;
    if (this.head > 4096 && this.head * 2 > queue.length) {
      queue.splice(0, this.head);
      this.head = 0;
    }
    return queue[this.head];
  }

  /**
   * Ends the run: writes the records still open (in their last state) and returns every record.
   * @returns every record in its final state (or its last one for records still open), in creation order
   */
  finish(): RecordLog<R> {
    const held = this.held;
    if (held !== undefined) {
      for (const entry of this.open.values()) held[entry.seq] = entry.record;
      this.clear();
      rmSync(this.lateFile(), { force: true });
      // Every record made is held by now: finished, or open until this moment (none is set aside while held).
      return new HeldJournalLog(this.dir, held as T[], this.encode, this.codec, this.name);
    }
    for (const entry of this.open.values()) {
      entry.gone = true;
      this.waiting.push({ seq: entry.seq, index: 0, line: this.encode(entry.record) });
    }
    this.drain();
    for (const { seq, record } of this.setAside.values()) this.late.append(`${seq}\t${this.encode(record)}`);
    this.clear();
    return new MergedLog(this.main, this.sortLate(), this.nextSeq, this.codec, this.name);
  }

  /** Forgets the open and recent records, and seals the files, at the end of the run. */
  private clear(): void {
    this.open.clear();
    this.setAside.clear();
    this.recentFinal.clear();
    this.recentRing.fill(undefined);
    this.byCreation.length = 0;
    this.head = 0;
    this.main.seal();
    this.late.seal();
  }

  /** Writes the finished records no open record is older than; sets the oldest open one aside while too many wait. */
  private drain(): void {
    for (;;) {
      const oldest = this.oldestOpen();
      const limit = oldest?.seq ?? Number.POSITIVE_INFINITY;
      for (let top = this.waiting.peek(); top !== undefined && top.seq < limit; top = this.waiting.peek()) {
        this.waiting.pop();
        this.main.append(`${top.seq}\t${top.line}`);
      }
      if (this.waiting.size <= this.window || oldest === undefined) return;
      this.open.delete(oldest.id);
      oldest.gone = true;
      this.setAside.set(oldest.id, oldest);
    }
  }

  /** The late lines sorted by creation number (the last write of a number first among equals dropped later). */
  private sortLate(): SpillLog<string>[] {
    const runs: SpillLog<string>[] = [];
    let chunk: Staged[] = [];
    let index = 0;
    const flush = (): void => {
      chunk.sort((a, b) => a.seq - b.seq || a.index - b.index);
      const run = new SpillLog(this.dir, `${this.name}-late-${runs.length}`, PLAIN);
      for (const s of chunk) run.appendLine(`${s.seq}\t${s.line}`);
      runs.push(run.seal());
      chunk = [];
    };
    for (const line of this.late.lines()) {
      chunk.push(parseStaged(line, index++));
      if (chunk.length >= this.runLines) flush();
    }
    if (chunk.length > 0) flush();
    rmSync(this.lateFile(), { force: true });
    return runs;
  }

  /** The late file, removed once read: its lines are in the sorted runs then, or it holds none. */
  private lateFile(): string {
    return this.dir.file(`${this.name}-late.jsonl`);
  }
}
