import { merge } from 'rxjs';
import { KillSwitchTrips } from '../../backtest/runner/index.ts';
import { longestViewDelay } from '../../backtest/sim/index.ts';
import { Kernel, type KernelState, monotonicNow, wallScheduler } from '../../core/kernel/index.ts';
import { isPerpetual, settlesInCoins } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { riskGateConfigOf } from '../schema/index.ts';
import { adlRankRefreshMsOf, refreshAdlRanks } from './adl-rank-refresh.ts';
import { adoptedPositionsOf } from './adopted-positions.ts';
import { journalWithAttachedLegs, restAlgoOrderHistory } from './attached-legs.ts';
import { DataClockLead } from './data-clock-lead.ts';
import { GivenUpWarnings } from './given-up-warnings.ts';
import { InFlightCommands } from './in-flight-commands.ts';
import { LegReadHold } from './leg-read-hold.ts';
import { OrderLegFills } from './order-leg-fills.ts';
import { servedRunMetrics } from './run-metrics.ts';
import { newRunTag } from './run-tag.ts';
import { sessionEquitySampler } from './session-equity-sampler.ts';
import { sessionGuards } from './session-guards.ts';
import { SessionStartingCoins } from './session-starting-coins.ts';
import { restStatementPages, SessionStatement, STATEMENT_REFRESH_MS } from './session-statement.ts';
import { waitForStop } from './session-stop.ts';
import { sessionTimerOf } from './session-timer.ts';
import { startUpFailure } from './start-up-failure.ts';
import { StartUpInterrupted, type StartUpSignals, watchStartUpSignals } from './start-up-signals.ts';
import { showStatus, statusLogTo } from './status-line.ts';
import { recordStrategyFaults } from './strategy-fault-log.ts';
import { unmanagedAtStartWarnings } from './unmanaged-at-start.ts';
import { unvaluedCoinsAtStartWarnings } from './unvalued-coins-at-start.ts';
import { UserDataAlerts } from './user-data-alerts.ts';
import { connectVenueSession } from './venue-session-connection.ts';
import type { VenueSessionOptions, VenueSessionOutcome } from './venue-session-options.ts';
import { keptRecordingNotes, openVenueSessionRecording } from './venue-session-recording.ts';
import { shutDownVenueSession } from './venue-session-shutdown.ts';
import { VenueTimeEstimate } from './venue-time-estimate.ts';
import { warmUpBeforeTrading } from './warm-up-history.ts';

/**
 * How long a lockstep session's stop waits for the event its last ack released, ms (Keel's
 * choice): the paper venue releases it at once, or once the REST commands the ack counts arrived.
 */
const LOCKSTEP_STOP_WAIT_MS = 1_000;

/**
 * Runs strategies on a venue over its real protocol: the live venue adapter (REST, private and
 * market-data WebSockets) as the kernel's execution port and feed, the kernel on wall time, the
 * risk gate from the config, a recording of what the venue sent, a status line, Prometheus
 * metrics when enabled, and on stop (duration, end of feed, SIGINT / SIGTERM / SIGHUP): strategies stopped,
 * open orders optionally cancelled, recording flushed, result and HTML report written.
 * A signal during start-up stops it too: before the strategies start, by closing what
 * was opened (nothing was placed); once they started (onStart, warm-up), by the same shutdown.
 * @param options - config, strategies, venue addresses, clocks and outputs
 * @returns the exit code and what the session produced
 * @throws StartUpInterrupted when a signal came before the strategies started; the login's,
 *   reconciliation's or warm-up's error when it failed
 */
export async function runVenueSession(options: VenueSessionOptions): Promise<VenueSessionOutcome> {
  // From the first moment: a signal during start-up stops the session, never Node's default handler.
  // A second one ends the process at once, as during the shutdown, never by Node's default handler.
  const startUp = watchStartUpSignals(options.handleSignals !== false, (signal) =>
    options.logger.error(
      `second ${signal} during start-up: the ${options.mode} session ends now, without closing what it opened`,
    ),
  );
  try {
    return await startAndRunVenueSession(options, startUp);
  } finally {
    startUp.end();
  }
}

/** The session of {@link runVenueSession}, with the signals of its start-up watched. */
async function startAndRunVenueSession(
  options: VenueSessionOptions,
  startUp: StartUpSignals,
): Promise<VenueSessionOutcome> {
  const { config, logger } = options;
  const metrics = options.metrics ?? (await servedRunMetrics(config.metrics, logger, options.onMetrics));
  const { path: recordingPath, recorder } = await openVenueSessionRecording({
    ...options,
    venueLabel: options.venue.label,
  }).catch(async (error: unknown) => {
    metrics.stopping(startUpFailure(`the ${options.mode} session`, 'cannot open its recording', error));
    await metrics.close();
    throw error;
  });
  for (const note of keptRecordingNotes(recorder, recordingPath)) logger.info(note);

  // Set once the stop took the last event (see `lastEvent` below): market data is no longer
  // handled nor recorded. In lockstep the acks stopped before (the venue releases nothing more).
  let stopping = false;
  const { live, subscriptions, stopAcks } = connectVenueSession({
    options,
    recorder,
    stopping: () => stopping,
    kernel: () => kernel,
    // In lockstep the legs of an order that just filled reach the strategies before the next
    // event, and the events held for them (see LegReadHold), and fills held for their orders'
    // legs (see OrderLegFills), reach them before the ack; so do the commands the client holds
    // behind an unanswered one on their sym (see SymCommandOrder), sent before it, the venue told
    // meanwhile that they are still to come.
    ackPending: () => attachedLegs.pending() ?? legFills.pending() ?? hold?.idle(),
    ackHeld: () => live.execution.commandsHeld(),
    // A kill switch in force (restored from the earlier run, or tripped during an outage) keeps
    // trading stopped after a reconciliation: its log line says so rather than "trading resumes".
    tradingStopped: () => {
      const { state, reason } = riskGate.status();
      if (state === 'ACTIVE') return undefined;
      return reason === undefined ? state : `${state} (${reason})`;
    },
  });
  metrics.watchVenue(live.status, live.counters);
  // Rejected orders, liquidations and the account's status, logged and counted as they arrive.
  const alerts = new UserDataAlerts(logger, metrics);
  const { journal, attachedLegs, legFeed } = journalWithAttachedLegs(
    metrics,
    options.onFill,
    (ref) => kernel.state.ownerOf(ref),
    restAlgoOrderHistory(live.rest),
    logger,
    {
      coinSyms: new Set(
        options.instruments.filter((spec) => settlesInCoins(spec.id)).map((spec) => spec.sym),
      ),
      onRejected: (order, strategyId) => alerts.rejected(order, strategyId),
      // What the journal holds back waits on the session's clock, at its pace (a replay's speed),
      // so it ends on time in a quiet account.
      timer: sessionTimerOf(options),
    },
  );

  // In lockstep, the events after a fill with tp / sl wait for the read of its legs, as a
  // backtest lists them with the fill.
  const hold = options.lockstep ? new LegReadHold(() => attachedLegs.pending(), logger) : undefined;
  const market = hold?.of(live.marketData.events) ?? live.marketData.events;
  // Fills on the legs of their orders, for the journal and the kernel alike.
  const legFills = new OrderLegFills(live.execution.events, {
    state: (): KernelState => kernel.state,
    lookupOrder: (sym, clientOrderId, orderId) => live.execution.lookupOrder(sym, clientOrderId, orderId),
    logger,
  });
  const userData = hold?.of(legFills.events) ?? legFills.events;

  // The strategies' commands, kept until answered: a stop waits for those still on their way. The
  // orders a strategy sends in one hook call, alike but for their quantity, are one order sliced
  // for the trade list, as in a backtest (see EntryBatches).
  const inFlight = new InFlightCommands(live.execution, undefined, (command) => {
    if (command.intent.kind === 'placeOrder')
      journal.batches.placed(command.strategyId, command.intent, command.hookCall);
  });
  const riskGate = new RiskGate(riskGateConfigOf(config));
  const gate = metrics.timingGate(riskGate);
  // Named in the result's warnings, as a backtest names them: the denials after a trip explained.
  const trips = new KillSwitchTrips(riskGate);
  const kernel = new Kernel({
    instruments: options.instruments,
    market,
    execution: inFlight,
    // The venue pushes no algo order updates: the legs attached to the strategies' orders are read.
    user: merge(userData, legFeed.events),
    venueStatus: live.status,
    gate,
    scheduler: options.scheduler ?? wallScheduler(),
    strategies: options.slots,
    runId: options.runTag ?? newRunTag(Date.now(), { next: Math.random }),
    ...(options.warmUp === undefined ? {} : { warmUp: options.warmUp }),
    // The paper venue's bar cutoff allows a reaction its latency's delay: its emulated stops' too.
    ...(options.latency === undefined ? {} : { barReactionMs: longestViewDelay(options.latency.legs) }),
    // The paper venue runs a close before answering it, and the client sends the next close on a
    // sym once it was answered: its close orders come in the order sent. A live venue does not say.
    closeOrdering: options.mode === 'paper' ? 'sendOrder' : 'unknown',
    // What the adapter makes itself carries the paper venue's own time; live, an estimate of the venue's.
    keelStampsOnVenueClock: options.mode === 'paper',
  });
  const settleAsset = options.instruments[0]?.settleAsset ?? 'USDT';
  const coins = new SessionStartingCoins(
    (options.mode === 'paper' ? options.config.paper?.startingCash : undefined) ?? {},
    options.instruments,
    settleAsset,
  );
  const sessionEquity = sessionEquitySampler(
    () => kernel.state.equity(),
    (equity) => metrics.observeEquity(equity.toNumber()),
    coins,
  );
  const { sampler, startAt: startSampler } = sessionEquity;
  // Subscribed before the kernel, to market data and User Data alike: the due sample is taken, and
  // a bucket of the curve closed, at the equity before the next event changes it, as a
  // backtest's sampler does before the venue's next event and what it delivers up to then; a
  // User Data event also takes the sample due at its own time first (`beforeUserData`).
  let eventTs = 0;
  const beforeEvent = (): void => {
    if (stopping) return;
    eventTs = options.sessionClock();
    sampler.beforeEvent(eventTs);
  };
  market.subscribe(beforeEvent);
  /** The session's time at the latest User Data that came once it stopped handling market data. */
  let userDataAfterStop = Number.NEGATIVE_INFINITY;
  userData.subscribe(() => {
    beforeEvent();
    if (!stopping) sampler.beforeUserData();
    else userDataAfterStop = options.sessionClock();
  });
  let events = 0;
  let userDataEvents = 0;
  userData.subscribe((event) => {
    events++;
    userDataEvents++;
    metrics.events.inc({ kind: event.kind });
    journal.observe(event);
    alerts.observe(event);
    legFeed.observe(event);
    if (event.kind === 'account') coins.accountReported();
  });
  live.status.subscribe((status) => {
    if (status.stream === 'private' && status.state === 'reconciled') legFeed.reconciled();
  });
  kernel.denials.subscribe((denial) => {
    logger.debug({ denial }, 'intent denied');
    journal.denied(denial);
  });
  // Logged and counted as they come, and named in the result's warnings, one line per algo order or order.
  const givenUp = new GivenUpWarnings();
  kernel.algoChildrenGivenUp.subscribe((report) => {
    alerts.algoChildGivenUp(report);
    givenUp.algoChild(report);
  });
  kernel.fillsGivenUp.subscribe((report) => {
    alerts.fillGivenUp(report);
    givenUp.fill(report);
  });
  metrics.countIntents(kernel.intents);
  metrics.countDenials(kernel.denials);
  metrics.watchBook(
    kernel.state,
    options.instruments.map((spec) => spec.sym),
  );
  kernel.trailingStops.subscribe((stop) => journal.trailingStops.observe(stop));
  const faults = recordStrategyFaults(kernel, logger, options.sessionClock);
  const guards = sessionGuards({ ...options, riskGate, kernel, trips, metrics });

  // The strategies start once the venue's state found at startup is folded: the execution client's
  // start reconciles (once) and emits that state to the kernel, subscribed to User Data at once.
  let reconciled: () => void = () => {};
  const reconciliation = new Promise<void>((r) => (reconciled = r));
  const finished = kernel.start(reconciliation);
  // Reactions run in the order they were registered: this one after the kernel's, which starts
  // the strategies and subscribes the kernel to market data.
  const strategiesStarted = reconciliation.then(() => undefined);
  /**
   * Ends a session that failed before trading: closes what is open, within `shutdown.timeoutMs` (a
   * venue that stopped answering has its connections dropped then, rather than keeping the
   * process alive for its sockets' 30 s close handshakes and its requests' retries), then rethrows.
   */
  const abort = async (error: unknown, what: string): Promise<never> => {
    logger.error({ err: (error as Error).message }, what);
    // Said by `/readyz` while what was opened closes, until the endpoint closes too.
    metrics.stopping(startUpFailure(`the ${options.mode} session`, what, error));
    kernel.detach();
    await live.stop(config.shutdown.timeoutMs).catch(() => {});
    recorder?.close();
    await metrics.close();
    throw error;
  };
  // Until the strategies start nothing is placed: a signal ends the start-up there and then.
  try {
    if (startUp.received !== undefined) throw new StartUpInterrupted(startUp.received, 'opening its outputs');
    const started = live.start();
    started.catch(() => {});
    const stage = 'logging in to the venue and reconciling';
    const interrupted = await Promise.race([
      started,
      startUp.arrived.then((signal) => new StartUpInterrupted(signal, stage)),
    ]);
    if (interrupted !== undefined) throw interrupted;
  } catch (error) {
    return abort(
      error,
      error instanceof StartUpInterrupted
        ? error.message
        : `cannot start on the venue at ${options.venue.restUrl}: its login or first reconciliation failed`,
    );
  }
  // What the venue reported so far is where the session starts: its fills and orders come after.
  journal.startTrading();
  // The first reconciliation is folded before onStart (as NautilusTrader does): a strategy
  // starting on an account that already holds positions, orders or algo orders sees them.
  reconciled();
  for (const warning of unmanagedAtStartWarnings(
    kernel.state,
    options.config.strategies.map((s) => s.id),
    new Set(options.instruments.map((s) => s.sym)),
  ))
    logger.warn(warning);
  // Said in the log now and in the result's warnings: the equity the session starts from holds them.
  const startWarnings = unvaluedCoinsAtStartWarnings(kernel.state, options.instruments, options.mode);
  for (const warning of startWarnings) logger.warn(warning);
  // What the venue held before the session traded: its trade list starts from these positions,
  // and its summary says what was owed at the start.
  const adoptedPositions = adoptedPositionsOf(
    kernel.state.positions.values(),
    options.instruments,
    options.sessionClock(),
  );
  const loansAtStart = [...kernel.state.loans.values()];
  await strategiesStarted;
  // From here the strategies may have placed orders: a signal stops the session as usual.
  const signalled = startUp.arrived.then((signal) => {
    logger.warn(`${signal} during start-up: the session stops before trading`);
    return undefined;
  });
  let warmUpWarning: string | undefined;
  try {
    const warmedUp = warmUpBeforeTrading(kernel, finished, options.warmUp, logger);
    warmedUp.catch(() => {});
    warmUpWarning = await Promise.race([warmedUp, signalled]);
  } catch (error) {
    return abort(error, 'the warm-up on history failed');
  }
  guards.started();
  // Subscribed after the kernel: a sample reads equity once the kernel has folded the event, as
  // a backtest samples after the venue and the strategies saw it.
  market.subscribe((event) => {
    if (stopping) return;
    events++;
    metrics.events.inc({ kind: event.kind });
    coins.observe(event);
    startSampler(eventTs);
    sampler.observe({ ...event, recvTs: eventTs });
  });
  coins.foundAccount(kernel.state.account?.equity, kernel.state.assets.get(settleAsset)?.equity);
  // The start equity once the curve starts (starting coins at their first price); this until then.
  const equityAtStart = sessionEquity.equity();
  // Known from the first reconciliation: before, the gauge is absent rather than 0.
  metrics.observeEquity(equityAtStart.toNumber());
  startSampler(options.sessionClock());
  // Funding, interest and loans of the session's span, from the venue's statements (see SessionStatement),
  // whose window the venue checks on its own clock: a live session's is the venue's Date header
  // (session-run.ts), which a paper venue pacing its replay other than in realtime keeps on the
  // machine's clock while its data and statements run on the replay's.
  const venueTime = options.mode === 'live' ? new VenueTimeEstimate() : undefined;
  // A paper session's clock is its venue's; a live one's venue may stamp its data ahead of its own clock.
  const dataClockLead =
    options.mode === 'live' ? new DataClockLead(logger, live.rest.serverClock) : undefined;
  if (venueTime !== undefined)
    live.marketData.events.subscribe((event) => {
      venueTime.observe(event, options.sessionClock());
      dataClockLead?.observe(event);
    });
  const statement = new SessionStatement({
    pages: restStatementPages(live.rest),
    begin: options.sessionClock(),
    ...(venueTime === undefined ? {} : { toVenueTime: (ts: number) => venueTime.at(ts) }),
    logger,
  });
  const stopStatementRefresh = statement.refreshEvery(STATEMENT_REFRESH_MS, sessionTimerOf(options));
  const perpetuals = new Set(
    options.instruments.filter((spec) => isPerpetual(spec.id)).map((spec) => spec.sym),
  );
  const stopAdlRankRefresh = refreshAdlRanks({
    events: live.execution.events,
    refresh: (sym) => live.execution.refreshAdlRank(sym),
    monitored: (sym) => perpetuals.has(sym),
    timer: sessionTimerOf(options),
    everyMs: adlRankRefreshMsOf(options.config),
    logger,
  });
  if (startUp.received === undefined) live.marketData.subscribeAll(subscriptions);
  const startedAt = monotonicNow();
  const stopStatus = showStatus(
    options.status,
    () => {
      const equity = sessionEquity.equity();
      const elapsedMs = monotonicNow() - startedAt;
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
        streams: metrics.streamsNotReady(),
        ...(guards.trading() === undefined ? {} : { trading: guards.trading() }),
      };
    },
    undefined,
    statusLogTo(logger),
  );
  if (startUp.received === undefined)
    logger.info(
      { venue: options.venue.label, syms: options.instruments.map((s) => s.sym), recording: recordingPath },
      `${options.mode} session started`,
    );

  // The stop's own handlers take over from the start-up's at once (no signal is delivered between).
  startUp.end();
  const stopReason =
    startUp.received ??
    (await waitForStop({
      handleSignals: options.handleSignals,
      durationMs: options.durationMs,
      ended: options.ended,
      finished,
    }));
  return shutDownVenueSession({
    options,
    stopReason,
    // In lockstep the venue may have released an event, and filled an order on it, on an ack
    // sent just before the stop: it is handled and recorded like the rest, so the session's fills
    // and equity are its recording's backtest's. One stopped after a tick (a timer fired, its
    // orders sent, at a time past every recorded event) goes on to the event that tick came
    // before (see `LockstepAcks.halt`). Once the feed ended, no ack releases anything more.
    lastEvent: async (withinMs) => {
      const nothingMore = stopReason === 'ended' || stopReason === 'feed';
      await stopAcks(nothingMore ? 0 : Math.min(LOCKSTEP_STOP_WAIT_MS, withinMs));
      stopping = true;
    },
    // In lockstep the venue's clock may stand at a tick the stopped session left unhandled, past
    // its last event: the session ends where its own clock stands, as its recording's backtest
    // ends at that event, unless the stop's closes and cancels brought User Data later.
    endTime: () => {
      const scheduler = options.scheduler;
      return options.lockstep && scheduler?.followsEventTime === true
        ? Math.max(scheduler.clock.now(), userDataAfterStop)
        : options.sessionClock();
    },
    live,
    inFlight,
    kernel,
    gate,
    metrics,
    guards,
    journal,
    attachedLegs,
    statement,
    // The session's periodic reads stop together: the statement's and the ADL ranks'.
    stopStatementRefresh: () => {
      stopStatementRefresh();
      stopAdlRankRefresh();
    },
    stopStatus,
    recorder,
    recordingPath,
    equity: sessionEquity,
    equityAtStart,
    coins,
    settleAsset,
    faults,
    startWarnings,
    warmUpWarning,
    trips,
    eventCount: () => ({ market: events - userDataEvents, userData: userDataEvents }),
    dataClockWarnings: () => dataClockLead?.warnings() ?? [],
    givenUpWarnings: () => givenUp.warnings(),
    adoptedPositions,
    loansAtStart,
  });
}
