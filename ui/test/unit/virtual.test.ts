import { describe, expect, it } from 'vitest';
import { revealTop, windowOf } from '../../src/lib/virtual';

describe('virtual list window', () => {
  it('draws the rows in sight plus the overscan, clipped to the list', () => {
    expect(windowOf(0, 220, 22, 10_000, 10)).toEqual([0, 20]);
    expect(windowOf(2200, 220, 22, 10_000, 10)).toEqual([90, 120]);
    // A row cut by the bottom edge is drawn.
    expect(windowOf(11, 220, 22, 10_000, 0)).toEqual([0, 11]);
    expect(windowOf(22 * 9_995, 220, 22, 10_000, 10)).toEqual([9_985, 10_000]);
  });

  it('draws nothing for an empty list, or a scroll position past its end', () => {
    expect(windowOf(0, 600, 22, 0, 10)).toEqual([0, 0]);
    expect(windowOf(1e6, 600, 22, 5, 10)).toEqual([5, 5]);
  });

  it('scrolls just enough to reveal a row', () => {
    expect(revealTop(0, 100, 220, 22)).toBe(0);
    expect(revealTop(5, 0, 220, 22)).toBe(0);
    expect(revealTop(10, 0, 220, 22)).toBe(22);
    expect(revealTop(100, 0, 220, 22)).toBe(100 * 22 + 22 - 220);
  });
});
