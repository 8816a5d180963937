/**
 * The `<hot_memories>` block a window's requests carry: the one rendered for the window's first
 * request, kept for every later request of that window (docs/adr/0055). The system prompt is the
 * start of every request, so a block that changed with each notes write (or with each memory
 * file's access score) would make the provider re-read the whole window instead of reading it from
 * its prompt cache. Writes made in the window are in the window already, as the memory tool calls
 * that made them; the next window's first request renders the files afresh.
 */
export interface WindowMemories {
  /**
   * The block for a request of `windowId`: rendered once per window, then the same text.
   * Without a window (a figure before the turn's window is known) it is rendered afresh.
   */
  blockFor(windowId: string | undefined): Promise<string>;
}

/**
 * @example
 * const memories = createWindowMemories({ render: () => hotMemories.render() });
 * const block = await memories.blockFor("w:118");
 */
export function createWindowMemories({ render }: { render: () => Promise<string> }): WindowMemories {
  let kept: { windowId: string; block: string } | undefined;
  return {
    async blockFor(windowId) {
      if (windowId === undefined) return render();
      if (kept?.windowId === windowId) return kept.block;
      const block = await render();
      kept = { windowId, block };
      return block;
    },
  };
}
