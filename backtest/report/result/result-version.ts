import { KEEL_VERSION } from '../../../core/model/index.ts';

/** The numeric parts of a version (`0.2.0` -> [0, 2, 0]); undefined when it is not `x.y.z`-like. */
function versionParts(version: string): number[] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match === null ? undefined : match.slice(1).map(Number);
}

/**
 * Whether version `a` is later than version `b`, comparing major, minor and patch (a pre-release
 * suffix is not compared); false when either is not `x.y.z`-like.
 * @param a - e.g. `0.3.0`
 * @param b - e.g. `0.2.0`
 * @returns true when `a` is later
 */
export function isLaterVersion(a: string, b: string): boolean {
  const pa = versionParts(a);
  const pb = versionParts(b);
  if (pa === undefined || pb === undefined) return false;
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) > (pb[i] as number);
  return false;
}

/**
 * What to say of a result by the Keel that wrote it (`meta.keel`): nothing, unless a Keel later
 * than this one wrote it, whose fields this Keel may not know (it drops them) or may read otherwise.
 * @param keel - the result's `meta.keel`; absent for a Keel before 0.2.0
 * @param running - this Keel's version
 * @returns the warning, or undefined
 */
export function resultVersionWarning(keel: string | undefined, running = KEEL_VERSION): string | undefined {
  if (keel === undefined || !isLaterVersion(keel, running)) return undefined;
  return (
    `written by Keel ${keel}, later than this Keel (${running}): what that Keel added to results is ` +
    'left out or may read otherwise; rebuild the report with that Keel'
  );
}

/**
 * The Keel that wrote a result, in the report's words.
 * @param keel - the result's `meta.keel`
 * @returns e.g. `Keel 0.2.0`, or `an older Keel, before 0.2.0` when the result does not say
 */
export function resultWriter(keel: string | undefined): string {
  return keel === undefined ? 'an older Keel, before 0.2.0' : `Keel ${keel}`;
}
