const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML element content and quoted attribute values. Every string from a
 * result (strategy names, params, syms, reasons) goes through it, so a crafted name cannot
 * inject markup into the report.
 * @param text - any text
 * @returns the text with &, <, >, " and ' replaced by entities
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Serializes data for a `<script type="application/json">` block: `<` is written as `\u003c`
 * so no `</script>` or `<!--` can end the block early, and U+2028/U+2029 are escaped too.
 * @param data - JSON-serializable data
 * @returns JSON text safe inside a script element
 */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Makes JavaScript source safe to inline in a `<script>` element: a `</script` or `<!--`
 * inside a string or regex literal would end or confuse the element, `<\/` means the same.
 * @param source - JavaScript source
 * @returns the source with `</script` and `<!--` neutralised
 */
export function scriptSafe(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}
