/**
 * The paper venue refuses to start on a data dir whose replay does not rebuild what the venue that
 * wrote it had: the feed replays to other events than it saved, or the command journal, run by
 * this Keel's sim, gives another account than the one the venue acknowledged (an upgrade changed
 * what a command does). Starting would serve an account its clients were never told of; the data
 * dir is left as it is. `keel venue` exits 2 on it, as on its other refusals of a data dir.
 */
export class DataDirReplayError extends Error {
  override readonly name = 'DataDirReplayError';
}
