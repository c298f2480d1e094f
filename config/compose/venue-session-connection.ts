import { randomBytes } from 'node:crypto';
import type { Kernel } from '../../core/kernel/index.ts';
import {
  createLiveVenue,
  hmacSigner,
  type LiveVenue,
  type MarketSubscription,
  type RawVenueMessage,
  RestMutationLedger,
} from '../../core/venue/index.ts';
import { heldCommandWaitOf, reconcileEveryOf } from './held-command-wait.ts';
import { lockstepAcks } from './lockstep-acks.ts';
import { LOCKSTEP_PRIVATE_WAIT_MS, lockstepPrivateGate } from './lockstep-private-gate.ts';
import { marketDataHeartbeatOf } from './market-data-heartbeat.ts';
import { sessionSubscriptions } from './market-subscriptions.ts';
import { privateHeartbeatOf } from './private-heartbeat.ts';
import { privateRequestTimeoutOf } from './private-request-timeout.ts';
import { restRateLimitOf } from './rest-rate-limit.ts';
import type { SessionRecorder } from './session-recorder.ts';
import { signatureArraysOf } from './signature-arrays.ts';
import type { VenueSessionOptions } from './venue-session-options.ts';
import { wsOpenTimeoutOf } from './ws-open-timeout.ts';

/** A session's venue adapter and the market data it is to subscribe. */
export interface VenueSessionConnection {
  readonly live: LiveVenue;
  /** BBO, trades and 1m bars of every instrument, marks of perpetuals: subscribed once the strategies are warmed up. */
  readonly subscriptions: readonly MarketSubscription[];
  /**
   * For the session's stop, before its kernel stops: in lockstep, no more acks, and the event the
   * last ack released (the venue may have filled an order on it) handled and recorded like the
   * rest, waited for at most `waitMs`; at once otherwise.
   * @param waitMs - the longest wait for that event
   * @returns settles once it was handled, or after `waitMs`
   */
  readonly stopAcks: (waitMs: number) => Promise<void>;
}

/** What the connection reads of the running session. */
export interface VenueSessionConnectionInput {
  readonly options: VenueSessionOptions;
  /** The session's recording, when the config keeps one. */
  readonly recorder: SessionRecorder | undefined;
  /** Whether the session is stopping (its acks stopped before, see `stopAcks`): from then on no market frame is recorded. */
  readonly stopping: () => boolean;
  /** The session's kernel, read once the venue ticks (it is made after the venue). */
  readonly kernel: () => Kernel;
  /** In lockstep, what the session still asks of the venue about the event it handled: the ack waits for it. */
  readonly ackPending?: () => Promise<void> | undefined;
  /** In lockstep, the commands held behind unanswered ones on their sym: the ack waits for them, the venue told (see `lockstepAcks`). */
  readonly ackHeld?: () => Promise<void> | undefined;
  /** What keeps trading stopped once a reconciliation finished (see `LiveExecutionOptions.tradingStopped`). */
  readonly tradingStopped?: () => string | undefined;
}

/**
 * The live venue adapter of a session (REST, private and market-data WebSockets, signed with the
 * session's key), its raw frames tapped into the recording, and in lockstep the acks of each
 * market event that let the paper venue release the next.
 * @param input - the session's options, recording, stop flag, kernel and what an ack waits for
 * @returns the adapter (not started) and the subscriptions to make
 */
export function connectVenueSession(input: VenueSessionConnectionInput): VenueSessionConnection {
  const { options, recorder, stopping, kernel } = input;
  const subscriptions = sessionSubscriptions(options.instruments);
  // In lockstep the acks count the REST commands sent, so the venue waits for those on their way.
  const restMutations = options.lockstep ? new RestMutationLedger(randomBytes(6).toString('hex')) : undefined;
  const acks = options.lockstep
    ? lockstepAcks({
        subscriptions: subscriptions.length,
        speed: options.lockstepSpeed ?? Number.POSITIVE_INFINITY,
        sessionClock: options.sessionClock,
        send: (seq, extras) => live.privateWs.notify('lockstep_ack', { seq, ...extras }),
        // The venue has the session handle what its commands got before the next event.
        settleRounds: true,
        ...(input.ackPending === undefined ? {} : { pending: input.ackPending }),
        ...(input.ackHeld === undefined ? {} : { held: input.ackHeld }),
        ...(restMutations === undefined ? {} : { restMutations }),
        ...(options.scheduler?.followsEventTime === true
          ? { wakeAt: () => kernel().nextTimerAt, onTick: (time: number) => kernel().advanceTimers(time) }
          : {}),
      })
    : undefined;
  // In lockstep an event's fills, pushed on the private socket, reach the strategies before it.
  const privateGate = options.lockstep
    ? lockstepPrivateGate({
        waitMs: LOCKSTEP_PRIVATE_WAIT_MS,
        stalled: (expected, received) =>
          options.logger.warn(
            { expected, received, waitMs: LOCKSTEP_PRIVATE_WAIT_MS },
            'lockstep market frame waited too long for the private frames sent before it: handled without them',
          ),
      })
    : undefined;
  const tap = (raw: RawVenueMessage): void => {
    if (privateGate !== undefined && raw.source === 'private') privateGate.onPrivateFrame(raw.text);
    // Market data that arrives once stopping reaches no strategy (the kernel has unsubscribed):
    // left out of the recording, so its backtest sees the market the session saw and values the
    // open positions at the same last price.
    if (stopping() && raw.source === 'market') return;
    // A lockstep tick is the venue's, not market data: left out of the recording.
    if (acks !== undefined && raw.source === 'market' && acks.onMarketFrame(raw.text)) return;
    recorder?.tap(raw);
  };
  const live = createLiveVenue({
    restUrl: options.venue.restUrl,
    privateWsUrl: options.venue.privateWsUrl,
    marketDataUrl: options.venue.marketDataWsUrl,
    signer: hmacSigner(options.venue.apiKey, options.venue.apiSecret),
    brokerClientId: options.venue.brokerClientId,
    logger: options.logger,
    // What Keel makes itself carries the session's time, as the venue's own events carry the venue's.
    eventClock: options.sessionClock,
    ...(options.serverClock === undefined ? {} : { serverClock: options.serverClock }),
    onRaw: tap,
    ...(restMutations === undefined ? {} : { restMutations }),
    ...(privateGate === undefined ? {} : { marketFrameGate: privateGate.gate }),
    ...(options.lockstep ? { binaryMarketData: false } : {}),
    ...(options.placeLimitOnVenueTime === true ? { orderRateLimit: null } : {}),
    ...marketDataHeartbeatOf(options.config),
    ...privateHeartbeatOf(options.config),
    ...privateRequestTimeoutOf(options.config),
    ...wsOpenTimeoutOf(options.config),
    ...heldCommandWaitOf(options.config),
    ...reconcileEveryOf(options.config),
    ...(input.tradingStopped === undefined ? {} : { tradingStopped: input.tradingStopped }),
    ...restRateLimitOf(options.config),
    ...signatureArraysOf(options.config),
  });
  // What a market-data drop and reconnect missed is written down, so a backtest of the
  // recording warns of the hole instead of replaying it as a quiet market.
  live.marketData.events.subscribe((event) => {
    if (event.kind === 'gap' && !stopping()) recorder?.gap(event);
  });
  // Those gaps come with the reconnect, and not while stopping: a stream down when the session
  // begins to stop gets its gap from the recorder as it closes, from its last frame. One that drops
  // while stopping missed nothing recorded (no market frame is, then).
  live.marketData.status.subscribe((status) => {
    if (!stopping()) recorder?.marketStream(status.state === 'up' ? 'up' : 'down');
  });
  // The venue releases nothing until it has the ack sent while the private socket was down.
  if (acks !== undefined)
    live.privateWs.connection.subscribe((event) => {
      if (event.kind === 'loggedIn' && event.reconnect && !stopping()) acks.resend();
    });
  const stopAcks = async (waitMs: number): Promise<void> => {
    if (acks === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([acks.halt(), bound]);
    clearTimeout(timer);
  };
  return { live, subscriptions, stopAcks };
}
