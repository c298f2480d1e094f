import { readLastRecvTs } from '../recording/index.ts';

/** A recording's last receive time as its event cache keeps it. */
export interface CachedEndTime {
  /** Told the time a valid cache kept. */
  readonly fromCache: (lastRecvTs: number) => void;
  /** Reads the time, for a cache being written; undefined when the recording holds no record. */
  readonly read: () => Promise<number | undefined>;
}

/**
 * The last receive times of a run's recordings ({@link readLastRecvTs}): kept by a valid event
 * cache when it has one, so a run from the cache reads nothing more; else read, each at most
 * once whole. With a window end, a time only read for the span may stop at the first record at
 * or past it (the span is cut there anyway).
 */
export class RecordingEndTimes {
  private readonly cached = new Map<string, number>();
  private readonly whole = new Map<string, Promise<number | undefined>>();

  /** @param until - the run's window end, if any */
  constructor(private readonly until: number | undefined) {}

  /**
   * What the event cache of a recording keeps of its end.
   * @param path - the recording
   * @returns where the cache tells the time it kept, and reads the time it is to keep
   */
  forCache(path: string): CachedEndTime {
    return {
      fromCache: (lastRecvTs) => {
        this.cached.set(path, lastRecvTs);
      },
      read: () => this.wholeOf(path),
    };
  }

  /**
   * A recording's last receive time for the span: the one its valid cache kept, else read (up
   * to the window end).
   * @param path - the recording
   * @returns the time (with a window end, maybe an earlier one at or past it), or undefined when
   *   the recording holds no record
   */
  async of(path: string): Promise<number | undefined> {
    const cached = this.cached.get(path);
    if (cached !== undefined) return cached;
    const read = this.whole.get(path);
    if (read !== undefined || this.until === undefined) return this.wholeOf(path);
    return readLastRecvTs(path, { until: this.until });
  }

  private wholeOf(path: string): Promise<number | undefined> {
    let read = this.whole.get(path);
    if (read === undefined) {
      read = readLastRecvTs(path);
      this.whole.set(path, read);
    }
    return read;
  }
}
