import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * A file's path as results, reports and the CLI show it: relative to the working directory when
 * the file lies under it, so the same run in a copied project or a fresh clone writes the same
 * bytes; absolute when it lies elsewhere (a `../../` chain says less than the full path).
 * Either form opens the same file from that working directory.
 * @param path - an absolute path, or one relative to `cwd`
 * @param cwd - the working directory (the process's by default)
 * @returns e.g. `out/paper-session.jsonl.gz`, or `/data/btc.jsonl` for a file outside `cwd`
 */
export function shownPath(path: string, cwd: string = process.cwd()): string {
  const absolute = resolve(cwd, path);
  const inside = relative(cwd, absolute);
  const outside = inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return outside ? absolute : inside;
}
