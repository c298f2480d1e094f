import type { Logger } from 'pino';
import type { InstrumentSpec } from '../../core/model/index.ts';
import type { ServerClock } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';
import { feedIsSynthetic } from './feed-is-synthetic.ts';
import { liveSessionClock } from './live-session-clock.ts';
import { venueInstrumentSpecs } from './venue-instruments.ts';
import { venueRestClient } from './venue-rest-client.ts';

/** What a live session or `keel record` of a live config learns from the venue before it starts. */
export interface LiveVenueStart {
  /** The config's instruments as the venue lists them, in config order. */
  readonly instruments: InstrumentSpec[];
  /** Whether the venue says its feed is SYNTHETIC (`keel venue`). */
  readonly synthetic: boolean;
  /** The venue's clock as those replies told it, for the session's venue adapter to go on learning. */
  readonly serverClock: ServerClock;
  /** The venue's time as a live session estimates it (its strategies' clock, a recording's receive times). */
  readonly clock: () => number;
}

/**
 * Asks a live config's venue what a session or a recording of it needs first: the instruments
 * from its symbol info (a sym without a built-in spec is taken as the venue lists it), whether
 * its feed is SYNTHETIC, and its clock, estimated from the `Date` header of those replies and
 * followed at the rate the venue states (`keel venue --speed`), so a `keel record` recording's
 * receive times are on the time line of a live session's recording of the same venue.
 * @param venue - the config's venue section
 * @param instruments - the config's instruments
 * @param logger - where the REST client logs (retries, a venue clock that differs from this machine's)
 * @returns the instruments, the synthetic flag and the clock
 * @throws Error naming a sym the venue does not list, or when the venue cannot be reached
 */
export async function liveVenueStart(
  venue: NonNullable<KeelConfig['venue']>,
  instruments: KeelConfig['instruments'],
  logger: Logger,
): Promise<LiveVenueStart> {
  const rest = venueRestClient(venue, logger);
  try {
    return {
      instruments: await venueInstrumentSpecs(rest, instruments),
      synthetic: await feedIsSynthetic(rest),
      serverClock: rest.serverClock,
      clock: liveSessionClock(rest.serverClock),
    };
  } finally {
    await rest.close();
  }
}
