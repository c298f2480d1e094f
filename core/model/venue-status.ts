/** Which of the venue's streams a {@link VenueStatus} is about. */
export type VenueStream = 'private' | 'market';

/**
 * The state of one of the venue's streams:
 * - `down`: the socket dropped (or went silent and was dropped); what Keel shows may be stale.
 * - `up`: the socket is connected again (the private one logged in), but the private stream's
 *   reconciliation has not finished yet, so orders and positions may still be stale.
 * - `reconciled`: the private stream's reconciliation after the login finished; Keel's orders,
 *   positions and account are the venue's again. The market stream never reports it.
 */
export type VenueStreamState = 'down' | 'up' | 'reconciled';

/** A change of a venue stream's connection, as the live venue adapter reports it. */
export interface VenueStatus {
  readonly stream: VenueStream;
  readonly state: VenueStreamState;
  /** When it changed, epoch ms. */
  readonly ts: number;
  /** Why, as a sentence part (e.g. `closed with code 1006`); absent when there is nothing to add. */
  readonly reason?: string;
}
