/**
 * What cross-session discovery knows about each session of a store: where it came from (an
 * imported Claude Code or Codex session, or a ctxwin session), its title and project folder, and
 * when it ran. Imported sessions carry this in their hidden first row (`meta.type`
 * "imported-session"); a ctxwin session ran in the store's own project and is titled by its first
 * user message, as an importer titles an imported one. A session with a manual reset is described
 * from its privacy floor on (ADR 0046): its title is the first user message after the floor
 * (ADR 0054), its start time and window count are those of the windows after the floor.
 * Descriptors are cached per session and re-read only when the session grows or is created again,
 * so listing thousands of sessions costs two row reads per new or changed session, plus one item
 * page per session whose title is not known yet and one window page per changed session with a
 * reset. A child session a clear above it hides (ADR 0073) is not described at all.
 */
import { sliceSafe } from "../../core/row-text.js";
import { visibleSessions } from "../../store/lineage/session-visibility.js";
import { MAX_PAGE_LIMIT } from "../../store/options.js";
import type { HistoryStore, SessionSummary } from "../../store/port.js";
import { firstUserText } from "./first-user-text.js";

/** Where a session's rows came from. */
export const SESSION_SOURCES = ["claude-code", "codex", "ctxwin"] as const;
export type SessionSource = (typeof SESSION_SOURCES)[number];

/** `meta.type` of the hidden header row that importers write first. */
const IMPORTED_SESSION_TYPE = "imported-session";
const MAX_PROJECT_CHARS = 300;
const MAX_TITLE_CHARS = 120;
const MAX_FACT_CHARS = 200;

export interface SessionDescriptor {
  sessionId: string;
  source: SessionSource;
  /**
   * The first line of the session's first user message (an imported session: the importer's
   * title, which is that line); with a manual reset, of the first user message after it. At most
   * 120 characters; `null` while the session has no such message.
   */
  title: string | null;
  /** The folder the agent ran in, when known. */
  project: string | null;
  /** An imported session: the git branch it started on, when the transcript records it. */
  gitBranch: string | null;
  /** An imported session: the model of its first turn, when the transcript records it. */
  model: string | null;
  /**
   * Time of the session's first row (an imported session: the source's own time); with a manual
   * reset, when the reset's window began.
   */
  startedAt: string;
  /** Time of the session's newest row. */
  endedAt: string;
  /** The session's windows; with a manual reset, only the reset's window and those after it. */
  windowCount: number;
  summary: SessionSummary;
}

/** Which sessions to keep; every field is optional and all given fields must match. */
export interface SessionFilter {
  /** A project folder: sessions that ran in it or in a folder below it. */
  project?: string;
  source?: SessionSource;
  /** Sessions with activity at or after this time (ISO). */
  since?: string;
  /** Sessions that started at or before this time (ISO). */
  until?: string;
}

interface CachedDescriptor {
  incarnation: string;
  lastSeq: number;
  descriptor: SessionDescriptor;
}

/**
 * The sessions of one store, described and cached.
 *
 * @example
 * const catalog = new SessionCatalog({ store, projectDirectory: "/work/app" });
 * const recent = await catalog.describe({ source: "claude-code" }); // newest activity first
 */
export class SessionCatalog {
  readonly store: HistoryStore;
  private readonly projectDirectory: string | undefined;
  private readonly cache = new Map<string, CachedDescriptor>();
  /** Titles found by reading the session, per incarnation and floor: a found title never changes. */
  private readonly titles = new Map<string, { incarnation: string; floorSeq: number; title: string }>();

  constructor({ store, projectDirectory }: { store: HistoryStore; projectDirectory?: string }) {
    this.store = store;
    this.projectDirectory = projectDirectory;
  }

  /** The visible sessions that match `filter`, newest activity first (ties: by session id). */
  async describe(filter: SessionFilter = {}): Promise<SessionDescriptor[]> {
    const summaries = await visibleSessions({ store: this.store, summaries: await this.store.sessions() });
    const known = new Set<string>();
    const descriptors: SessionDescriptor[] = [];
    for (const summary of summaries) {
      known.add(summary.sessionId);
      const descriptor = await this.descriptorOf(summary);
      if (matches(descriptor, filter)) descriptors.push(descriptor);
    }
    for (const sessionId of this.cache.keys()) if (!known.has(sessionId)) this.cache.delete(sessionId);
    for (const sessionId of this.titles.keys()) if (!known.has(sessionId)) this.titles.delete(sessionId);
    return descriptors.sort(
      (left, right) => right.endedAt.localeCompare(left.endedAt) || left.sessionId.localeCompare(right.sessionId),
    );
  }

  /**
   * The descriptors of these sessions (ids a search found: visible ones), by id; unknown ids are
   * left out. Reads only these sessions, not the whole store.
   */
  async describeSessions(sessionIds: readonly string[]): Promise<Map<string, SessionDescriptor>> {
    const described = new Map<string, SessionDescriptor>();
    for (const sessionId of new Set(sessionIds)) {
      const summary = await this.store.session(sessionId);
      if (summary !== undefined) described.set(sessionId, await this.descriptorOf(summary));
    }
    return described;
  }

  private async descriptorOf(summary: SessionSummary): Promise<SessionDescriptor> {
    const cached = this.cache.get(summary.sessionId);
    if (cached !== undefined && cached.incarnation === summary.incarnation && cached.lastSeq === summary.lastSeq) {
      return { ...cached.descriptor, summary };
    }
    const descriptor = await this.readDescriptor(summary);
    this.cache.set(summary.sessionId, { incarnation: summary.incarnation, lastSeq: summary.lastSeq, descriptor });
    return descriptor;
  }

  private async readDescriptor(summary: SessionSummary): Promise<SessionDescriptor> {
    const { sessionId } = summary;
    // Metadata only: the header's title is shown only when no reset hides the session's start.
    const first = await this.store.read(sessionId, 1, { includeCleared: true });
    const last =
      summary.lastSeq <= 1 ? first : await this.store.read(sessionId, summary.lastSeq, { includeCleared: true });
    const header = first?.meta?.type === IMPORTED_SESSION_TYPE && first.synthetic === true ? first.meta : undefined;
    const source = header === undefined ? "ctxwin" : sourceOf(header["source"]);
    const headerTitle =
      header !== undefined && summary.floorSeq === 0 && typeof header["title"] === "string" && header["title"] !== ""
        ? header["title"]
        : undefined;
    const title =
      headerTitle === undefined ? await this.titleAfterFloor(summary) : sliceSafe(headerTitle, 0, MAX_TITLE_CHARS);
    const headerProject = header === undefined ? undefined : header["project"];
    const project =
      typeof headerProject === "string"
        ? sliceSafe(headerProject, 0, MAX_PROJECT_CHARS)
        : header === undefined
          ? (this.projectDirectory ?? null)
          : null;
    const endedAt = last?.createdAt ?? summary.updatedAt;
    const facts = { gitBranch: headerText(header, "gitBranch"), model: headerText(header, "model") };
    // Without a reset every window is visible; after one, only the windows after it count.
    const visible =
      summary.floorSeq === 0
        ? { count: summary.windowCount, startedAt: first?.createdAt ?? summary.createdAt }
        : await this.windowsAfterFloor(sessionId);
    return {
      sessionId,
      source,
      title,
      project,
      ...facts,
      startedAt: visible.startedAt ?? endedAt,
      endedAt,
      windowCount: visible.count,
      summary,
    };
  }

  /** The first line of the first user message after the floor (the store applies it), or null. */
  private async titleAfterFloor(summary: SessionSummary): Promise<string | null> {
    const cached = this.titles.get(summary.sessionId);
    if (cached !== undefined && cached.incarnation === summary.incarnation && cached.floorSeq === summary.floorSeq)
      return cached.title;
    const text = await firstUserText({ store: this.store, sessionId: summary.sessionId });
    if (text === undefined) {
      this.titles.delete(summary.sessionId);
      return null;
    }
    const line = text.split("\n")[0]!.trim();
    const title = line.length <= MAX_TITLE_CHARS ? line : `${sliceSafe(line, 0, MAX_TITLE_CHARS - 1)}…`;
    this.titles.set(summary.sessionId, { incarnation: summary.incarnation, floorSeq: summary.floorSeq, title });
    return title;
  }

  /** How many windows lie after the privacy floor (the store applies it) and when the oldest began. */
  private async windowsAfterFloor(sessionId: string): Promise<{ count: number; startedAt: string | undefined }> {
    let count = 0;
    let startedAt: string | undefined;
    let beforeWindow: string | undefined;
    for (;;) {
      const page = await this.store.windows(sessionId, {
        limit: MAX_PAGE_LIMIT,
        ...(beforeWindow === undefined ? {} : { beforeWindow }),
      });
      const oldest = page.windows.at(-1);
      count += page.windows.length;
      if (oldest !== undefined) startedAt = oldest.startedAt;
      if (!page.hasMore || oldest === undefined) return { count, startedAt };
      beforeWindow = oldest.windowId;
    }
  }
}

/** A short text fact of an imported session's header (git branch, model), or null. */
function headerText(header: Record<string, unknown> | undefined, key: string): string | null {
  const value = header?.[key];
  return typeof value === "string" && value !== "" ? sliceSafe(value, 0, MAX_FACT_CHARS) : null;
}

function sourceOf(value: unknown): SessionSource {
  return value === "claude-code" || value === "codex" ? value : "ctxwin";
}

function matches(descriptor: SessionDescriptor, filter: SessionFilter): boolean {
  if (filter.source !== undefined && descriptor.source !== filter.source) return false;
  if (filter.project !== undefined && !isInFolder(descriptor.project, filter.project)) return false;
  if (filter.since !== undefined && descriptor.endedAt < filter.since) return false;
  if (filter.until !== undefined && descriptor.startedAt > filter.until) return false;
  return true;
}

/** `project` is `folder` or lies below it (either path separator; a trailing one is ignored). */
function isInFolder(project: string | null, folder: string): boolean {
  if (project === null) return false;
  const trimmed = folder.replace(/[\\/]+$/, "");
  if (trimmed === "") return project.startsWith("/") || project.startsWith("\\");
  return project === trimmed || project.startsWith(`${trimmed}/`) || project.startsWith(`${trimmed}\\`);
}
