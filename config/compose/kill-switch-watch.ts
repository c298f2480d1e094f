import type { Logger } from 'pino';
import type { Dec } from '../../core/model/index.ts';
import type { KillSwitchState, RiskGate, TradingStatus } from '../../core/risk/index.ts';
import {
  type KillSwitchFileRead,
  killSwitchFileText,
  readKillSwitchFile,
  writeKillSwitchFile,
} from './kill-switch-file.ts';
import { mergedKillSwitchState } from './kill-switch-merge.ts';

/** What the kill-switch watch of a live or paper session needs. */
export interface KillSwitchWatchOptions {
  /** The session's risk gate (not the counting wrapper: the watch reads its kill switch). */
  readonly gate: RiskGate;
  /**
   * The account's state file ({@link accountKillSwitchFileOf}), shared by every run on the account;
   * none: nothing is kept across restarts.
   */
  readonly path?: string;
  /**
   * Where an earlier Keel kept the state ({@link resultKillSwitchFileOf}): read when `path` does
   * not exist yet, never written.
   */
  readonly formerPath?: string;
  /** The account the file belongs to ({@link accountOf}). */
  readonly account: string;
  /** The run's name, written into the file for a reader. */
  readonly run: string;
  readonly logger: Logger;
  /** The run's clock (the kernel's), epoch ms. */
  readonly now: () => number;
  /** Counts a trip (the run's metric). */
  readonly countTrip: (state: TradingStatus['state']) => void;
  /** Called once per trip to HALTED (restored or new), after the trip is logged: pulls the strategies' orders. */
  readonly onHalted?: (trip: TradingStatus) => void;
  /**
   * Called once per trip to REDUCING (restored or new), after the trip is logged: pulls the
   * strategies' orders that would add risk.
   */
  readonly onReducing?: (trip: TradingStatus) => void;
}

/** A running watch. */
export interface KillSwitchWatch {
  /**
   * Writes the state file if it changed since the last write that succeeded (call it now and
   * then): a write that failed is tried again at the next call.
   */
  save(): void;
  /**
   * @returns the result's warning when the state in force could not be saved at the last save
   *   (a restart on the account would not know of it), else undefined
   */
  unsaved(): string | undefined;
  /** @returns the trip in force, if any */
  trip(): TradingStatus | undefined;
  /**
   * Tells about a restored trip, or one another run on the account wrote before this call (once
   * the strategies have started, their orders known); one adopted later is told at once.
   */
  started(): void;
}

/**
 * Watches a session's kill switch: restores the day's baseline and trip an earlier run on the same
 * account saved (a restart does not hand out a fresh daily loss budget), logs a trip at error with
 * its reason and figures, counts it, saves it at once, and on a trip to HALTED calls `onHalted`,
 * on one to REDUCING `onReducing`. Each save first takes in what another run on the account wrote
 * to the file since ({@link mergedKillSwitchState}): a trip there is this run's too from then on
 * (logged at error, its orders pulled as for a trip of its own), and no run writes over another's.
 * A state file that cannot be read is a warning, one that cannot be written an error (once per
 * distinct failure; each later save tries again), never a crash; one of another account is ignored.
 * @param options - gate, file, account, logger, clock, metric and what a halt does
 * @returns the watch
 */
export function watchKillSwitch(options: KillSwitchWatchOptions): KillSwitchWatch {
  const { gate, path, logger } = options;
  /** Why the last write failed, while no later save succeeded. */
  let failure: string | undefined;
  /** The trip restored from an earlier run, told about once the strategies started. */
  let restoredTrip: TradingStatus | undefined;
  let started = false;
  /** Whether the state came from the former file: written to the account's at once, for the other runs on it. */
  let migrated = false;
  if (path !== undefined) {
    const { file, read } = startingRead(path, options.formerPath, options.account);
    if (read.kind === 'unreadable')
      logger.warn(
        { file, problem: read.problem },
        `kill switch state file ${file} cannot be read (${read.problem}): the kill switch starts from a fresh baseline`,
      );
    else if (read.kind === 'otherAccount')
      logger.info(
        { file, account: read.account },
        `kill switch state file ${file} is of another account: ignored, the kill switch starts from a fresh baseline`,
      );
    else if (read.kind === 'restored') {
      migrated = file !== path;
      gate.restoreKillSwitch(read.state, options.now());
      const { marks, trip } = gate.killSwitchState();
      logger.info(
        {
          file,
          startOfDay: marks?.startOfDay.toFixed(),
          highWater: marks?.highWater.toFixed(),
          trip,
        },
        migrated
          ? `kill switch restored from the earlier run's ${file}; kept in ${path} from now on`
          : 'kill switch restored from the earlier run',
      );
      if (trip !== undefined) {
        logger.error(
          { trip },
          `kill switch still tripped from the earlier run: trading is ${trip.state} (${trip.reason ?? 'no reason given'})`,
        );
        restoredTrip = trip;
      }
    }
  }
  /** Takes in what the file holds (another run's trip or marks), so a save does not write over them. */
  const adopt = (theirs: KillSwitchState): void => {
    const ours = gate.killSwitchState();
    const merged = mergedKillSwitchState(ours, theirs);
    if (sameState(merged, ours)) return;
    gate.restoreKillSwitch(merged, options.now());
    const { trip } = gate.killSwitchState();
    if (trip === undefined || trip.state === ours.trip?.state) return;
    logger.error(
      { file: path, trip },
      `kill switch tripped by another run on this account: trading is ${trip.state} (${trip.reason ?? 'no reason given'})`,
    );
    if (started) sweepOf(trip.state, options)?.(trip);
    else restoredTrip = trip;
  };
  const save = (): void => {
    if (path === undefined) return;
    const onDisk = readKillSwitchFile(path, options.account);
    if (onDisk.kind === 'restored') adopt(onDisk.state);
    const state = gate.killSwitchState();
    if (onDisk.kind === 'restored' && sameState(onDisk.state, state)) {
      if (failure !== undefined)
        logger.info({ file: path }, `kill switch state file ${path} holds this run's state again`);
      failure = undefined;
      return;
    }
    try {
      writeKillSwitchFile(path, killSwitchFileText(state, options.account, options.run));
    } catch (error) {
      // The write's error names the file already: say only what the file system answered.
      const { cause } = error as Error;
      const message = (cause instanceof Error ? cause : (error as Error)).message;
      if (message !== failure)
        logger.error(
          { file: path, err: message },
          `cannot write the kill switch state file ${path} (${message}): a restart on this account would not know of ${whatIsLost(gate)}; trying again at each save`,
        );
      failure = message;
      return;
    }
    if (failure !== undefined) logger.info({ file: path }, `kill switch state file ${path} written again`);
    failure = undefined;
  };
  if (migrated) save();
  gate.onKillSwitchTrip((trip: TradingStatus, equity: Dec) => {
    options.countTrip(trip.state);
    logger.error(
      { trip, equity: equity.toFixed(), marks: gate.killSwitchState().marks },
      `kill switch tripped: trading is ${trip.state} (${(trip.reason ?? 'no reason given').replace(/^kill switch: /, '')})`,
    );
    save();
    // Deferred: the trip happens inside the gate's decision on an intent.
    const sweep = sweepOf(trip.state, options);
    if (sweep !== undefined) queueMicrotask(() => sweep(trip));
  });
  return {
    save,
    unsaved: () =>
      failure === undefined
        ? undefined
        : `the kill switch state could not be saved to ${path} (${failure}): a restart on this account does not know of ${whatIsLost(gate)}`,
    trip: () => gate.killSwitchState().trip,
    started: () => {
      started = true;
      if (restoredTrip !== undefined) sweepOf(restoredTrip.state, options)?.(restoredTrip);
    },
  };
}

/**
 * The state a run starts from: the account's file, or while there is none the file an earlier Keel
 * kept next to the result.
 */
function startingRead(
  path: string,
  formerPath: string | undefined,
  account: string,
): { readonly file: string; readonly read: KillSwitchFileRead } {
  const read = readKillSwitchFile(path, account);
  if (read.kind !== 'missing' || formerPath === undefined) return { file: path, read };
  return { file: formerPath, read: readKillSwitchFile(formerPath, account) };
}

/** Whether two states would be saved alike (the run's name aside). */
function sameState(a: KillSwitchState, b: KillSwitchState): boolean {
  return killSwitchFileText(a, '', '') === killSwitchFileText(b, '', '');
}

/** What a trip into `state` does to the strategies' orders, if anything. */
function sweepOf(
  state: TradingStatus['state'],
  options: KillSwitchWatchOptions,
): ((trip: TradingStatus) => void) | undefined {
  if (state === 'HALTED') return options.onHalted;
  if (state === 'REDUCING') return options.onReducing;
  return undefined;
}

/** What a restart loses when the state file is not written: the trip in force, else the day's baseline. */
function whatIsLost(gate: RiskGate): string {
  const { trip } = gate.killSwitchState();
  return trip === undefined
    ? "the day's baseline (it would start a fresh daily loss budget)"
    : `the trip (trading ${trip.state}): it would trade again`;
}
