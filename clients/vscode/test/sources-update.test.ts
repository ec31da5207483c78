import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sourcesUpdateMessage } from '../src/sources-update';

describe('sourcesUpdateMessage', () => {
  it('says so when there are no sources', () => {
    assert.match(sourcesUpdateMessage({ sources: [] }) ?? '', /^Skilldeck: no skill sources to update\./);
  });

  it('leaves the word to the progress notification when sources were fetched', () => {
    assert.equal(sourcesUpdateMessage({ sources: [{ name: 'team' }] }), undefined);
    assert.equal(sourcesUpdateMessage(null), undefined);
  });
});
