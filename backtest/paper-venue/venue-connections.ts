import { gzipSync } from 'node:zlib';
import type { TimerPort } from '../../core/venue/index.ts';
import { broadcast, type MarketDataSession } from './market-data-ws.ts';
import type { FeedItem } from './market-feed.ts';
import type { PrivateSession } from './private-ws-session.ts';

/** The reason of the close frame (code 1001, going away) a closing venue sends every client. */
export const VENUE_CLOSING_REASON = 'the paper venue is closing';

/**
 * How long a closing venue waits for a client to answer its close frame before it drops the
 * connection (Keel's choice: a client on loopback answers in well under a millisecond).
 */
export const CLOSE_GRACE_MS = 1_000;

/** The venue's open WebSocket connections: private sessions and market-data sessions. */
export class VenueConnections {
  private readonly privateSessions = new Set<PrivateSession>();
  private readonly marketDataSessions = new Set<MarketDataSession>();
  /** The private connection that sent the latest lockstep ack: the lockstep client's. */
  private lockstepClient: PrivateSession | undefined;
  /**
   * The lockstep client's replies and pushes as of the last lockstep frame stamped (see
   * {@link stampPrivateSent}): it handled those before it acknowledged that frame.
   */
  private stamped: { readonly session: PrivateSession; readonly besidesPongs: number } | undefined;

  /**
   * Keeps a private session until its socket closes.
   * @param session - the new session
   */
  addPrivate(session: PrivateSession): void {
    this.privateSessions.add(session);
    session.onLockstepAck(() => {
      this.lockstepClient = session;
    });
    session.ws.on('close', () => {
      this.privateSessions.delete(session);
      if (this.lockstepClient === session) this.lockstepClient = undefined;
    });
  }

  /**
   * Keeps a market-data session until its socket closes.
   * @param session - the new session
   */
  addMarketData(session: MarketDataSession): void {
    this.marketDataSessions.add(session);
    session.ws.on('close', () => this.marketDataSessions.delete(session));
  }

  /**
   * Whether any market-data connection subscribed to a channel of a sym.
   * @param channel - e.g. TICKER
   * @param sym - the symbol
   * @returns true when at least one did
   */
  wants(channel: string, sym: string): boolean {
    for (const session of this.marketDataSessions) if (session.wants(channel, sym)) return true;
    return false;
  }

  /**
   * Sends a market push to every market-data connection subscribed to it.
   * @param item - the event and its wire push
   * @param seq - the seq of the event it comes from
   * @param withSeq - true in lockstep mode: the push carries `seq`, and `privateSent` (see
   *   {@link privateSent})
   * @returns how many connections received it
   */
  broadcast(item: FeedItem, seq: number, withSeq: boolean): number {
    const stamp = withSeq ? { seq, privateSent: this.stampPrivateSent() } : undefined;
    return broadcast(this.marketDataSessions, item, stamp);
  }

  /**
   * Lockstep: how many frames the lockstep client's private connection (the one that sent the
   * latest ack) was sent since its login, stamped on each market frame (Keel's extension) so the
   * client handles the frame only once it has them: the fills an event caused reach the
   * strategies before the event, as in a backtest.
   * @returns the count; undefined while no open private connection acknowledged
   */
  privateSent(): number | undefined {
    return this.lockstepClient?.sentSinceLogin;
  }

  /**
   * Lockstep: {@link privateSent}, for a lockstep frame about to be sent (an event, a tick, a
   * settle frame), noted: the client handles the frames up to there before the lockstep frame,
   * and acknowledges it only after (see {@link sentPastStamp}).
   * @returns the count; undefined while no open private connection acknowledged
   */
  stampPrivateSent(): number | undefined {
    const session = this.lockstepClient;
    if (session === undefined) return undefined;
    this.stamped = { session, besidesPongs: session.sentBesidesPongsSinceLogin };
    return session.sentSinceLogin;
  }

  /**
   * Lockstep: whether the lockstep client's private connection was sent replies or pushes after
   * the last lockstep frame stamped ({@link stampPrivateSent}), which its last ack does not say
   * it handled (pongs left out: nothing follows from them).
   * @returns true when it was
   */
  sentPastStamp(): boolean {
    const session = this.lockstepClient;
    if (session === undefined) return false;
    const seen = this.stamped?.session === session ? this.stamped.besidesPongs : 0;
    return session.sentBesidesPongsSinceLogin > seen;
  }

  /**
   * Sends a frame of the venue's own (e.g. a lockstep tick) to every market-data connection.
   * @param text - the frame's JSON text
   * @returns how many connections received it
   */
  sendToAll(text: string): number {
    let gzipped: Buffer | undefined;
    for (const session of this.marketDataSessions)
      session.sendFrame(text, () => {
        gzipped ??= gzipSync(text);
        return gzipped;
      });
    return this.marketDataSessions.size;
  }

  /**
   * Drops connections abruptly (no close frame), as a network failure would.
   * @param which - private, market-data or all
   */
  drop(which: 'private' | 'market-data' | 'all'): void {
    if (which !== 'market-data') for (const s of this.privateSessions) s.ws.terminate();
    if (which !== 'private') for (const s of this.marketDataSessions) s.ws.terminate();
  }

  /**
   * Stops every private session's timers and closes every connection as the venue closes: a close
   * frame 1001 (going away) with {@link VENUE_CLOSING_REASON}, so clients see an orderly shutdown
   * rather than the 1006 of a dropped connection ({@link drop}). A client that has not answered
   * within {@link CLOSE_GRACE_MS} is dropped.
   * @param timer - sets the grace period's timer
   * @returns when every connection is closed
   */
  async closeAll(timer: TimerPort): Promise<void> {
    for (const s of this.privateSessions) s.dispose();
    const sockets = [...this.privateSessions, ...this.marketDataSessions].map((s) => s.ws);
    const closed = sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === ws.CLOSED) resolve();
          else ws.once('close', () => resolve());
        }),
    );
    for (const ws of sockets) ws.close(1001, VENUE_CLOSING_REASON);
    const cancel = timer.setTimer(() => {
      for (const ws of sockets) ws.terminate();
    }, CLOSE_GRACE_MS);
    await Promise.all(closed);
    cancel();
  }
}
