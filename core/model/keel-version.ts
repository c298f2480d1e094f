import packageJson from '../../package.json' with { type: 'json' };

/**
 * The version of Keel that runs, from package.json (its one source). Result files (`meta.keel` of
 * `result.json`), recording headers and paper venue snapshots (`keel`) carry it, so a file says
 * which Keel made it (one without it: a Keel before 0.2.0): results of different versions are not
 * comparable (CHANGELOG.md lists what each one changed).
 */
export const KEEL_VERSION: string = packageJson.version;
