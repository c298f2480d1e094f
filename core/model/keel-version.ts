import packageJson from '../../package.json' with { type: 'json' };

/**
 * The version of Keel that runs, from package.json (its one source). Results, recordings and paper
 * venue snapshots carry it, so a file says which Keel made it: results of different versions are
 * not comparable (CHANGELOG.md lists what each one changed).
 */
export const KEEL_VERSION: string = packageJson.version;
