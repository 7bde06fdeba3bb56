import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { timeAgo } from '../../src/format/timeAgo';
import { ConsoleI18nProvider } from '../../src/i18n/I18nContext';
import { LastReport, formatHeading, formatPosition } from '../../src/pages/monitor/liveFormat';
import { restoreState, setState } from '../../src/state/clientState';

const NOW = Date.parse('2026-03-10T12:00:00Z');

describe('"n minutes ago"', () => {
  it('says just now, minutes, hours or days, never negative', () => {
    expect(timeAgo(NOW - 20_000, NOW)).toEqual({ unit: 'justNow', count: 0 });
    expect(timeAgo(NOW + 60_000, NOW)).toEqual({ unit: 'justNow', count: 0 });
    expect(timeAgo(new Date(NOW - 60_000), NOW)).toEqual({ unit: 'minutes', count: 1 });
    expect(timeAgo('2026-03-10T11:01:00Z', NOW)).toEqual({ unit: 'minutes', count: 59 });
    expect(timeAgo('2026-03-10T09:00:00Z', NOW)).toEqual({ unit: 'hours', count: 3 });
    expect(timeAgo('2026-03-07T11:00:00Z', NOW)).toEqual({ unit: 'days', count: 3 });
    expect(timeAgo(null, NOW)).toBeNull();
    expect(timeAgo('not a date', NOW)).toBeNull();
  });

  describe('the last report in the selected time zone, with "ago", in both languages', () => {
    beforeEach(() => restoreState());
    const at = new Date(Date.now() - 5 * 60_000 - 10_000);

    it('English, UTC+8', () => {
      setState({ language: 'en', timeZone: 8 });
      render(
        <ConsoleI18nProvider>
          <LastReport at={at.toISOString()} />
        </ConsoleI18nProvider>,
      );
      expect(screen.getByTestId('time-ago')).toHaveTextContent('5 minutes ago');
      const shifted = new Date(at.getTime() + 8 * 3_600_000);
      expect(document.body).toHaveTextContent(
        `${String(shifted.getUTCHours()).padStart(2, '0')}:${String(shifted.getUTCMinutes()).padStart(2, '0')}`,
      );
    });

    it('Chinese, one minute, and no report yet', () => {
      setState({ language: 'zh', timeZone: 0 });
      const { rerender } = render(
        <ConsoleI18nProvider>
          <LastReport at={new Date(Date.now() - 61_000).toISOString()} />
        </ConsoleI18nProvider>,
      );
      expect(screen.getByTestId('time-ago')).toHaveTextContent('1 分钟前');
      rerender(
        <ConsoleI18nProvider>
          <LastReport at={null} />
        </ConsoleI18nProvider>,
      );
      expect(document.body).toHaveTextContent('尚未上报');
    });
  });

  it('formats positions and headings', () => {
    expect(formatPosition(22.3, 114.2)).toBe('22.30°N 114.20°E');
    expect(formatPosition(-33.856, -70.5)).toBe('33.86°S 70.50°W');
    expect(formatPosition(null, 1)).toBe('');
    expect(formatHeading(359.6)).toBe('0°');
    expect(formatHeading(null)).toBe('');
  });
});
