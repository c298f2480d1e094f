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
  openPrivate,
  openPrivateSync,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  writePrivateFile,
} from './private-files.ts';
