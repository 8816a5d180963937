/**
 * The loaded part of a session's transcript: a page of rows around what the person is looking at,
 * grown by paging up (`before=`), caught up on new rows (`after=`), or replaced by a jump to a window
 * or search hit (`from=`). The cost of opening a session does not depend on its length.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ApiClient } from "./api/client";
import type { RowView } from "./api/types";

export const PAGE_SIZE = 100;

/** How the transcript's scroll position should follow the change that was just made. */
export type ScrollIntent =
  | { type: "bottom" }
  | { type: "bottom-if-following" }
  | { type: "keep-position" }
  | { type: "seq"; seq: number }
  | { type: "none" };

export interface TranscriptState {
  rows: RowView[];
  hasMoreBefore: boolean;
  hasMoreAfter: boolean;
  loading: boolean;
  error: string | undefined;
  intent: ScrollIntent;
  /** Changes with every update that carries an intent, so a layout effect can apply it once. */
  revision: number;
}

const initialState: TranscriptState = {
  rows: [],
  hasMoreBefore: false,
  hasMoreAfter: false,
  loading: true,
  error: undefined,
  intent: { type: "none" },
  revision: 0,
};

export interface Transcript extends TranscriptState {
  loadLatest(): Promise<void>;
  loadOlder(): Promise<void>;
  loadNewer(): Promise<void>;
  catchUp(): Promise<void>;
  jumpTo(seq: number): Promise<void>;
}

/**
 * @example
 * const transcript = useTranscript({ api, sessionId, internal: false });
 * transcript.rows.map((row) => row.text);
 */
export function useTranscript({
  api,
  sessionId,
  internal,
}: {
  api: ApiClient;
  sessionId: string;
  internal: boolean;
}): Transcript {
  const [state, setState] = useState<TranscriptState>(initialState);
  const current = useRef(state);
  const generation = useRef(0);
  const catchingUp = useRef<{ running: boolean; again: boolean }>({ running: false, again: false });

  const update = useCallback((change: (previous: TranscriptState) => Partial<TranscriptState>) => {
    const next = { ...current.current, ...change(current.current) };
    current.current = next;
    setState(next);
  }, []);

  const fail = useCallback(
    (error: unknown) =>
      update(() => ({ loading: false, error: error instanceof Error ? error.message : String(error) })),
    [update],
  );

  const replace = useCallback(
    async (query: { from?: number }, intent: ScrollIntent) => {
      const mine = ++generation.current;
      update(() => ({ loading: true, error: undefined }));
      try {
        const page = await api.rows(sessionId, { ...query, limit: PAGE_SIZE, internal });
        if (mine !== generation.current) return;
        update((previous) => ({
          rows: page.rows,
          hasMoreBefore: page.hasMoreBefore,
          hasMoreAfter: page.hasMoreAfter,
          loading: false,
          intent,
          revision: previous.revision + 1,
        }));
      } catch (error) {
        if (mine === generation.current) fail(error);
      }
    },
    [api, sessionId, internal, update, fail],
  );

  const loadLatest = useCallback(() => replace({}, { type: "bottom" }), [replace]);
  const jumpTo = useCallback((seq: number) => replace({ from: seq }, { type: "seq", seq }), [replace]);

  const loadOlder = useCallback(async () => {
    const { rows, hasMoreBefore, loading } = current.current;
    const first = rows[0];
    if (loading || !hasMoreBefore || first === undefined) return;
    const mine = generation.current;
    update(() => ({ loading: true, error: undefined }));
    try {
      const page = await api.rows(sessionId, { before: first.seq, limit: PAGE_SIZE, internal });
      if (mine !== generation.current) return;
      update((previous) => ({
        rows: merge(page.rows, previous.rows),
        hasMoreBefore: page.hasMoreBefore,
        loading: false,
        intent: { type: "keep-position" },
        revision: previous.revision + 1,
      }));
    } catch (error) {
      if (mine === generation.current) fail(error);
    }
  }, [api, sessionId, internal, update, fail]);

  const appendAfter = useCallback(
    async (intent: ScrollIntent, pages: number) => {
      const mine = generation.current;
      for (let page = 0; page < pages; page += 1) {
        const last = current.current.rows.at(-1);
        const answer = await api.rows(
          sessionId,
          last === undefined ? { limit: PAGE_SIZE, internal } : { after: last.seq, limit: PAGE_SIZE, internal },
        );
        if (mine !== generation.current) return;
        update((previous) => ({
          rows: merge(previous.rows, answer.rows),
          hasMoreAfter: answer.hasMoreAfter,
          hasMoreBefore: last === undefined ? answer.hasMoreBefore : previous.hasMoreBefore,
          intent,
          revision: previous.revision + 1,
        }));
        if (!answer.hasMoreAfter) return;
      }
    },
    [api, sessionId, internal, update],
  );

  const loadNewer = useCallback(async () => {
    if (current.current.loading || !current.current.hasMoreAfter) return;
    update(() => ({ loading: true, error: undefined }));
    try {
      await appendAfter({ type: "none" }, 1);
      update(() => ({ loading: false }));
    } catch (error) {
      fail(error);
    }
  }, [appendAfter, update, fail]);

  /** New rows were stored: fetch them, unless the person is reading an older part (a jump). */
  const catchUp = useCallback(async () => {
    const flags = catchingUp.current;
    if (flags.running) {
      flags.again = true;
      return;
    }
    flags.running = true;
    try {
      do {
        flags.again = false;
        if (current.current.hasMoreAfter) return;
        await appendAfter({ type: "bottom-if-following" }, 20);
      } while (flags.again);
    } catch (error) {
      fail(error);
    } finally {
      flags.running = false;
    }
  }, [appendAfter, fail]);

  useEffect(() => {
    generation.current += 1;
    current.current = initialState;
    setState(initialState);
    void loadLatest();
  }, [loadLatest]);

  return { ...state, loadLatest, loadOlder, loadNewer, catchUp, jumpTo };
}

/** Two ascending runs of rows as one, each seq once (the later copy wins). */
function merge(earlier: RowView[], later: RowView[]): RowView[] {
  const bySeq = new Map<number, RowView>();
  for (const row of earlier) bySeq.set(row.seq, row);
  for (const row of later) bySeq.set(row.seq, row);
  return [...bySeq.values()].sort((left, right) => left.seq - right.seq);
}
