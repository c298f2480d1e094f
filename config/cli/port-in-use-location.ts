import type { PortInUse } from '../compose/port-in-use.ts';
import type { ConfigSource } from '../loader/index.ts';

/**
 * Where the config sets the port another process listens on, to end the error's line with: two
 * runs of one config, or of two copies of an example, on one host meet there.
 * @param source - the config as written, with its `--set` arguments
 * @param error - the port taken
 * @returns ` → at metrics.port (live.yaml:60:9)`, ` → at paper.venuePort (--set paper.venuePort=9000)`,
 *   or, for a port the config leaves at its default, ` (metrics.port is not set in live.yaml: 9464 is its default)`
 */
export function portInUseLocation(source: ConfigSource, error: PortInUse): string {
  const path = error.key.split('.');
  if (source.lookup(path).node === undefined && source.overrideUnder(path) === undefined)
    return ` (${error.key} is not set in ${source.file}: ${error.port} is its default)`;
  return ` → at ${error.key} (${source.where(path).where})`;
}
