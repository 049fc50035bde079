// Modes: a request may tighten the operator's mode, never loosen it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectiveMode } from '../../src/engine/modes.ts';

describe('effective mode', () => {
  it('keeps the operator mode without a request mode', () => {
    assert.equal(effectiveMode('default').name, 'default');
  });
  it('accepts a stricter request', () => {
    assert.equal(effectiveMode('default', 'strict').name, 'strict');
    assert.equal(effectiveMode('bypass_all', 'default').name, 'default');
    assert.equal(effectiveMode('auto_approve', 'read_only').flags.readOnly, true);
  });
  it('refuses a looser request', () => {
    const m = effectiveMode('default', 'bypass_all');
    assert.equal(m.name, 'default');
    assert.equal(m.loosenRefused, true);
    assert.equal(effectiveMode('read_only', 'default').flags.readOnly, true);
    assert.equal(effectiveMode('strict', 'auto_approve').flags.askUnmatched, true);
    assert.equal(effectiveMode('strict', 'auto_approve').flags.autoResolve, 'none');
  });
  it('combines incomparable modes flag by flag', () => {
    const m = effectiveMode('strict', 'read_only');
    assert.deepEqual(m.flags, { readOnly: true, askUnmatched: true, autoResolve: 'none' });
  });
});
