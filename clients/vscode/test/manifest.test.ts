import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PREVIEW_LANGUAGE } from '../src/preview';
import { DEFAULT_TREE_OPTIONS } from '../src/tree-model';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    languages?: { id: string }[];
    configurationDefaults?: Record<string, Record<string, unknown>>;
    configuration: { properties: Record<string, { default?: unknown; minimum?: number }> };
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;

describe('package.json contributions', () => {
  it('wraps the catalog preview (a language of its own with word wrap on)', () => {
    assert.ok(manifest.contributes.languages?.some((language) => language.id === PREVIEW_LANGUAGE));
    assert.equal(manifest.contributes.configurationDefaults?.[`[${PREVIEW_LANGUAGE}]`]?.['editor.wordWrap'], 'on');
  });

  it('contributes the host listing preview command', () => {
    assert.ok(manifest.contributes.commands.some((c) => c.command === 'skilldeck.previewHostListing'));
  });

  it("contributes Update Skill Sources as the extension's own command (it works with the server stopped)", () => {
    const commands = manifest.contributes.commands.map((c) => c.command);
    assert.ok(commands.includes('skilldeck.updateSources'));
    // The language client registers the server's command only while the server runs.
    assert.ok(!commands.includes('skilldeck.sources.update'));
  });

  it('declares the token budget and the tree grouping settings', () => {
    const properties = manifest.contributes.configuration.properties;
    assert.equal(properties['skilldeck.catalogTokenBudget']?.default, 10000);
    assert.equal(properties['skilldeck.catalogTokenBudget']?.minimum, 0);
    assert.equal(properties['skilldeck.skillsView.groupThreshold']?.default, DEFAULT_TREE_OPTIONS.groupThreshold);
  });
});
