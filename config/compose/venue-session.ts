import { Kernel, wallScheduler } from '../../core/kernel/index.ts';
import { ZERO } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { createLiveVenue, hmacSigner, type RawVenueMessage } from '../../core/venue/index.ts';
import { riskGateConfigOf } from '../schema/index.ts';
import { journalWithAttachedLegs, restAlgoOrderHistory } from './attached-legs.ts';
import { cancelOpenOrdersOnStop } from './cancel-on-stop.ts';
import { holdsCoins } from './holding-spends.ts';
import { lockstepAcks } from './lockstep-acks.ts';
import { marketDataHeartbeatOf } from './market-data-heartbeat.ts';
import { restRateLimitOf } from './rest-rate-limit.ts';
import { RunMetrics } from './run-metrics.ts';
import { newRunTag } from './run-tag.ts';
import { sessionEquitySampler } from './session-equity-sampler.ts';
import { sessionGuards } from './session-guards.ts';
import { SessionStartingCoins } from './session-starting-coins.ts';
import { restStatementPages, SessionStatement, STATEMENT_REFRESH_MS } from './session-statement.ts';
import {
  forceStopOnSecondSignal,
  sessionExitCode,
  unreconciledStopWarning,
  waitForStop,
} from './session-stop.ts';
import { restAlgoOrderLookup, settleOpenAlgoOrders } from './settle-algo-orders.ts';
import { showStatus, statusLogTo } from './status-line.ts';
import { stopLeftovers } from './stop-leftovers.ts';
import { recordStrategyFaults } from './strategy-fault-log.ts';
import type { VenueSessionOptions, VenueSessionOutcome } from './venue-session-options.ts';
import {
  keptRecordingNotes,
  openVenueSessionRecording,
  recordingOnForcedStop,
} from './venue-session-recording.ts';
import { writeVenueSessionReport } from './venue-session-report.ts';
import { warmUpBeforeTrading } from './warm-up-history.ts';

const CHANNELS = [{ channel: 'BBO' }, { channel: 'TRADE' }, { channel: 'KLINE', interval: '1m' }] as const;

/**
 * Runs strategies on a venue over its real protocol: the live venue adapter (REST, private and
 * market-data WebSockets) as the kernel's execution port and feed, the kernel on wall time, the
 * risk gate from the config, a recording of what the venue sent, a status line, Prometheus
 * metrics when enabled, and on stop (duration, end of feed, SIGINT / SIGTERM): strategies stopped,
 * open orders optionally cancelled, recording flushed, result and HTML report written.
 * @param options - config, strategies, venue addresses, clocks and outputs
 * @returns the exit code and what the session produced
 */
export async function runVenueSession(options: VenueSessionOptions): Promise<VenueSessionOutcome> {
  const { config, logger } = options;
  const metrics = new RunMetrics(() => Date.now());
  let metricsUrl: string | undefined;
  if (config.metrics.enabled) {
    metricsUrl = await metrics.listen(config.metrics.host, config.metrics.port);
    logger.info({ url: metricsUrl }, 'Prometheus metrics served');
  }
  const { path: recordingPath, recorder } = await openVenueSessionRecording({
    ...options,
    venueLabel: options.venue.label,
  });
  for (const note of keptRecordingNotes(recorder, recordingPath)) logger.info(note);

  const subscriptions = options.instruments.flatMap((spec) => CHANNELS.map((c) => ({ ...c, sym: spec.sym })));
  // Once stopping, no more acks: the paper venue releases nothing the strategies would not see.
  let stopping = false;
  const acks = options.lockstep
    ? lockstepAcks({
        subscriptions: subscriptions.length,
        speed: options.lockstepSpeed ?? Number.POSITIVE_INFINITY,
        sessionClock: options.sessionClock,
        send: (seq, extras) => live.privateWs.notify('lockstep_ack', { seq, ...extras }),
        ...(options.scheduler?.followsEventTime === true
          ? { wakeAt: () => kernel.nextTimerAt, onTick: (time: number) => kernel.advanceTime(time) }
          : {}),
      })
    : undefined;
  const tap = (raw: RawVenueMessage): void => {
    // Market data that arrives once stopping reaches no strategy (the kernel has unsubscribed):
    // left out of the recording, so its backtest sees the market the session saw and values the
    // open positions at the same last price.
    if (stopping && raw.source === 'market') return;
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
    logger,
    onRaw: tap,
    ...(options.lockstep ? { binaryMarketData: false } : {}),
    ...marketDataHeartbeatOf(config),
    ...restRateLimitOf(config),
  });
  metrics.watchVenue(live.status, live.counters);

  // The venue releases nothing until it has the ack sent while the private socket was down.
  if (acks !== undefined)
    live.privateWs.connection.subscribe((event) => {
      if (event.kind === 'loggedIn' && event.reconnect && !stopping) acks.resend();
    });

  const riskGate = new RiskGate(riskGateConfigOf(config));
  const gate = metrics.countingGate(riskGate);
  const kernel = new Kernel({
    instruments: options.instruments,
    market: live.marketData.events,
    execution: live.execution,
    venueStatus: live.status,
    gate,
    scheduler: options.scheduler ?? wallScheduler(),
    strategies: options.slots,
    runId: options.runTag ?? newRunTag(Date.now(), { next: Math.random }),
    ...(options.warmUp === undefined ? {} : { warmUp: options.warmUp }),
  });
  const settleAsset = options.instruments[0]?.settleAsset ?? 'USDT';
  const coins = new SessionStartingCoins(
    (options.mode === 'paper' ? options.config.paper?.startingCash : undefined) ?? {},
    options.instruments,
    settleAsset,
  );
  const sessionEquity = sessionEquitySampler(
    () => kernel.state.equity(),
    (equity) => metrics.equity.set(equity.toNumber()),
    coins,
  );
  const { sampler, startAt: startSampler } = sessionEquity;
  const { journal, attachedLegs } = journalWithAttachedLegs(
    metrics,
    options.onFill,
    (ref) => kernel.state.ownerOf(ref),
    restAlgoOrderHistory(live.rest),
    logger,
    new Set(options.instruments.filter(holdsCoins).map((spec) => spec.sym)),
  );
  let events = 0;
  live.execution.events.subscribe((event) => {
    events++;
    metrics.events.inc({ kind: event.kind });
    journal.observe(event);
    if (event.kind === 'account') coins.accountReported();
  });
  kernel.denials.subscribe((denial) => {
    logger.debug({ denial }, 'intent denied');
    journal.denied(denial);
  });
  kernel.trailingStops.subscribe((stop) => journal.trailingStops.observe(stop));
  const faults = recordStrategyFaults(kernel, logger, options.sessionClock);
  const guards = sessionGuards({ ...options, riskGate, gate, kernel, execution: live.execution, metrics });

  // The strategies start once the venue's state found at startup is folded: the execution client's
  // start reconciles (once) and emits that state to the kernel, subscribed to User Data at once.
  let reconciled: () => void = () => {};
  const reconciliation = new Promise<void>((r) => (reconciled = r));
  const finished = kernel.start(reconciliation);
  // Reactions run in the order they were registered: this one after the kernel's, which starts
  // the strategies and subscribes the kernel to market data.
  const strategiesStarted = reconciliation.then(() => undefined);
  /** Ends a session that failed before trading: closes what is open, then rethrows. */
  const abort = async (error: unknown, what: string): Promise<never> => {
    logger.error({ err: (error as Error).message }, what);
    kernel.stop();
    await live.stop().catch(() => {});
    recorder?.close();
    await metrics.close();
    throw error;
  };
  try {
    await live.start();
  } catch (error) {
    return abort(error, `cannot reach the venue at ${options.venue.restUrl}`);
  }
  // The holdings the venue reported so far are where they start: the session's fills explain the rest.
  journal.holdingSpends.startTrading();
  // The first reconciliation is folded before onStart (as NautilusTrader does): a strategy
  // starting on an account that already holds positions, orders or algo orders sees them.
  reconciled();
  await strategiesStarted;
  let warmUpWarning: string | undefined;
  try {
    warmUpWarning = await warmUpBeforeTrading(kernel, finished, options.warmUp, logger);
  } catch (error) {
    return abort(error, 'the warm-up on history failed');
  }
  guards.started();
  // Subscribed after the kernel: a sample reads equity once the kernel has folded the event, as
  // a backtest samples after the venue and the strategies saw it.
  live.marketData.events.subscribe((event) => {
    if (stopping) return;
    events++;
    metrics.events.inc({ kind: event.kind });
    const ts = options.sessionClock();
    coins.observe(event);
    startSampler(ts);
    sampler.observe({ ...event, recvTs: ts });
  });
  coins.foundAccount(kernel.state.account?.equity, kernel.state.assets.get(settleAsset)?.equity);
  // The start equity once the curve starts (starting coins at their first price); this until then.
  const equityAtStart = sessionEquity.equity();
  startSampler(options.sessionClock());
  // Funding, interest and loans of the session's span, from the venue's statements (see SessionStatement).
  const statement = new SessionStatement({
    pages: restStatementPages(live.rest),
    begin: options.sessionClock(),
    logger,
  });
  const stopStatementRefresh = statement.refreshEvery(STATEMENT_REFRESH_MS, options.sessionClock);
  for (const sub of subscriptions) live.marketData.subscribe(sub);
  const startedAt = Date.now();
  const stopStatus = showStatus(
    options.status,
    () => {
      const equity = sessionEquity.equity();
      const elapsedMs = Date.now() - startedAt;
      const fills = journal.fillCount;
      return {
        mode: options.mode,
        elapsedMs,
        events,
        intents: metrics.intentTotal,
        fills,
        equity,
        pnl: equity.sub(sessionEquity.startEquity ?? equityAtStart),
        settleAsset,
        ...(guards.trading() === undefined ? {} : { trading: guards.trading() }),
      };
    },
    undefined,
    statusLogTo(logger),
  );
  logger.info(
    { venue: options.venue.label, syms: options.instruments.map((s) => s.sym), recording: recordingPath },
    `${options.mode} session started`,
  );

  const stopReason = await waitForStop({
    handleSignals: options.handleSignals,
    durationMs: options.durationMs,
    ended: options.ended,
    finished,
  });
  stopping = true;
  logger.info({ reason: stopReason }, `${options.mode} session stopping`);
  const unreconciled = unreconciledStopWarning(kernel.connectivity.staleness());
  if (unreconciled !== undefined) logger.error(unreconciled);
  const endForcing =
    options.handleSignals === false
      ? () => {}
      : forceStopOnSecondSignal((signal) =>
          recordingOnForcedStop(signal, options.mode, recorder, recordingPath, logger),
        );
  stopStatus();
  kernel.stop();
  guards.stop();
  const cancelled = config.shutdown.cancelAllOrders
    ? await cancelOpenOrdersOnStop(
        kernel,
        gate,
        live.execution,
        () => journal.openOrders(),
        config.shutdown.timeoutMs,
      )
    : undefined;
  // Give replies and the last User Data a moment to arrive before the books close.
  await new Promise((r) => setTimeout(r, 200));
  const leftovers = stopLeftovers(
    cancelled,
    {
      orders: journal.openOrders(),
      algoRefs: journal
        .openAlgoRefs()
        .map((ref) => ('clientAlgoOrderId' in ref ? ref.clientAlgoOrderId : ref.algoOrderId)),
      positions: kernel.state.positions.values(),
    },
    config.shutdown.timeoutMs,
    logger,
  );
  const endTs = options.sessionClock();
  startSampler(endTs, true);
  sampler.sample(endTs);
  const endEquity = sessionEquity.equity();
  const startEquity = sessionEquity.startEquity ?? equityAtStart;
  stopStatementRefresh();
  await statement.refresh(endTs);
  await attachedLegs.settled();
  await settleOpenAlgoOrders(journal, restAlgoOrderLookup(live.rest), (ref, error) =>
    logger.warn({ ref, err: (error as Error).message }, 'could not look up an algo order at the end'),
  );
  await live.stop();
  recorder?.close();
  await metrics.close();

  const { result, outputs } = await writeVenueSessionReport({
    ...options,
    venueLabel: options.venue.label,
    recordingPath,
    kernel,
    journal,
    statement,
    sampler,
    faults,
    latency: options.latency,
    stopReason,
    settleAsset,
    ...(coins.values.length + coins.unpriced().length === 0
      ? {}
      : { startingCoins: { cash: options.config.paper?.startingCash[settleAsset] ?? ZERO, coins } }),
    shutdownWarnings: unreconciled === undefined ? leftovers.warnings : [unreconciled, ...leftovers.warnings],
    ...sessionWarnings(warmUpWarning, live.execution.forgottenOrderWarnings),
  });
  endForcing();
  return {
    exitCode: sessionExitCode(stopReason, faults.length, cancelled?.leftOpen.length ?? 0),
    fills: result.fills,
    intents: metrics.intentTotal,
    events,
    startEquity,
    endEquity,
    recording: recordingPath,
    outputs,
    result,
    notes: [...leftovers.notes, ...keptRecordingNotes(recorder, recordingPath)],
  };
}

/** The result's warnings besides the shutdown's: a warm-up the history did not cover, orders the venue forgot. */
function sessionWarnings(
  warmUpWarning: string | undefined,
  forgotten: readonly string[],
): { warnings?: readonly string[] } {
  const warnings = [...(warmUpWarning === undefined ? [] : [warmUpWarning]), ...forgotten];
  return warnings.length === 0 ? {} : { warnings };
}
