import type { KeelConfig } from '../schema/index.ts';
import type { CliIo } from './cli-io.ts';

/**
 * Where `keel run` and `keel record` say the `/metrics` URL: on stdout when the system chose the
 * port (`metrics.port: 0`), which no log line at warn or above would show and a scraper must be
 * told; a configured port is known already, and logged at info.
 * @param config - the run's config
 * @param io - the command's output streams
 * @returns the callback for the run's `onMetrics`
 */
export function metricsUrlPrinter(config: KeelConfig, io: CliIo): (url: string) => void {
  return (url) => {
    if (config.metrics.port === 0)
      io.stdout.write(`metrics served at ${url} (metrics.port 0: chosen by the system)\n`);
  };
}
