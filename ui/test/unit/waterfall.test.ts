import { describe, expect, it } from 'vitest';
import { layout, lines, logsBySpan, ticks, visible, type SpanLike } from '../../src/lib/waterfall';
import { placeNodes } from '../../src/lib/maplayout';

const T0 = 1767225600000000000n;
function span(id: string, parent: string, start: number, end: number, service = 'a', error = false): SpanLike & { name: string } {
  return {
    span_id: id, parent_span_id: parent, name: id,
    start_time_unix_nano: (T0 + BigInt(start)).toString(), end_time_unix_nano: (T0 + BigInt(end)).toString(),
    status: { code: error ? 2 : 0 }, resource: { attributes: { 'service.name': service } },
  };
}

describe('waterfall layout', () => {
  it('nests children under parents, siblings by start time', () => {
    const l = layout([span('c2', 'r', 50, 90), span('r', '', 0, 100), span('g', 'c1', 20, 30), span('c1', 'r', 10, 40)]);
    expect(l.bars.map((b) => [b.span.span_id, b.depth])).toEqual([['r', 0], ['c1', 1], ['g', 2], ['c2', 1]]);
    expect(l.duration).toBe(100);
    expect(l.origin).toBe(T0);
    expect(l.bars[0].childCount).toBe(2);
  });

  it('measures every time from the origin exactly, whatever digits it shares with it', () => {
    // Offsets that cross 10^15 and 10^18 boundaries, times shorter than the origin's, unset times,
    // against BigInt arithmetic as the oracle.
    const origins = [999_999_999_999_999_000n, 1767225599999999999n, 123n, 999_999_999_999_990n];
    const offsets = [0n, 1n, 7n, 1000n, 10n ** 15n, 10n ** 15n + 1n, 5n * 10n ** 17n, 2n ** 52n, 86_400_000_000_000n];
    for (const o of origins) {
      const spans = offsets.map((d, i) => ({
        span_id: 's' + i, parent_span_id: '', start_time_unix_nano: (o + d).toString(),
        end_time_unix_nano: i === 2 ? '0' : (o + d + 3n).toString(), status: { code: 0 }, resource: { attributes: {} },
      }));
      const l = layout(spans);
      expect(l.origin).toBe(o);
      for (const b of l.bars) {
        const i = Number(b.span.span_id.slice(1));
        expect(b.start).toBe(Number(offsets[i]));
        expect(b.end).toBe(i === 2 ? Number(offsets[i]) : Number(offsets[i] + 3n));
      }
    }
  });

  it('draws a span whose parent is not stored as a root, marked', () => {
    const l = layout([span('r', '', 0, 100), span('x', 'missing', 10, 20), span('y', 'x', 12, 15)]);
    const x = l.bars.find((b) => b.span.span_id === 'x')!;
    expect(x.depth).toBe(0);
    expect(x.orphan).toBe(true);
    expect(l.bars.find((b) => b.span.span_id === 'y')!.depth).toBe(1);
    expect(l.bars.find((b) => b.span.span_id === 'r')!.orphan).toBe(false);
  });

  it('survives a parent cycle and draws every span once', () => {
    const l = layout([span('a', 'b', 0, 10), span('b', 'a', 0, 10), span('self', 'self', 0, 5)]);
    expect(l.bars.map((b) => b.span.span_id).sort()).toEqual(['a', 'b', 'self']);
  });

  it('moves a child of another service inside its parent when their clocks disagree', () => {
    // The callee's clock runs 1000 ns ahead: its 40 ns span "starts" after its parent ended.
    const l = layout([span('p', '', 0, 100, 'front'), span('c', 'p', 1030, 1070, 'back'), span('g', 'c', 1040, 1050, 'back')]);
    const c = l.bars.find((b) => b.span.span_id === 'c')!;
    expect(c.start).toBe(30);
    expect(c.end).toBe(70);
    expect(c.skew).toBe(-1000);
    // Its own children move with it, and within one service nothing is shifted again.
    const g = l.bars.find((b) => b.span.span_id === 'g')!;
    expect([g.start, g.end, g.skew]).toEqual([40, 50, 0]);
    // The axis is the corrected one: the trace lasts as long as its root.
    expect(l.duration).toBe(100);
  });

  it('leaves a same-service child alone even when it pokes out of its parent', () => {
    const l = layout([span('p', '', 0, 100), span('c', 'p', 90, 150)]);
    expect(l.bars[1].start).toBe(90);
    expect(l.bars[1].skew).toBe(0);
  });

  it('marks the critical path: the last-finishing child, then what ran before it', () => {
    const l = layout([span('r', '', 0, 100), span('a', 'r', 0, 40), span('b', 'r', 10, 30), span('c', 'r', 45, 95), span('d', 'c', 50, 60)]);
    const crit = Object.fromEntries(l.bars.map((b) => [b.span.span_id, b.critical]));
    expect(crit).toEqual({ r: true, a: true, b: false, c: true, d: true });
  });

  it('folds collapsed subtrees', () => {
    const l = layout([span('r', '', 0, 100), span('c1', 'r', 10, 40), span('g', 'c1', 20, 30), span('c2', 'r', 50, 90)]);
    expect(visible(l.bars, new Set(['c1'])).map((b) => b.span.span_id)).toEqual(['r', 'c1', 'c2']);
    expect(visible(l.bars, new Set(['r'])).map((b) => b.span.span_id)).toEqual(['r']);
    expect(visible(l.bars, new Set(['g'])).length).toBe(4);
  });

  it('lays out a 2,000-deep chain without overflowing the stack', () => {
    const spans = [span('s0', '', 0, 4000)];
    for (let i = 1; i < 2000; i++) spans.push(span('s' + i, 's' + (i - 1), i, 4000 - i));
    const l = layout(spans);
    expect(l.bars[1999].depth).toBe(1999);
  });

  it('interleaves each span\'s logs under it, oldest first, and folds them with the span', () => {
    const spans = [span('r', '', 0, 100), span('c1', 'r', 10, 40), span('g', 'c1', 20, 30), span('c2', 'r', 50, 90)];
    const l = layout(spans);
    // Newest first, as the API answers.
    const logs = [
      { span_id: 'g', body: 'g2' }, { span_id: 'other', body: 'stray' }, { span_id: 'c1', body: 'c1' },
      { span_id: 'g', body: 'g1' }, { span_id: '', body: 'none' },
    ];
    const by = logsBySpan(spans, logs);
    expect(by.get('g')!.map((x) => x.body)).toEqual(['g1', 'g2']);
    expect(by.get('')!.map((x) => x.body)).toEqual(['none', 'stray']);
    const text = (c: ReadonlySet<string>) => lines(l.bars, c, by).map((x) => x.kind === 'span' ? x.bar.span.span_id
      : (x.bar ? x.bar.span.span_id + ':' : '-:') + x.log.body);
    expect(text(new Set())).toEqual(['r', 'c1', 'c1:c1', 'g', 'g:g1', 'g:g2', 'c2', '-:none', '-:stray']);
    // A collapsed span hides its own logs and its subtree's; the logs of no span stay.
    expect(text(new Set(['c1']))).toEqual(['r', 'c1', 'c2', '-:none', '-:stray']);
    expect(text(new Set(['g']))).toEqual(['r', 'c1', 'c1:c1', 'g', 'c2', '-:none', '-:stray']);
  });

  it('lays out 2,000 spans with every parent before its children', () => {
    const spans = [span('s0', '', 0, 100000)];
    for (let i = 1; i < 2000; i++) spans.push(span('s' + i, 's' + Math.floor((i - 1) / 3), i, 100000 - i));
    const l = layout([...spans].reverse());
    const at = new Map(l.bars.map((b, i) => [b.span.span_id, i]));
    expect(l.bars.length).toBe(2000);
    for (const b of l.bars) {
      if (b.span.parent_span_id) {
        const p = l.bars[at.get(b.span.parent_span_id)!];
        expect(at.get(b.span.parent_span_id)!).toBeLessThan(at.get(b.span.span_id)!);
        expect(b.depth).toBe(p.depth + 1);
      }
    }
  });

  it('picks round ticks', () => {
    expect(ticks(100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(ticks(1_000_000, 4)).toEqual([0, 500_000, 1_000_000]);
  });
});

describe('map layout', () => {
  it('puts callees right of their callers and survives a call cycle', () => {
    const p = placeNodes(['web', 'api', 'db', 'x', 'y'], [{ from: 'web', to: 'api' }, { from: 'api', to: 'db' }, { from: 'x', to: 'y' }, { from: 'y', to: 'x' }], 800, 400);
    expect(p.get('web')!.column).toBe(0);
    expect(p.get('api')!.column).toBe(1);
    expect(p.get('db')!.column).toBe(2);
    expect(p.get('web')!.x).toBeLessThan(p.get('api')!.x);
    expect(p.size).toBe(5);
  });
});
