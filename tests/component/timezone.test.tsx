import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { TimeZoneSelect } from '../../src/layout/TimeZoneSelect';
import { useDateFormatter } from '../../src/format/useDateFormatter';
import { browserTimeZone, restoreState } from '../../src/state/clientState';
import { getCookie } from '../../src/state/cookies';
import { timeZoneLabel } from '../../src/format/date';
import { renderAt } from './render';

function Stamp() {
  const format = useDateFormatter();
  return <span data-testid="stamp">{format('2026-03-01T12:00:00Z')}</span>;
}

describe('time-zone selector', () => {
  beforeEach(() => restoreState());

  it('defaults to the browser offset and offers UTC-12..UTC+12', () => {
    renderAt('/', <TimeZoneSelect />);
    expect(screen.getByTestId('tz-select')).toHaveTextContent(timeZoneLabel(browserTimeZone()));
    fireEvent.mouseDown(screen.getByTestId('tz-select'));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options).toHaveLength(25);
    expect(options[0]).toHaveTextContent('UTC-12');
    expect(options[24]).toHaveTextContent('UTC+12');
  });

  it('a choice is saved in the cookie and every date follows it', () => {
    renderAt(
      '/',
      <>
        <TimeZoneSelect />
        <Stamp />
      </>,
    );
    fireEvent.mouseDown(screen.getByTestId('tz-select'));
    fireEvent.click(screen.getByTestId('tz-8'));
    expect(getCookie('timeZone')).toBe('8');
    expect(screen.getByTestId('stamp')).toHaveTextContent('2026-03-01 20:00:00');
    fireEvent.mouseDown(screen.getByTestId('tz-select'));
    fireEvent.click(screen.getByTestId('tz--5'));
    expect(screen.getByTestId('stamp')).toHaveTextContent('2026-03-01 07:00:00');
    expect(restoreState().timeZone).toBe(-5);
  });
});
