import { dirname } from 'node:path';
import { makePrivateDirSync } from '../../backtest/files/index.ts';
import { gapRecordMessage, RecordingWriter, type SessionHeaderInit } from '../../backtest/recording/index.ts';
import { shownPath } from '../../backtest/report/index.ts';
import type { GapEvent } from '../../core/model/index.ts';
import type { RawVenueMessage } from '../../core/venue/index.ts';
import { keepPreviousRecording } from './previous-recording.ts';

/** How often buffered frames are written at the latest (Keel's choice): a crash loses at most this much. */
export const RECORDING_FLUSH_EVERY_MS = 1_000;

/** Options of {@link SessionRecorder.open}. */
export interface SessionRecorderOptions {
  /** How often buffered frames are written at the latest; default {@link RECORDING_FLUSH_EVERY_MS}. */
  readonly flushEveryMs?: number;
  /**
   * Told once, when the recording cannot be written (a full disk): what failed, naming the file,
   * and {@link afterFailure}. The recorder records nothing more (see {@link SessionRecorder.warnings}).
   */
  readonly onFailure?: (message: string) => void;
  /** What the run does once the recording cannot be written, as the failure's message ends; default `the session goes on unrecorded`. */
  readonly afterFailure?: string;
}

/** Why gaps of the market stream still down when the recording stops say so. */
export const DOWN_AT_STOP_REASON =
  'market-data WebSocket still down when the recording stopped: data between fromTs and ts was missed';

/**
 * Records a live or paper session through the venue adapter's recorder tap: every inbound
 * market-data and private WebSocket frame, one JSON line each. REST reply bodies are not kept
 * (a replay needs the streams only), and outbound messages never reach the tap, so no key or
 * signature is ever recorded. Frames are written at least every second, so a process killed
 * without a chance to close the file (kill -9) loses at most that last second (a second Ctrl-C
 * closes it first, in a session and in `keel record` alike).
 *
 * A write that fails (a full disk, a file-size limit) never reaches the session: the recording
 * ends there (a later write would leave a hole a replay could not see), what it would have held
 * is counted, the failure is told once (`onFailure`) and kept for the result's warnings. Nothing
 * is buffered after it, so memory stays bounded however long the session goes on.
 */
export class SessionRecorder {
  /** Frames written to the recording so far (those still buffered are counted once written). */
  recorded = 0;
  /** Frames (and gap records) left out of the recording since writing it failed. */
  dropped = 0;
  /** When writing failed (on the recorder's clock) and why; undefined while the recording is whole. */
  private failure: { readonly ts: number; readonly message: string } | undefined;

  private readonly flushTimer: NodeJS.Timeout;
  /** The receive time of the last market-data frame recorded: where a gap starts. */
  private lastFrameTs: number | undefined;
  /** Frames appended but not yet written: counted in {@link recorded} once a write takes them. */
  private unwritten = 0;
  /** When the market stream went down (on the recorder's clock), while it is down. */
  private marketDownAt: number | undefined;
  /** The market stream's outage the recording stopped in, from the last frame to the stop. */
  private downAtStop: { readonly fromTs: number; readonly ts: number } | undefined;

  private constructor(
    private readonly writer: RecordingWriter,
    private readonly clock: () => number,
    /** Where the recording found at the path was moved to, when there was one. */
    readonly keptPrevious: string | undefined,
    private readonly flushEveryMs: number,
    private readonly onFailure: (message: string) => void,
    private readonly afterFailure: string,
    /** The syms a gap at the stop is written for: the header's. */
    private readonly syms: readonly string[],
  ) {
    this.flushTimer = setInterval(() => this.writing(() => this.writer.flush()), flushEveryMs);
    // The timer only bounds what a crash loses: it never keeps the process alive.
    this.flushTimer.unref();
  }

  /**
   * Opens the recording. A recording already at the path (an earlier session's) is kept under a
   * dated name next to it (see `keepPreviousRecording`), never overwritten.
   * @param path - `.jsonl` or `.jsonl.gz`
   * @param header - venue, syms, start time, synthetic flag, description
   * @param clock - the receive time each frame is stamped with: the session's clock, live the
   *   venue's time as Keel estimates it (the machine's for a real venue); the paper venue's own
   *   clock in paper mode, so a backtest of the recording replays on the time line
   *   the paper venue matched on (Keel's choice, what makes the paper/backtest parity exact)
   * @param options - how often buffered frames are written at the latest, who is told of a failed write
   * @returns the recorder
   */
  static async open(
    path: string,
    header: SessionHeaderInit,
    clock: () => number,
    options: SessionRecorderOptions = {},
  ): Promise<SessionRecorder> {
    makePrivateDirSync(dirname(path));
    const kept = keepPreviousRecording(path);
    return new SessionRecorder(
      await RecordingWriter.open(path, header),
      clock,
      kept,
      options.flushEveryMs ?? RECORDING_FLUSH_EVERY_MS,
      options.onFailure ?? (() => {}),
      options.afterFailure ?? 'the session goes on unrecorded',
      header.symbols,
    );
  }

  /**
   * The tap for `createLiveVenue({ onRaw })`.
   * @param raw - an inbound frame or REST reply
   */
  readonly tap = (raw: RawVenueMessage): void => {
    if (raw.source === 'rest') return;
    if (this.failure !== undefined) {
      this.dropped++;
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(raw.text);
    } catch {
      // Text frames (the private socket's "pong") are kept as they came.
      msg = raw.text;
    }
    const recvTs = this.clock();
    this.unwritten++;
    if (
      !this.writing(() =>
        this.writer.append(recvTs, raw.source === 'market' ? 'market-data' : 'private', msg),
      )
    )
      return;
    if (raw.source === 'market') this.lastFrameTs = recvTs;
  };

  /**
   * Records that market data of a sym was missed (the connection dropped and came back), as a gap
   * record from the last frame recorded to now on the recorder's clock (the time line of the
   * frames, in paper mode too), so a replay warns about the hole instead of taking it for a quiet
   * market.
   * @param gap - the gap the market-data client reported after its reconnect (its sym and reason)
   */
  gap(gap: GapEvent): void {
    if (this.failure !== undefined) {
      this.dropped++;
      return;
    }
    const now = this.clock();
    const fromTs = Math.min(this.lastFrameTs ?? now, now);
    this.writing(() =>
      this.writer.append(now, 'market-data', gapRecordMessage({ ...gap, fromTs, ts: now, recvTs: now })),
    );
  }

  /**
   * Follows the market stream's connection: when the recording closes while it is down, a gap
   * record per sym says the data from the last frame to the stop was missed (the market-data
   * client writes its gaps only once it reconnects), and {@link warnings} says so.
   * @param state - the stream's state as it changed
   */
  marketStream(state: 'up' | 'down'): void {
    if (state === 'up') this.marketDownAt = undefined;
    else this.marketDownAt ??= this.clock();
  }

  /**
   * What the result must say of the recording: nothing while it is whole; that the market stream
   * was down when it stopped; once writing it failed, from when it is incomplete, why, and how
   * many frames it lacks.
   * @returns the warnings, or none
   */
  warnings(): string[] {
    const down = this.downAtStop;
    const downWarning =
      down === undefined
        ? []
        : [
            `market data down from ${new Date(down.fromTs).toISOString()} until the stop at ${new Date(down.ts).toISOString()} (${(down.ts - down.fromTs) / 1000} s): the market-data WebSocket had not reconnected; the recording ${shownPath(this.writer.path)} holds a gap record for it per sym`,
          ];
    if (this.failure === undefined) return downWarning;
    return [
      ...downWarning,
      `the recording ${shownPath(this.writer.path)} is incomplete: writing it failed at ${new Date(this.failure.ts).toISOString()} (${this.failure.message}); the ${this.dropped} frames received after that are not in it, nor the last frames before it that were still buffered (at most ${this.flushEveryMs} ms of them)`,
    ];
  }

  /** Writes what is buffered, syncs and closes the file. Closing twice is harmless; so is closing after a failed write. */
  close(): void {
    clearInterval(this.flushTimer);
    this.gapsAtStop();
    // Closing writes and syncs the file: a failure there is told like any other failed write.
    if (this.writing(() => this.writer.close())) return;
    try {
      this.writer.close();
    } catch {
      // The recording had already failed (and was told); closing only releases the file.
    }
  }

  /** Writes a gap per sym when the market stream is down as the recording closes (once). */
  private gapsAtStop(): void {
    if (this.marketDownAt === undefined || this.failure !== undefined) return;
    const ts = this.clock();
    const fromTs = Math.min(this.lastFrameTs ?? this.marketDownAt, ts);
    this.marketDownAt = undefined;
    for (const sym of this.syms) {
      const gap = { kind: 'gap' as const, sym, reason: DOWN_AT_STOP_REASON, fromTs, ts, recvTs: ts };
      if (!this.writing(() => this.writer.append(ts, 'market-data', gapRecordMessage(gap)))) return;
    }
    this.downAtStop = { fromTs, ts };
  }

  /** Counts the frames appended as written once nothing waits in the buffer. */
  private counted(): void {
    if (this.writer.buffered) return;
    this.recorded += this.unwritten;
    this.unwritten = 0;
  }

  /**
   * Runs a write; a failure ends the recording (told once), never the session.
   * @returns whether the write went through
   */
  private writing(write: () => void): boolean {
    if (this.failure !== undefined) return false;
    try {
      write();
      this.counted();
      return true;
    } catch (error) {
      const message = (error as Error).message;
      this.failure = { ts: this.clock() || Date.now(), message };
      this.onFailure(
        `cannot write the recording ${shownPath(this.writer.path)} (${message}): it stops here, ${this.afterFailure}`,
      );
      return false;
    }
  }
}
