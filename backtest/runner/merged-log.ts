import type { RecordCodec, RecordLog, SpillLog } from '../report/index.ts';
import { parseStaged, type Staged } from './staged-line.ts';

/**
 * The records as the journal wrote them: the main file (creation order) merged with the sorted
 * runs of late records; for the same creation number the later write wins (late over main, a
 * later run over an earlier one), so each record comes out once, in its last state.
 * @typeParam T - the record read back
 */
export class MergedLog<T> implements RecordLog<T> {
  /**
   * @param main - the main file, in creation order
   * @param runs - the late records' sorted runs, oldest run first
   * @param length - how many records the log holds
   * @param codec - how a line reads back as a record
   * @param name - what the records are, for decode errors
   */
  constructor(
    private readonly main: SpillLog<string>,
    private readonly runs: readonly SpillLog<string>[],
    readonly length: number,
    private readonly codec: RecordCodec<T>,
    private readonly name: string,
  ) {}

  /**
   * The records' encoded lines, in creation order.
   * @returns one line per record
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
   * Iterates the records, decoding each line as it is read.
   * @returns the records in creation order
   */
  *[Symbol.iterator](): Iterator<T> {
    let i = 0;
    for (const line of this.lines()) yield this.codec.decode(line, `${this.name}[${i++}]`);
  }
}

function next(lines: Generator<string>): Staged | undefined {
  const step = lines.next();
  return step.done === true ? undefined : parseStaged(step.value, 0);
}
