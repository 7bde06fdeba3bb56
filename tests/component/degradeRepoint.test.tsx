import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { DegradeRepoint } from '../../src/pages/monitor/DegradeRepoint';

const ALARM = {
  code: 'DEGRADE_AHEAD',
  active: true,
  detail: 'AsiaSat 7 · 80 min · 42 % · → APSTAR 6D',
  deviceId: 7,
  deviceName: 'Ocean Star',
};

function renderFor(alarm: typeof ALARM, canSend: boolean, language: 'zh' | 'en' = 'en') {
  const call = vi.fn(async (_module: string, name: string, body?: unknown) => {
    if (name === 'canSend') return { canSend };
    if (name === 'send') return { id: 1, state: 'queued', ...(body as object) };
    throw new Error(`unexpected call ${name}`);
  });
  render(
    <MemoryRouter>
      <AdminContext i18nProvider={createI18nProvider(language)} dataProvider={{ call } as never}>
        <DegradeRepoint alarm={alarm} />
      </AdminContext>
    </MemoryRouter>,
  );
  return call;
}

describe('a degradation warning’s re-point button', () => {
  it('re-points the vessel to the suggested satellite, after the command’s confirmation', async () => {
    const call = renderFor(ALARM, true);
    const button = await screen.findByTestId('command-repoint');
    expect(button.textContent).toBe('Re-point to APSTAR 6D');
    expect(call).toHaveBeenCalledWith('commands', 'canSend', 7);
    fireEvent.click(button);
    expect(((await screen.findByTestId('command-satellite')) as HTMLInputElement).value).toBe('APSTAR 6D');
    fireEvent.click(screen.getByTestId('command-send'));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(
        'commands',
        'send',
        expect.objectContaining({ deviceId: 7, kind: 'repoint', params: { satellite: 'APSTAR 6D' } }),
      ),
    );
  });

  it('is named in Chinese, and absent for those who may not send commands, a cleared warning, no suggestion or another alarm', async () => {
    renderFor(ALARM, true, 'zh');
    expect((await screen.findByTestId('command-repoint')).textContent).toBe('改指 APSTAR 6D');
    document.body.innerHTML = '';
    for (const [alarm, canSend] of [
      [ALARM, false],
      [{ ...ALARM, active: false }, true],
      [{ ...ALARM, detail: 'AsiaSat 7 · 80 min · 42 % · → backup' }, true],
      [{ ...ALARM, code: 'SIGNAL_LOW', detail: '12.4 / 3.0 dB' }, true],
    ] as const) {
      const call = renderFor(alarm, canSend);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.queryByTestId('command-repoint')).toBeNull();
      expect(call.mock.calls.filter(([, name]) => name === 'send')).toHaveLength(0);
      document.body.innerHTML = '';
    }
  });
});
