import { describe, expect, it } from 'vitest';
import { afterQuietHours } from '../../server/notify/quietHours';

/** Quiet hours in the contact point's zone: what is not critical waits for their end (docs/api.md, "Notifications"). */
describe('quiet hours', () => {
  const shanghai = { from: '22:00', to: '07:00', timeZone: 'Asia/Shanghai' };

  it('holds a notice sent inside a window that spans midnight until its end, in the contact point’s zone', () => {
    // 23:30 in Shanghai (15:30 UTC) waits until 07:00 there (23:00 UTC).
    expect(afterQuietHours(new Date('2026-11-26T15:30:20Z'), shanghai).toISOString()).toBe('2026-11-26T23:00:00.000Z');
    // 03:10 in Shanghai, after midnight.
    expect(afterQuietHours(new Date('2026-11-26T19:10:00Z'), shanghai).toISOString()).toBe('2026-11-26T23:00:00.000Z');
  });

  it('lets a notice outside the window, or without quiet hours, go at once', () => {
    const at = new Date('2026-11-26T04:00:00Z'); // 12:00 in Shanghai
    expect(afterQuietHours(at, shanghai)).toBe(at);
    expect(afterQuietHours(new Date('2026-11-26T23:00:00Z'), shanghai).toISOString()).toBe('2026-11-26T23:00:00.000Z');
    expect(afterQuietHours(at, { from: null, to: null, timeZone: 'UTC' })).toBe(at);
  });

  it('handles a window within one day and another zone', () => {
    const lunch = { from: '12:00', to: '13:30', timeZone: 'Europe/London' };
    expect(afterQuietHours(new Date('2026-07-01T11:15:00Z'), lunch).toISOString()).toBe('2026-07-01T12:30:00.000Z'); // BST
    expect(afterQuietHours(new Date('2026-07-01T12:45:00Z'), lunch).toISOString()).toBe('2026-07-01T12:45:00.000Z');
  });
});
