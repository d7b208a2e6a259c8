import { describe, expect, it } from 'vitest';
import { expandTrace, type CompactTrace } from '../../src/lib/api';

// Two spans as GET /api/v1/traces/{id} writes them in the full shape, and the same trace in the
// compact shape (docs/api.md): the UI asks for the second and must draw exactly the first.
const resource = { attributes: { 'service.name': 'checkout' }, dropped_attributes_count: 0, entity: '9a3c000000000001' };
const other = { attributes: { 'service.name': 'cart' }, dropped_attributes_count: 0, entity: null };
const scope = { name: 'lib', version: '1.0', attributes: {}, dropped_attributes_count: 0 };
const id = '0af7651916cd43dd8448eb211c80319c';

const full = [
  {
    trace_id: id, span_id: '00f067aa0ba902b7', parent_span_id: '', trace_state: '', flags: 0, name: 'GET /cart', kind: 0,
    start_time_unix_nano: '100', end_time_unix_nano: '300', duration_nano: '200', status: { code: 0, message: '' },
    attributes: {}, dropped_attributes_count: 0, events: [], dropped_events_count: 0, links: [], dropped_links_count: 0,
    resource, scope,
  },
  {
    trace_id: id, span_id: '00f067aa0ba902b8', parent_span_id: '00f067aa0ba902b7', trace_state: 'k=v', flags: 1, name: 'SELECT',
    kind: 3, start_time_unix_nano: '150', end_time_unix_nano: '250', duration_nano: '100', status: { code: 2, message: 'lock' },
    attributes: { 'db.system': 'postgresql' }, dropped_attributes_count: 2,
    events: [{ time_unix_nano: '200', name: 'exception', attributes: {}, dropped_attributes_count: 0 }], dropped_events_count: 1,
    links: [{ trace_id: id, span_id: '00f067aa0ba902b7', trace_state: '', flags: 0, attributes: {}, dropped_attributes_count: 0 }],
    dropped_links_count: 3, resource: other, scope,
  },
];

const compact: CompactTrace = {
  trace_id: id, shape: 'compact', resources: [resource, other], scopes: [scope],
  rows: [
    { span_id: '00f067aa0ba902b7', name: 'GET /cart', start_time_unix_nano: '100', end_time_unix_nano: '300', duration_nano: '200', resource: 0, scope: 0 },
    {
      span_id: '00f067aa0ba902b8', parent_span_id: '00f067aa0ba902b7', name: 'SELECT', start_time_unix_nano: '150',
      end_time_unix_nano: '250', duration_nano: '100', ...{ trace_state: 'k=v', flags: 1 }, kind: 3,
      status: { code: 2, message: 'lock' }, attributes: { 'db.system': 'postgresql' }, ...{ dropped_attributes_count: 2 },
      events: full[1].events, ...{ dropped_events_count: 1 }, links: full[1].links, ...{ dropped_links_count: 3 }, resource: 1, scope: 0,
    },
  ],
  stats: { took_ms: '1' },
};

describe('the compact trace', () => {
  it('expands to the rows of the full shape, key for key', () => {
    const t = expandTrace(compact);
    expect(t.rows).toEqual(full);
    expect(t.rows.map((r) => Object.keys(r))).toEqual(full.map((r) => Object.keys(r)));
    expect(t.trace_id).toBe(id);
    expect(t.stats).toEqual({ took_ms: '1' });
    expect(Object.keys(t).sort()).toEqual(['rows', 'stats', 'trace_id']);
  });

  it('shares each resource between the spans that name it', () => {
    const t = expandTrace({ ...compact, rows: [compact.rows[0], { ...compact.rows[0], span_id: 'x' }] });
    expect(t.rows[0].resource).toBe(t.rows[1].resource);
    expect(t.rows[0].resource).toBe(resource);
  });

  it('keeps a span\'s own trace id when it differs from the trace\'s', () => {
    const t = expandTrace({ ...compact, rows: [{ ...compact.rows[0], trace_id: 'ffffffffffffffffffffffffffffffff' }] });
    expect(t.rows[0].trace_id).toBe('ffffffffffffffffffffffffffffffff');
  });
});
