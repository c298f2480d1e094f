/**
 * The `${...}` reference a YAML syntax error at `offset` stands on, when the error is YAML
 * reading the reference's `{` as the start of a flow map: an unquoted reference inside a flow
 * collection (`params: { qty: ${QTY} }`), where a plain scalar ends at `{`. In block style the
 * same reference parses (`qty: ${QTY}` on its own line).
 * @param text - the config's text
 * @param offset - where the first syntax error is
 * @returns the reference (`${QTY}`), or undefined when the error is something else
 */
export function unquotedFlowReferenceAt(text: string, offset: number): string | undefined {
  if (text[offset] !== '{' || text[offset - 1] !== '$') return undefined;
  const end = text.indexOf('}', offset);
  const lineEnd = text.indexOf('\n', offset);
  if (end < 0 || (lineEnd >= 0 && end > lineEnd)) return undefined;
  return text.slice(offset - 1, end + 1);
}

/**
 * What to say about a reference {@link unquotedFlowReferenceAt} found.
 * @param reference - the reference as written
 * @returns the problem's sentence
 */
export function unquotedFlowReferenceMessage(reference: string): string {
  return (
    `syntax error: ${reference} stands unquoted inside { } or [ ], where YAML reads its braces as a map: ` +
    `write that map in block style, one key per line (there ${reference} reads as YAML: a number stays a number), ` +
    `or quote it ("${reference}": a string); the rest of the file was not read`
  );
}
