import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timeOrderedId } from '../../src/store/ids.ts';

test('ids are version-7 UUIDs that carry their creation time and sort by it', () => {
  const at = Date.parse('2026-11-29T12:00:00.000Z');
  const id = timeOrderedId(at);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), at);
  const later = timeOrderedId(at + 1);
  assert.ok(later > id, `${later} sorts after ${id}`);
  const many = new Set(Array.from({ length: 10_000 }, () => timeOrderedId(at)));
  assert.equal(many.size, 10_000, 'ids made in the same millisecond are still unique');
});
