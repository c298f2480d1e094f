import { parseDocument } from 'yaml';

/**
 * Parses a YAML value typed on the command line, read from a small file or taken from the
 * environment, as yaml's `parse` does, but refusing what `parse` only warns of: an unresolved
 * tag (`!foo 3`, an environment value `!important`) is printed by `parse` as a Node process
 * warning and read as the untagged value (`3`, an empty string), so a typo in a value went through
 * with a stray line on stderr.
 * @param text - the YAML text
 * @returns the value
 * @throws Error yaml's first error or warning, when the text has one
 */
export function strictYamlValue(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) throw problem;
  return doc.toJS() as unknown;
}
