import type { Logger } from 'pino';
import type { InstrumentSpec } from '../../core/model/index.ts';
import type { KeelConfig } from '../schema/index.ts';
import { feedIsSynthetic } from './feed-is-synthetic.ts';
import { liveSessionClock } from './live-session-clock.ts';
import { venueInstrumentSpecs } from './venue-instruments.ts';
import { venueRestClient } from './venue-rest-client.ts';

/** What `keel record` of a live config learns from the venue before it records. */
export interface LiveRecordVenue {
  /** The config's instruments as the venue lists them, in config order. */
  readonly instruments: InstrumentSpec[];
  /** Whether the venue says its feed is SYNTHETIC (`keel venue`). */
  readonly synthetic: boolean;
  /** The receive time of each frame: the venue's time as a live session estimates it. */
  readonly clock: () => number;
}

/**
 * Asks a live config's venue what a recording of it needs, as `keel run` does: the instruments
 * from its symbol info (a sym without a built-in spec is recorded as the venue lists it), whether
 * its feed is SYNTHETIC, and its clock, estimated from the `Date` header of those replies and
 * followed at the rate the venue states (`keel venue --speed`), so the recording's receive times
 * are on the time line of a live session's recording of the same venue.
 * @param venue - the config's venue section
 * @param instruments - the config's instruments
 * @param logger - where the REST client logs (retries, a venue clock that differs from this machine's)
 * @returns the instruments, the synthetic flag and the clock
 * @throws Error naming a sym the venue does not list, or when the venue cannot be reached
 */
export async function liveRecordVenue(
  venue: NonNullable<KeelConfig['venue']>,
  instruments: KeelConfig['instruments'],
  logger: Logger,
): Promise<LiveRecordVenue> {
  const rest = venueRestClient(venue, logger);
  try {
    return {
      instruments: await venueInstrumentSpecs(rest, instruments),
      synthetic: await feedIsSynthetic(rest),
      clock: liveSessionClock(rest.serverClock),
    };
  } finally {
    await rest.close();
  }
}
