/**
 * The catalog preview document: its URI, title and text from a
 * `skilldeck/catalog` response. No `vscode` import.
 */
import type { CatalogResult } from './protocol';

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
