/**
 * A CSV's lines, without their line breaks (`\n` or `\r\n`), read again on each pass: the importer
 * reads a file several times (its layout, then its bars, then to write them) rather than hold it.
 */
export interface CsvLines {
  /** The lines, first to last (a text ending in a line break ends in an empty line). */
  forward(): Iterable<string>;
  /** The same lines, last to first. */
  backward(): Iterable<string>;
}

/**
 * The lines of a text held in memory, a leading byte order mark dropped.
 * @param text - the CSV's text
 * @returns its lines
 */
export function textLines(text: string): CsvLines {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  return {
    forward: () => lines,
    backward: function* () {
      for (let i = lines.length - 1; i >= 0; i--) yield lines[i] as string;
    },
  };
}
