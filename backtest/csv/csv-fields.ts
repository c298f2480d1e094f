/** Field separators the importer recognises, most common first. */
const DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * Guesses the field separator from the first line: the candidate that splits it most.
 * @param firstLine - the first non-empty line
 * @returns `,`, `;`, tab or `|` (comma when nothing splits the line)
 */
export function detectDelimiter(firstLine: string): string {
  let best: string = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = splitCsvLine(firstLine, d).length;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Splits one CSV line into trimmed fields, honouring double-quoted fields ("a,b", "say ""x""").
 * @param line - the line, without its line break
 * @param delimiter - the field separator
 * @returns the fields
 */
export function splitCsvLine(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter).map((f) => f.trim());
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === delimiter) {
      fields.push(field.trim());
      field = '';
    } else {
      field += c;
    }
  }
  fields.push(field.trim());
  return fields;
}
