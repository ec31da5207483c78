/**
 * The catalog preview document: its URI, title and text from a
 * `skilldeck/catalog` response. No `vscode` import.
 */
import type { CatalogResult, HostCatalogResult } from './protocol';

/** The virtual document scheme of the preview. */
export const PREVIEW_SCHEME = 'skilldeck-catalog';

/** The language of the preview document (package.json gives it word wrap). */
export const PREVIEW_LANGUAGE = 'skilldeck-catalog';

function folderName(folderUri: string): string {
  let path = folderUri;
  try {
    path = new URL(folderUri).pathname;
  } catch {
    // Not a URL: use the text as a path.
  }
  const trimmed = path.replace(/\/+$/, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || 'workspace';
  } catch {
    return last || 'workspace';
  }
}

/**
 * The path of the preview document for a workspace folder: `/<folder> catalog`.
 * Its last segment is what the editor tab shows; the adapter stores the folder
 * URI itself in the query.
 */
export function previewPath(folderUri: string): string {
  return `/${folderName(folderUri).replace(/[/\\?#]/g, '_')} catalog`;
}

/** "~1,234 tokens" with thousands separators independent of locale. */
export function formatTokens(tokenEstimate: number): string {
  const rounded = Math.max(0, Math.round(tokenEstimate));
  return `~${rounded.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')} tokens`;
}

function skills(count: number): string {
  return `${count} skill${count === 1 ? '' : 's'}`;
}

/** A one-line summary used in the title bar, the status bar tooltip and the document header. */
export function previewTitle(result: Pick<CatalogResult, 'folderUri' | 'skillCount' | 'tokenEstimate' | 'complete'>): string {
  const incomplete = result.complete ? '' : ' (incomplete)';
  return `Skill catalog: ${folderName(result.folderUri)} - ${skills(result.skillCount)}, ${formatTokens(result.tokenEstimate)}${incomplete}`;
}

/**
 * The document text: a short header (summary, completeness, the names in
 * catalog order), a rule, then the catalog text exactly as the model sees it.
 */
export function previewContent(result: CatalogResult): string {
  const lines: string[] = [];
  lines.push(`# ${previewTitle(result)}`);
  if (!result.complete) {
    lines.push('# Warning: discovery is incomplete; the catalog may be missing skills.');
  }
  if (result.entries.length > 0) {
    lines.push(`# Skills: ${result.entries.map((entry) => entry.name).join(', ')}`);
  }
  lines.push('# Read-only preview, refreshed when skills change. The model sees everything below the line.');
  lines.push('# ' + '-'.repeat(70));
  lines.push('');
  if (result.text.trim() === '') {
    lines.push('(empty: no model-invocable skills, so the model sees no catalog)');
  } else {
    lines.push(result.text.replace(/\s+$/, ''));
  }
  lines.push('');
  return lines.join('\n');
}

/** The preview text when the server cannot answer (not running, error). */
export function previewError(folderUri: string, message: string): string {
  return `# Skill catalog: ${folderName(folderUri)}\n# The skilldeck language server could not produce the catalog.\n\n${message}\n`;
}

/** A text budget bar: `[#######-------------] 35% of 8,000 characters`. */
export function budgetBar(total: number, budget: number, width = 20, unit = 'characters'): string {
  const share = budget > 0 ? total / budget : 1;
  const filled = Math.min(width, Math.round(Math.min(share, 1) * width));
  const over = share > 1 ? ' (over budget)' : '';
  const percent = Math.round(share * 100);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent}% of ${thousands(budget)} ${unit}${over}`;
}

function thousands(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The preview of one agent's listing (`skilldeck/hostCatalog`): a header with the
 * budget bar and how many entries are full, cut, name only or left out, then the
 * listing as far as the agent documents it.
 */
export function hostPreviewContent(result: HostCatalogResult): string {
  const budget = result.budget;
  const counts = { full: 0, cut: 0, 'name-only': 0, 'left-out': 0 };
  for (const entry of budget.entries) {
    counts[entry.state] += 1;
  }
  const lines: string[] = [];
  lines.push(`# ${result.label} skill listing: ${folderName(result.folderUri)} - ${budget.entries.length} entries, ${formatTokens(budget.tokenEstimate)}`);
  if (!result.complete) {
    lines.push('# Warning: discovery is incomplete; the listing may be missing skills.');
  }
  const context = budget.contextTokens === null ? 'context window unknown' : `${thousands(budget.contextTokens)} tokens of context`;
  if (budget.budgetChars !== null) {
    lines.push(`# Budget: ${budgetBar(budget.totalChars, budget.budgetChars)} (${context})`);
  } else if (budget.budgetTokens != null && budget.totalTokens != null) {
    // Codex counts its budget in tokens, as it counts them (docs/hosts.md).
    lines.push(`# Budget: ${budgetBar(budget.totalTokens, budget.budgetTokens, 20, 'tokens')} (${context})`);
  } else {
    lines.push(`# Budget: none documented; ${thousands(budget.totalChars)} characters`);
  }
  lines.push(`# ${counts.full} full, ${counts.cut} cut, ${counts['name-only']} name only, ${counts['left-out']} left out`);
  lines.push(`# Rules: ${result.docs} (docs/hosts.md)`);
  lines.push('# ' + '-'.repeat(70));
  lines.push('');
  if (result.entries.length === 0) {
    lines.push(`(empty: ${result.label} lists no skill of this workspace)`);
  }
  for (const entry of result.entries) {
    lines.push(entry.text === null ? `- ${entry.name}` : `- ${entry.name}: ${entry.text}`);
  }
  const left = budget.entries.filter((entry) => entry.state === 'left-out').map((entry) => entry.name);
  if (left.length > 0) {
    lines.push('', `# Left out: ${left.join(', ')}`);
  }
  lines.push('');
  return lines.join('\n');
}

/** The active editor's document as the catalog target needs it. */
export interface ActiveDocument {
  uri: string;
  scheme: string;
  /** The workspace folder holding it, if any. */
  folder: string | undefined;
}

/** Which folder's catalog the status item and the preview show, and a file they ignore. */
export interface CatalogTarget {
  target: string | undefined;
  /** The active file, outside every workspace folder (the user's settings JSON, say). */
  outside?: string;
}

/**
 * The folder whose catalog is shown: the active file's workspace folder; for a file
 * outside every folder (the user's settings JSON, a file opened from elsewhere) or an
 * editor that is no file, the folder shown last (`last`), else the first folder.
 * Such a file is ignored quietly: the server has no catalog for it (issue #41.3).
 */
export function catalogTarget(active: ActiveDocument | undefined, last: string | undefined, first: string | undefined): CatalogTarget {
  if (active !== undefined && active.scheme === 'file') {
    if (active.folder !== undefined) {
      return { target: active.folder };
    }
    return { target: last ?? first, outside: active.uri };
  }
  return { target: last ?? first };
}
