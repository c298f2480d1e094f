import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RecordingWriter, type SessionHeaderInit } from '../../backtest/recording/index.ts';
import type { RawVenueMessage } from '../../core/venue/index.ts';

/**
 * Records a live or paper session through the venue adapter's recorder tap: every inbound
 * market-data and private WebSocket frame, one JSON line each. REST reply bodies are not kept
 * (a replay needs the streams only), and outbound messages never reach the tap, so no key or
 * signature is ever recorded.
 */
export class SessionRecorder {
  /** Frames recorded so far. */
  recorded = 0;

  private constructor(
    private readonly writer: RecordingWriter,
    private readonly clock: () => number,
  ) {}

  /**
   * Opens the recording (replacing a file of the same name).
   * @param path - `.jsonl` or `.jsonl.gz`
   * @param header - venue, syms, start time, synthetic flag, description
   * @param clock - the receive time each frame is stamped with: the wall clock live; the paper
   *   venue's own clock in paper mode, so a backtest of the recording replays on the time line
   *   the paper venue matched on (Keel's choice, what makes the paper/backtest parity exact)
   * @returns the recorder
   */
  static async open(path: string, header: SessionHeaderInit, clock: () => number): Promise<SessionRecorder> {
    mkdirSync(dirname(path), { recursive: true });
    return new SessionRecorder(await RecordingWriter.open(path, header), clock);
  }

  /**
   * The tap for `createLiveVenue({ onRaw })`.
   * @param raw - an inbound frame or REST reply
   */
  readonly tap = (raw: RawVenueMessage): void => {
    if (raw.source === 'rest') return;
    let msg: unknown;
    try {
      msg = JSON.parse(raw.text);
    } catch {
      // Text frames (the private socket's "pong") are kept as they came.
      msg = raw.text;
    }
    this.writer.append(this.clock(), raw.source === 'market' ? 'market-data' : 'private', msg);
    this.recorded++;
  };

  /** Writes what is buffered, then closes the file. */
  close(): void {
    this.writer.flush();
    this.writer.close();
  }
}
