import type { VenueRestClient } from '../../core/venue/index.ts';

/**
 * Whether the venue says its market data is SYNTHETIC: Keel's paper venue (`keel venue`) does in
 * its system status (`syntheticFeed`, a Keel extension). A venue that says nothing, or whose
 * status cannot be read, is taken as real; the session's own start reports an unreachable venue.
 */
export async function feedIsSynthetic(rest: VenueRestClient): Promise<boolean> {
  try {
    return (await rest.getSystemStatus()).syntheticFeed === true;
  } catch {
    return false;
  }
}
