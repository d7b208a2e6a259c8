import { describe, expect, it } from 'vitest';
import { BOOT_FIRST_PAGE, earlyRequest } from '../../src/boot/request';
import { queryDoc } from '../../src/lib/api';
import { FIRST_PAGE } from '../../src/lib/early';
import { parseHash } from '../../src/lib/view';

describe('the boot script\'s first page', () => {
  it('is the request the logs view sends for the same hash, byte for byte', () => {
    expect(BOOT_FIRST_PAGE).toBe(FIRST_PAGE);
    for (const hash of ['', '#', '#/', '#/logs', '#/logs?q=service.name%3Dcheckout&from=-15m',
      '#/logs?q=%20%20&to=2026-01-01T00%3A00%3A00Z', '#/logs?q=a%20b&live=1&row=1.0', '#/logs?from=-2h&q=x%3D%22y%20z%22']) {
      const v = parseHash(hash);
      expect(v.tab).toBe('logs');
      expect(earlyRequest(hash, null)?.body, hash).toBe(JSON.stringify(queryDoc('logs', v, v.q, FIRST_PAGE)));
    }
  });

  it('is not sent for another view', () => {
    for (const hash of ['#/traces', '#/traces?trace=0af7651916cd43dd8448eb211c80319c', '#/metrics', '#/map', '#/alerts']) {
      expect(earlyRequest(hash, null), hash).toBeNull();
    }
  });

  it('carries the stored token', () => {
    expect(earlyRequest('#/logs', 'tok')?.headers.Authorization).toBe('Bearer tok');
    expect(earlyRequest('#/logs', null)?.headers.Authorization).toBeUndefined();
  });
});
