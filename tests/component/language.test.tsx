import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LanguageSelect } from '../../src/layout/LanguageSelect';
import { Breadcrumb } from '../../src/layout/Breadcrumb';
import { getState, restoreState } from '../../src/state/clientState';
import { getCookie } from '../../src/state/cookies';
import { renderAt } from './render';

describe('language switch', () => {
  beforeEach(() => restoreState());

  it('starts in zh; the current language is disabled in the dropdown', () => {
    renderAt('/', <LanguageSelect />);
    expect(screen.getByTestId('lang-select')).toHaveTextContent('中文');
    fireEvent.click(screen.getByTestId('lang-select'));
    expect(screen.getByTestId('lang-zh')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('lang-en')).not.toHaveAttribute('aria-disabled');
  });

  it('choosing English loads its catalogue, then sets the locale, the 30-day cookie and the document title, and re-renders', async () => {
    renderAt(
      '/system/user',
      <>
        <LanguageSelect />
        <Breadcrumb />
      </>,
    );
    expect(within(screen.getByTestId('breadcrumb')).getByText('用户账号')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('lang-select'));
    fireEvent.click(screen.getByTestId('lang-en'));
    await waitFor(() => expect(getState().language).toBe('en'));
    expect(getCookie('language')).toBe('en');
    expect(document.title).toBe('Vessel Satellite Terminal Tracking');
    expect(within(screen.getByTestId('breadcrumb')).getByText('User Account')).toBeInTheDocument();
    expect(within(screen.getByTestId('breadcrumb')).getByText('Home')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('lang-select'));
    fireEvent.click(screen.getByTestId('lang-zh'));
    await waitFor(() => expect(document.title).toBe('船舶卫星终端监控平台'));
  });
});
