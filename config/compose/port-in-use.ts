/**
 * A port the config names is taken by another process: a config problem (exit 2), named by its
 * key, not a runtime failure.
 */
export class PortInUse extends Error {
  /**
   * @param key - the config key naming the port, e.g. `metrics.port`
   * @param host - the address listened on
   * @param port - the port
   */
  constructor(
    readonly key: string,
    host: string,
    readonly port: number,
  ) {
    super(
      `${key} ${port} is already in use on ${host} (listen EADDRINUSE): another process listens there; set ${key} to a free port (0 picks any) or stop that process`,
    );
    this.name = 'PortInUse';
  }
}

/**
 * Whether a listen failed because the address is taken.
 * @param error - what `listen` failed with
 * @returns true for EADDRINUSE
 */
export function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}
