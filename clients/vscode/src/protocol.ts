/**
 * The skilldeck/* protocol extensions spoken by `python -m skilldeck serve`.
 *
 * Types only; no runtime code and no `vscode` import.
 */

/** Params of the `skilldeck/catalog` request. */
export interface CatalogParams {
  /** A document URI or a workspace-folder URI. */
  uri: string;
}

/** One skill as the model sees it in the catalog. */
export interface CatalogEntry {
  name: string;
  description: string;
}

/**
 * Why the skill files (the Skills view) and the catalog (the status item) differ in
 * number, the server's `FolderIndex.tally`: `skillFiles == fromFiles + shadowed +
 * notLoaded + notModelInvocable` and `inCatalog == fromFiles + provided`.
 */
export interface SkillCounts {
  skillFiles: number;
  inCatalog: number;
  fromFiles: number;
  provided: number;
  shadowed: number;
  notLoaded: number;
  notModelInvocable: number;
}

/** Result of the `skilldeck/catalog` request. */
export interface CatalogResult {
  text: string;
  entries: CatalogEntry[];
  complete: boolean;
  tokenEstimate: number;
  skillCount: number;
  folderUri: string;
  /** Absent from servers before issue #41.6. */
  counts?: SkillCounts;
}

/** One entry's state in an agent's listing (docs/hosts.md). */
export type HostEntryState = 'full' | 'cut' | 'name-only' | 'left-out';

/** Result of `skilldeck/hostCatalog`: `budget` is `skilldeck budget --host H --json`. */
export interface HostCatalogResult {
  host: string;
  label: string;
  docs: string;
  folderUri: string;
  complete: boolean;
  budget: {
    host: string;
    contextTokens: number | null;
    budgetChars: number | null;
    /** The budget and the listing's size where the host counts in tokens (Codex). */
    budgetTokens?: number | null;
    totalTokens?: number | null;
    totalChars: number;
    tokenEstimate: number;
    entries: { name: string; state: HostEntryState; shownChars: number }[];
  };
  entries: { name: string; state: HostEntryState; text: string | null }[];
}

/** Params of the `skilldeck/catalogChanged` notification (server to client). */
export interface CatalogChangedParams {
  folderUri: string;
  complete: boolean;
  tokenEstimate: number;
  skillCount: number;
  counts?: SkillCounts;
}

/**
 * A pointer from one skill candidate to another (shadowing). `uri` is null for a
 * skill whose provider names no file (a runtime or remote skill); `provider` names
 * the provider of such a skill (null for skill files of the roots).
 */
export interface SkillRef {
  source: string;
  rank: number;
  uri: string | null;
  provider?: string | null;
}

/** One agent's verdict on a skill file (`skilldeck.hosts`). */
export interface HostVerdict {
  loads: boolean;
  catalog: 'full' | 'cut' | 'name-only' | 'left-out' | null;
}

/**
 * One skill candidate found in a root, or provided by another provider
 * (`layout: 'provided'`: bundled, runtime, registered; `uri` null when no file).
 */
export interface SkillInfo {
  name: string;
  description: string;
  uri: string | null;
  layout: 'bundle' | 'flat' | 'provided';
  provider?: string | null;
  /** What each agent of `skilldeck.hosts` does with the file (absent: only DSH). */
  hosts?: Record<string, HostVerdict>;
  winner: boolean;
  accepted: boolean;
  shadowedBy: SkillRef | null;
  shadows: SkillRef[];
  modelInvocable: boolean;
  userInvocable: boolean;
  errorCount: number;
  warningCount: number;
}

/**
 * One discovery root, in rank order; or one provider other than the filesystem
 * (`provider` set, `path` and `uri` null) with the skills it provides.
 */
export interface RootInfo {
  rank: number;
  source: string;
  path: string | null;
  uri: string | null;
  provider?: string | null;
  exists: boolean;
  skills: SkillInfo[];
}

/** The roots seen from one workspace folder. */
export interface FolderInfo {
  folderUri: string;
  roots: RootInfo[];
}

/** Params of the `skilldeck/skills` request. */
export interface SkillsParams {
  uri?: string;
}

/** Result of the `skilldeck/skills` request. */
export interface SkillsResult {
  complete: boolean;
  folders: FolderInfo[];
}

export const CATALOG_REQUEST = 'skilldeck/catalog';
/** One agent's listing and budget (`lsp/features/host_catalog.py`). */
export const HOST_CATALOG_REQUEST = 'skilldeck/hostCatalog';
export const SKILLS_REQUEST = 'skilldeck/skills';
export const CATALOG_CHANGED_NOTIFICATION = 'skilldeck/catalogChanged';

/** The `skilldeck/serverError` notification: a handler failed in a new way (server to client). */
export const SERVER_ERROR_NOTIFICATION = 'skilldeck/serverError';

/** Params of `skilldeck/serverError`: `kind` names the failure (type and place). */
export interface ServerErrorParams {
  kind: string;
  message: string;
}
