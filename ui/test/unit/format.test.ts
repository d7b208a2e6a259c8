import { describe, expect, it } from 'vitest';
import { formatClock, formatCount, formatDuration, formatTime, formatValue, nsToMs, severityBand } from '../../src/lib/format';

describe('times', () => {
  it('shows nanosecond timestamps in UTC to the millisecond', () => {
    expect(formatTime('1767225600000000000')).toBe('2026-01-01 00:00:00.000');
    expect(formatTime('1767225601123999999')).toBe('2026-01-01 00:00:01.123');
    expect(formatClock('1767225601123456789')).toBe('00:00:01.123456789');
  });

  it('keeps 64-bit precision past 2^53', () => {
    expect(nsToMs('1767225600999999999')).toBe(1767225600999);
    expect(formatClock('1767225600000000001')).toBe('00:00:00.000000001');
  });

  it('passes anything that is not a timestamp through', () => {
    expect(formatTime('')).toBe('');
    expect(Number.isNaN(nsToMs('x'))).toBe(true);
  });
});

describe('durations', () => {
  it('picks the unit and three significant digits', () => {
    expect(formatDuration(850)).toBe('850 ns');
    expect(formatDuration(1_250)).toBe('1.25 µs');
    expect(formatDuration(12_000_000)).toBe('12.0 ms');
    expect(formatDuration(999_400_000)).toBe('999 ms');
    expect(formatDuration(2_000_000_000)).toBe('2.00 s');
    expect(formatDuration(184_000_000_000)).toBe('3m 04s');
    expect(formatDuration(7_380_000_000_000)).toBe('2h 03m');
    expect(formatDuration(-1_500_000)).toBe('-1.50 ms');
    expect(formatDuration(NaN)).toBe('–');
  });
});

describe('numbers', () => {
  it('groups counts, including the API\'s 64-bit strings', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount('9007199254740993')).toBe('9,007,199,254,740,993');
    expect(formatCount(-1234.5)).toBe('-1,234.50');
  });

  it('shortens chart values', () => {
    expect(formatValue(0)).toBe('0');
    expect(formatValue(0.25)).toBe('0.25');
    expect(formatValue(12.345)).toBe('12.35');
    expect(formatValue(15_300)).toBe('15.3k');
    expect(formatValue(3_400_000)).toBe('3.4M');
    expect(formatValue(0.0000123)).toBe('1.2e-5');
  });

  it('bands severities as OTLP numbers them', () => {
    expect([0, 1, 5, 9, 13, 17, 21, 24].map(severityBand)).toEqual(['unset', 'trace', 'debug', 'info', 'warn', 'error', 'fatal', 'fatal']);
  });
});
