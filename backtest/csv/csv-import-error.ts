/** A CSV file could not be imported; the message names the file, the line and what is wrong. */
export class CsvImportError extends Error {
  override readonly name = 'CsvImportError';
  /** The file (or `<text>` for in-memory input). */
  readonly file: string;
  /** 1-based line number, 0 when the problem is not on one line. */
  readonly line: number;

  /**
   * @param file - the file being imported
   * @param line - 1-based line number, 0 for the whole file
   * @param problem - what is wrong, as a sentence fragment
   */
  constructor(file: string, line: number, problem: string) {
    super(line > 0 ? `${file}:${line}: ${problem}` : `${file}: ${problem}`);
    this.file = file;
    this.line = line;
  }
}
