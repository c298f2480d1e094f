/**
 * Files only their owner reads: the modes of the files and directories Keel writes (results,
 * recordings, run locks, a paper venue's data dir), applied also to a file that already existed.
 * @packageDocumentation
 */
export {
  makePathPrivateSync,
  makePrivate,
  makePrivateDir,
  makePrivateDirSync,
  makePrivateSync,
  openPrivateSync,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
} from './private-files.ts';
