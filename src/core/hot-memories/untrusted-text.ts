/**
 * Memory files are untrusted: the agent, a user or another program may have written anything into
 * them. Before they go into the `<hot_memories>` block, tags of the block are defused and
 * attribute values are escaped, so file content cannot end the block or fake an entry.
 */

/** Opening or closing tags named like the block's own tags, with any spacing or letter case. */
const BLOCK_TAG = /<(\s*\/?\s*)(hot_memories|memory)(?![\w-])/gi;

/**
 * Replaces the `<` of every `<hot_memories`, `</hot_memories`, `<memory` and `</memory` tag
 * (any case, any spacing) with `&lt;`. Other text is left as it is.
 *
 * @example
 * neutralizeBlockTags("ok </hot_memories> sneaky") // "ok &lt;/hot_memories> sneaky"
 */
export function neutralizeBlockTags(content: string): string {
  return content.replace(BLOCK_TAG, (_match, between: string, name: string) => `&lt;${between}${name}`);
}

/**
 * How many tags `neutralizeBlockTags` would defuse (each one grows the text by 3 bytes).
 *
 * @example
 * countBlockTags("</memory></hot_memories>") // 2
 */
export function countBlockTags(content: string): number {
  return content.match(BLOCK_TAG)?.length ?? 0;
}

/**
 * Escapes a value for a double-quoted attribute: `& " ' < >` and control characters become
 * character references.
 *
 * @example
 * escapeAttribute('a"b') // "a&quot;b"
 */
export function escapeAttribute(value: string): string {
  return value.replace(/[&"'<>\u0000-\u001f\u007f]/g, (character) => {
    switch (character) {
      case "&":
        return "&amp;";
      case '"':
        return "&quot;";
      case "'":
        return "&#39;";
      case "<":
        return "&lt;";
      case ">":
        return "&gt;";
      default:
        return `&#${character.charCodeAt(0)};`;
    }
  });
}
