/** A journal line tagged with its record's creation number, as the spill files hold it. */
export interface Staged {
  /** The record's creation number. */
  readonly seq: number;
  /** Order of the line among lines read together, so a sort keeps the later write of a number last. */
  readonly index: number;
  /** The record's encoded line, without the number. */
  readonly line: string;
}

/**
 * Reads a spill-file line `seq<TAB>line`.
 * @param line - the line as written
 * @param index - its order among the lines read together
 * @returns the staged line
 */
export function parseStaged(line: string, index: number): Staged {
  const tab = line.indexOf('\t');
  return { seq: Number(line.slice(0, tab)), index, line: line.slice(tab + 1) };
}
