// Until a keel command holds SIGINT, SIGTERM and SIGHUP itself, Node's default action kills the
// process by the signal: without a word, and without the exit hooks that free a run's lock and
// spill files. Loading the TypeScript sources and the config takes seconds, and a sweep leaves
// its second signal to the default. The listeners installed here end the process at once
// instead, with the exit code a run's graceful stop has (as config/cli/exit-codes.ts lists them)
// and a line saying so; while another listener holds a signal, they leave it to that one.

/** The exit code of each signal, as a run stopped by it exits. */
const EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * Ends the process with the signal's exit code on a SIGINT, SIGTERM or SIGHUP no other listener
 * holds, saying so on stderr, so no signal kills keel unannounced.
 * @param {NodeJS.Process} proc - the process (this one)
 * @returns {void}
 */
export function exitOnUnheldSignals(proc) {
  const first = proc.argv[2];
  const command = first === undefined || first.startsWith('-') ? 'keel' : `keel ${first}`;
  for (const [signal, code] of Object.entries(EXIT_CODES)) {
    proc.on(signal, () => {
      if (proc.listenerCount(signal) > 1) return;
      proc.stderr.write(
        `✖ ${command}: ${signal} with no graceful stop in place (starting up, or a second signal): ended at once\n`,
      );
      proc.exit(code);
    });
  }
}
