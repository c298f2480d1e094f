/** The encodings a CSV's text is decoded from. */
export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** A CSV file's text and the encoding it was decoded from. */
export interface CsvText {
  readonly text: string;
  readonly encoding: CsvEncoding;
}

/**
 * A CSV file's bytes as text: UTF-16 when they start with its byte order mark (spreadsheet
 * "Unicode text" exports), else UTF-8, else, when they are not valid UTF-8, Windows-1252 (German
 * broker exports such as ariva's, whose `Stücke` and `Eröffnung` would not read as UTF-8). A byte
 * order mark is dropped.
 * @param bytes - the file's bytes
 * @returns the text and the encoding it was read in
 */
export function decodeCsvText(bytes: Uint8Array): CsvText {
  const encoding: CsvEncoding | undefined =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : undefined;
  if (encoding !== undefined) return { text: new TextDecoder(encoding).decode(bytes), encoding };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch (error) {
    // Not UTF-8 (a TypeError); anything else (a file too long for a string) is not an encoding's.
    if (!(error instanceof TypeError)) throw error;
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}
