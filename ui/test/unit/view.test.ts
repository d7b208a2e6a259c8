import { describe, expect, it } from 'vitest';
import { addTerm, attrTerm, defaultView, formatHash, parseHash, pastedTraceId, quote, type View } from '../../src/lib/view';

describe('the view in the hash', () => {
  it('round-trips every field', () => {
    const v: View = {
      ...defaultView(), tab: 'traces', q: 'service.name=checkout "two words" code!=[500,503]', from: '2026-12-01T11:55:30Z',
      to: '2026-12-01T12:00:29.999999999Z', trace: '0af7651916cd43dd8448eb211c80319c', span: 'b7ad6b7169203331',
      row: '1767225600000000123', frame: 'traces,peers,around:5s', name: 'latency', fn: 'quantile', quantile: '0.99',
      groupBy: 'service.name,http.route', step: '30s', live: true,
    };
    expect(parseHash(formatHash(v))).toEqual(v);
  });

  it('leaves defaults out, so the plain view is a short link', () => {
    expect(formatHash(defaultView())).toBe('#/logs');
    expect(formatHash({ ...defaultView(), tab: 'map', from: '-15m' })).toBe('#/map?from=-15m');
  });

  it('reads the links alert rules carry', () => {
    const v = parseHash('#/logs?q=service.name%3Dcheckout%20severity_number%3E%3D%2217%22&from=2026-12-01T11%3A55%3A30Z&to=2026-12-01T12%3A00%3A29.999999999Z');
    expect(v.tab).toBe('logs');
    expect(v.q).toBe('service.name=checkout severity_number>="17"');
    expect(v.from).toBe('2026-12-01T11:55:30Z');
    expect(v.to).toBe('2026-12-01T12:00:29.999999999Z');
    expect(parseHash('#/metrics?name=queue.depth&q=queue%3Da')).toMatchObject({ tab: 'metrics', name: 'queue.depth', q: 'queue=a' });
  });

  it('falls back to the defaults for an unknown tab or an empty hash', () => {
    expect(parseHash('')).toEqual(defaultView());
    expect(parseHash('#/nowhere?q=x')).toEqual({ ...defaultView(), q: 'x' });
  });

  it('keeps a plus sign and an ampersand in the filter', () => {
    const v = { ...defaultView(), q: 'a=b+c&d "x y"' };
    expect(parseHash(formatHash(v)).q).toBe('a=b+c&d "x y"');
  });
});

describe('terms added by a click', () => {
  it('quotes only what the grammar needs', () => {
    expect(quote('checkout')).toBe('checkout');
    expect(quote('two words')).toBe('"two words"');
    expect(quote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(quote('-x')).toBe('"-x"');
    expect(quote('')).toBe('""');
    expect(quote('x=y')).toBe('"x=y"');
  });

  it('writes attributes that read back as what was clicked', () => {
    expect(attrTerm('service.name', 'checkout', 'logs')).toBe('service.name=checkout');
    expect(attrTerm('http.response.status_code', '503', 'logs')).toBe('http.response.status_code=503');
    expect(attrTerm('retry', true, 'logs')).toBe('retry=true');
    expect(attrTerm('ratio', 0.25, 'logs')).toBe('ratio=0.25');
    expect(attrTerm('zip', '007', 'logs')).toBe('zip="007"');
    expect(attrTerm('name', 'x', 'traces')).toBe('"name"=x');
    expect(attrTerm('name', 'x', 'logs')).toBe('name=x');
    expect(attrTerm('http.route', '/api/cart items', 'traces')).toBe('http.route="/api/cart items"');
  });

  it('adds a term once', () => {
    expect(addTerm('', 'a=1')).toBe('a=1');
    expect(addTerm(' b=2 ', 'a=1')).toBe('b=2 a=1');
    expect(addTerm('a=1 b=2', 'a=1')).toBe('a=1 b=2');
  });

  it('takes a pasted trace id as a trace to open', () => {
    expect(pastedTraceId(' 0AF7651916CD43DD8448EB211C80319C ')).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(pastedTraceId('trace_id=0af7651916cd43dd8448eb211c80319c')).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(pastedTraceId('0af7651916cd43dd8448eb211c80319c service.name=x')).toBeNull();
    expect(pastedTraceId('0af7651916cd43dd')).toBeNull();
  });
});
