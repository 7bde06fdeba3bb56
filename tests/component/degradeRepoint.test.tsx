import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { DegradeNote, DegradeRepoint } from '../../src/pages/monitor/DegradeRepoint';

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

describe('a degradation warning’s note', () => {
  const noteOf = (alarm: { code: string; detail: string }, language: 'zh' | 'en') => {
    render(
      <AdminContext i18nProvider={createI18nProvider(language)}>
        <DegradeNote alarm={alarm} />
      </AdminContext>,
    );
    const text = screen.queryByTestId('degrade-note')?.textContent ?? null;
    document.body.innerHTML = '';
    return text;
  };

  it('says when the zone comes, how poor the satellite is there and what to do, in the user’s language', () => {
    expect(noteOf(ALARM, 'en')).toBe(
      'Poor zone ahead in about 1 h 20 min: AsiaSat 7 is locked 42 % of the time there · suggested: re-point to APSTAR 6D',
    );
    const backup = { code: 'DEGRADE_AHEAD', detail: 'Eutelsat 117 West B · 260 min · 0 % · → backup' };
    expect(noteOf(backup, 'en')).toBe(
      'Poor zone ahead in about 4 h 20 min: Eutelsat 117 West B is locked 0 % of the time there · suggested: switch to the backup link',
    );
    expect(noteOf(backup, 'zh')).toBe('约 4 小时 20 分钟后驶入弱覆盖区：Eutelsat 117 West B 在该处的锁定率为 0% · 建议切换到备用链路');
    expect(noteOf({ code: 'DEGRADE_AHEAD', detail: 'AsiaSat 7 · 45 min · 60 %' }, 'en')).toBe(
      'Poor zone ahead in about 45 min: AsiaSat 7 is locked 60 % of the time there',
    );
  });

  it('says nothing for another alarm, or a detail it cannot read', () => {
    expect(noteOf({ code: 'SIGNAL_LOW', detail: '12.4 / 3.0 dB' }, 'en')).toBeNull();
    expect(noteOf({ code: 'DEGRADE_AHEAD', detail: 'garbled' }, 'en')).toBeNull();
  });
});
