import { describe, expect, it } from 'vitest';
import { findRow, rowKey } from '../../src/lib/rows';
import { missingNodes } from '../../src/lib/api';

describe('a log row in the hash', () => {
  const rows = [{ time_unix_nano: '30' }, { time_unix_nano: '20' }, { time_unix_nano: '20' }, { time_unix_nano: '20' }, { time_unix_nano: '10' }];

  it('names rows sharing a nanosecond apart', () => {
    expect(rows.map((_, i) => rowKey(rows, i))).toEqual(['30.0', '20.0', '20.1', '20.2', '10.0']);
  });

  it('finds the row a key names', () => {
    for (let i = 0; i < rows.length; i++) expect(findRow(rows, rowKey(rows, i))).toBe(i);
    expect(findRow(rows, '20')).toBe(1);
    expect(findRow(rows, '20.3')).toBe(-1);
    expect(findRow(rows, '')).toBe(-1);
  });
});

describe('a partial answer', () => {
  it('names the nodes that did not answer, whatever shape the field takes', () => {
    expect(missingNodes({})).toBeNull();
    expect(missingNodes(null)).toBeNull();
    expect(missingNodes({ missing: ['mira-1', 'mira-2'] })).toEqual(['mira-1', 'mira-2']);
    expect(missingNodes({ partial: { missing: ['mira-3'] } })).toEqual(['mira-3']);
    expect(missingNodes({ partial: true })).toEqual(['(unnamed)']);
    expect(missingNodes({ partial: false, missing: [] })).toBeNull();
    expect(missingNodes({ missing: [{ node: 'x' }] })).toEqual(['{"node":"x"}']);
  });
});
