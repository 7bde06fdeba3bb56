import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import type { BackupRunItem, BackupStatus } from '../../src/domain/backupSettings';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { BackupCard } from '../../src/pages/personal/BackupCard';
import { NO_USER, getState, setState } from '../../src/state/clientState';

const GOOD: BackupRunItem = {
  kind: 'manual',
  startedAt: '2025-03-01T02:00:00.000Z',
  finishedAt: '2025-03-01T02:00:04.000Z',
  ok: true,
  file: 'fleet-2025-03-01T02-00-00Z.tar.gz',
  sizeBytes: 5 * 1024 * 1024 + 300 * 1024,
  tables: 42,
  message: null,
};
const FAILED: BackupRunItem = {
  kind: 'nightly',
  startedAt: '2025-02-28T02:00:00.000Z',
  finishedAt: '2025-02-28T02:00:01.000Z',
  ok: false,
  file: null,
  sizeBytes: null,
  tables: null,
  message: 'No space left on device',
};

const status = (over: Partial<BackupStatus> = {}): BackupStatus => ({
  settings: { nightly: true, hourUtc: 2, keepCount: 14 },
  runs: [GOOD, FAILED],
  running: null,
  engine: 'pglite',
  folder: '/srv/fleet/data/backups',
  ...over,
});

/** The dataProvider's call method answering the backup calls from a status the test changes. */
function fakeProvider(initial: BackupStatus) {
  let current = initial;
  const provider = {
    call: vi.fn(async (_module: string, name: string, ...args: unknown[]) => {
      if (name === 'backupStatus') return current;
      if (name === 'updateBackupSettings') return (current = { ...current, settings: args[0] as BackupStatus['settings'] });
      if (name === 'runBackup') return (current = { ...current, running: { kind: 'manual', startedAt: '2025-03-02T08:00:00.000Z' } });
      throw new Error(`unexpected call ${name}`);
    }),
    set: (next: BackupStatus) => {
      current = next;
    },
  };
  return provider;
}

function renderCard(provider: ReturnType<typeof fakeProvider>, language = 'en') {
  render(
    <AdminContext i18nProvider={createI18nProvider(language)} dataProvider={provider as never}>
      <BackupCard />
    </AdminContext>,
  );
}

const { timeZone } = getState();
afterEach(() => {
  vi.clearAllMocks();
  setState({ ...NO_USER, roles: [], token: null, timeZone });
});

describe('the Backups card of the Theme page', () => {
  it('shows the settings, the last run in the console time zone, the recent runs, the folder and the restore hint', async () => {
    setState({ timeZone: 8 });
    const provider = fakeProvider(status());
    renderCard(provider);
    const last = await screen.findByTestId('backup-last');
    expect(provider.call).toHaveBeenCalledWith('support', 'backupStatus', expect.objectContaining({ background: false }));
    expect(last.textContent).toContain('2025-03-01 10:00:00'); // 02:00 UTC shown at UTC+8
    expect(within(last).getByTestId('backup-result').textContent).toBe('OK');
    expect(last.textContent).toContain('fleet-2025-03-01T02-00-00Z.tar.gz');
    expect(last.textContent).toContain('5.3 MB');
    expect(last.textContent).toContain('42');
    expect(last.textContent).toContain('4 s');
    const runs = within(screen.getByTestId('backup-runs')).getAllByRole('listitem');
    expect(runs).toHaveLength(2);
    expect(runs[1]!.textContent).toContain('Failed');
    expect(runs[1]!.textContent).toContain('No space left on device');
    expect(screen.getByTestId('backup-folder').textContent).toBe('/srv/fleet/data/backups');
    expect(screen.getByTestId('backup-restore-hint').textContent).toBe(
      'Restore with npm run restore FILE while the server is stopped (see README).',
    );
    expect((screen.getByTestId('backup-hour') as HTMLInputElement).value).toBe('2');
    expect(screen.getByText('10:00 in your time zone (UTC+8)')).toBeTruthy();
    expect((screen.getByTestId('backup-keep') as HTMLInputElement).value).toBe('14');
    expect(screen.getByRole('switch', { name: 'Nightly backup' })).toBeChecked();
  });

  it('says when there is no backup yet, and shows a failed last run with its reason', async () => {
    const provider = fakeProvider(status({ runs: [] }));
    renderCard(provider);
    expect((await screen.findByTestId('backup-none')).textContent).toBe('No backup yet');
    expect(screen.queryByTestId('backup-runs')).toBeNull();
    provider.set(status({ runs: [FAILED] }));
    fireEvent.click(screen.getByTestId('backup-run'));
    const message = await screen.findByTestId('backup-message');
    expect(message.textContent).toContain('No space left on device');
    expect(within(screen.getByTestId('backup-last')).getByTestId('backup-result').textContent).toBe('Failed');
  });

  it('refuses hour 24 as it is typed, in the user language, and saves a valid change', async () => {
    const provider = fakeProvider(status());
    renderCard(provider);
    const hour = await screen.findByTestId('backup-hour');
    fireEvent.change(hour, { target: { value: '24' } });
    expect(await screen.findByText('The backup hour must be a whole hour from 0 to 23 (UTC)')).toBeTruthy();
    expect(screen.getByTestId('backup-save')).toBeDisabled();
    fireEvent.change(screen.getByTestId('backup-keep'), { target: { value: '0' } });
    expect(screen.getByText('Backups kept must be a whole number from 1 to 365')).toBeTruthy();

    fireEvent.change(hour, { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('backup-keep'), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Nightly backup' }));
    expect(screen.queryByText('The backup hour must be a whole hour from 0 to 23 (UTC)')).toBeNull();
    fireEvent.click(screen.getByTestId('backup-save'));
    await waitFor(() =>
      expect(provider.call).toHaveBeenCalledWith('support', 'updateBackupSettings', { nightly: false, hourUtc: 3, keepCount: 30 }),
    );
  });

  it('refuses hour 24 in Chinese for a Chinese user', async () => {
    renderCard(fakeProvider(status()), 'zh');
    fireEvent.change(await screen.findByTestId('backup-hour'), { target: { value: '24' } });
    expect(await screen.findByText('备份时间必须是 0 到 23 的整点（UTC）')).toBeTruthy();
    expect(screen.getByTestId('backup-run').textContent).toBe('立即备份');
  });

  it('"Back up now" calls run, shows progress while running and polls the status until the result is in', async () => {
    const provider = fakeProvider(status({ runs: [FAILED] }));
    renderCard(provider);
    const button = await screen.findByTestId('backup-run');
    fireEvent.click(button);
    await waitFor(() => expect(provider.call).toHaveBeenCalledWith('support', 'runBackup'));
    expect(await screen.findByTestId('backup-progress')).toBeTruthy();
    expect(screen.getByRole('progressbar')).toBeTruthy();
    expect(screen.getByTestId('backup-run')).toBeDisabled();
    const reads = provider.call.mock.calls.filter(([, name]) => name === 'backupStatus').length;

    // The backup ends: the next poll (2 s) brings its result and the button back.
    provider.set(status({ runs: [GOOD, FAILED] }));
    await waitFor(() => expect(screen.queryByTestId('backup-progress')).toBeNull());
    expect(provider.call.mock.calls.filter(([, name]) => name === 'backupStatus').length).toBeGreaterThan(reads);
    expect(provider.call).toHaveBeenLastCalledWith('support', 'backupStatus', { background: true });
    expect(within(screen.getByTestId('backup-last')).getByTestId('backup-result').textContent).toBe('OK');
    expect(screen.getByTestId('backup-run')).toBeEnabled();
  });
});
