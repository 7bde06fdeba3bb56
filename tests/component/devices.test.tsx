import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, ResourceContextProvider } from 'react-admin';
import { ApiError, configureClient, onCatalogueAction, resetClient, type CatalogueAction } from '../../src/api';
import { devicesApi } from '../../src/api/devicesApi';
import { fetchFile, fileNameOf, uploadWithProgress } from '../../src/api/transfer';
import { ErrorCode } from '../../src/domain/errorCodes';
import { translateDomain } from '../../src/domain/messages';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { createDataProvider } from '../../src/data/dataProvider';
import { DeviceCreate } from '../../src/resources/devices/DeviceEdit';
import { ImportDialog } from '../../src/resources/devices/ImportDialog';
import { isExcelName } from '../../src/resources/devices/importFile';
import { formatBytes } from '../../src/format/bytes';
import { matchVessel, toggleAll } from '../../src/resources/devices/vesselGrants';
import { defaultDeviceIcon, deviceIcon } from '../../src/state/deviceIcons';
import { restoreState, setState } from '../../src/state/clientState';

const NO_ICONS = { logo: null, online: null, offline: null, alarm: null };

describe('device status icons (docs/requirements.md §1)', () => {
  it('uses the default set of each kind and state', () => {
    expect(deviceIcon('vsat', 1, NO_ICONS)).toBe('/icons/vsat-online.svg');
    expect(deviceIcon('4g', 0, NO_ICONS)).toBe('/icons/4g-offline.svg');
    expect(deviceIcon('microwave', 2, NO_ICONS)).toBe('/icons/microwave-alarm.svg');
    expect(deviceIcon('antenna', 2, NO_ICONS)).toBe('/icons/antenna-alarm.svg');
  });
  it("uses the enterprise's uploaded antenna icons for antennas only", () => {
    const icons = { ...NO_ICONS, online: 'data:image/png;base64,ON', alarm: 'data:image/png;base64,AL' };
    expect(deviceIcon('antenna', 1, icons)).toBe('data:image/png;base64,ON');
    expect(deviceIcon('antenna', 2, icons)).toBe('data:image/png;base64,AL');
    expect(deviceIcon('antenna', 0, icons)).toBe('/icons/antenna-offline.svg');
    expect(deviceIcon('vbox', 1, icons)).toBe('/icons/vbox-online.svg');
  });
  it('falls back to "others" and offline for unknown values', () => {
    expect(defaultDeviceIcon('satphone', 7)).toBe('/icons/others-offline.svg');
  });
});

describe('import file checks and vessel grant helpers', () => {
  it('accepts .xlsx and .xls names only, and formats sizes', () => {
    expect(isExcelName('fleet.XLSX')).toBe(true);
    expect(isExcelName('old.xls')).toBe(true);
    expect(isExcelName('fleet.csv')).toBe(false);
    expect(isExcelName('fleet.xlsx.exe')).toBe(false);
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(6_860)).toBe('6.7 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
  it('ticks and unticks the filtered vessels only', () => {
    const chosen = new Set([1, 2]);
    expect([...toggleAll(chosen, [3, 4], true)].sort()).toEqual([1, 2, 3, 4]);
    expect([...toggleAll(chosen, [2, 3], false)]).toEqual([1]);
    expect(chosen.size).toBe(2);
    expect(matchVessel({ name: 'Pacific Star', deviceNum: 'A1000002' }, 'star')).toBe(true);
    expect(matchVessel({ name: 'Pacific Star', deviceNum: 'A1000002' }, 'a100')).toBe(true);
    expect(matchVessel({ name: 'Pacific Star', deviceNum: null }, 'jade')).toBe(false);
  });
});

/** A scripted XMLHttpRequest: reports upload progress, then answers the given body. */
function fakeXhr(answer: unknown, status = 200) {
  const sent: { url?: string; body?: unknown } = {};
  class FakeXhr {
    upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void; onload?: () => void } = {};
    onload?: () => void;
    onerror?: () => void;
    ontimeout?: () => void;
    status = status;
    responseText = JSON.stringify(answer);
    timeout = 0;
    withCredentials = true;
    open(_method: string, url: string) {
      sent.url = url;
    }
    setRequestHeader() {}
    abort() {}
    send(body: unknown) {
      sent.body = body;
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
        this.upload.onprogress?.({ lengthComputable: true, loaded: 200, total: 200 });
        this.upload.onload?.();
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

describe('upload and download helpers (src/api/transfer.ts)', () => {
  let announced: CatalogueAction[];
  let stop: () => void;
  beforeEach(() => {
    announced = [];
    stop = onCatalogueAction((a) => announced.push(a));
    configureClient({ getToken: () => 'TOKEN', getLanguage: () => 'en' });
  });
  afterEach(() => {
    stop();
    resetClient();
    vi.unstubAllGlobals();
  });

  it('uploads with the token and language, reports progress, resolves the envelope data', async () => {
    const sent = fakeXhr({ code: 0, msg: 'ok', data: { imported: 3 } });
    const progress: number[] = [];
    const data = await uploadWithProgress<{ imported: number }>('/deviceModule/device/import', new FormData(), {
      onProgress: (f) => progress.push(f),
    });
    expect(data).toEqual({ imported: 3 });
    expect(sent.url).toContain('/deviceModule/device/import?');
    expect(sent.url).toContain('token=TOKEN');
    expect(sent.url).toContain('lang=en');
    expect(progress).toEqual([0.25, 1, 1]);
  });

  it('throws the row errors as ApiError, quiet for the codes asked', async () => {
    const rows = [{ row: 3, column: 'Device number', message: 'bad' }];
    fakeXhr({ code: 1, msg: '1 errors found; nothing was imported', data: rows });
    const failure = uploadWithProgress('/x', new FormData(), { quiet: [ErrorCode.Validation] });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 1, data: rows });
    expect(announced).toEqual([]);
    fakeXhr({ code: 8, msg: 'save the file as .xlsx', data: null });
    await expect(uploadWithProgress('/x', new FormData(), { quiet: [ErrorCode.Validation] })).rejects.toMatchObject({ code: 8 });
    expect(announced).toHaveLength(1);
  });

  it('reads a file answer, and an envelope answer (-101) as an announced ApiError', async () => {
    const file = new Response('a,b\n', {
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="devices-1.csv"' },
    });
    configureClient({ fetch: async () => file });
    const { fileName, blob } = await fetchFile('/deviceModule/device/export', { format: 'csv' });
    expect(fileName).toBe('devices-1.csv');
    expect(await blob.text()).toBe('a,b\n');
    configureClient({
      fetch: async () =>
        new Response(JSON.stringify({ code: -101, msg: 'wait', data: null }), { headers: { 'content-type': 'application/json' } }),
    });
    await expect(fetchFile('/deviceModule/device/export')).rejects.toMatchObject({ code: -101 });
    expect(announced).toEqual([expect.objectContaining({ kind: 'message', messageKey: 'error.exportTooFrequent' })]);
    expect(fileNameOf(null, 'fallback.xlsx')).toBe('fallback.xlsx');
  });
});

function inAdmin(ui: React.ReactNode, language: 'zh' | 'en') {
  return render(
    <AdminContext i18nProvider={createI18nProvider(language)} dataProvider={createDataProvider({})}>
      <ResourceContextProvider value="system/deviceManagement">{ui}</ResourceContextProvider>
    </AdminContext>,
  );
}

describe('device console views', () => {
  beforeEach(() => {
    restoreState();
    setState({ token: 'T', permissionLevel: '2', id: 2, name: 'oceanic' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    resetClient();
  });

  it('lists every bad row of a refused import with its row, column and message', async () => {
    const rows = [
      { row: 3, column: 'Device number', message: translateDomain('en', 'validation.deviceNum') },
      { row: 4, column: 'MAC', message: translateDomain('en', 'validation.mac') },
    ];
    vi.spyOn(devicesApi, 'importDevices').mockImplementation(async (_file, onProgress) => {
      onProgress(0.5);
      throw new ApiError(1, '2 errors found; nothing was imported', rows, '/deviceModule/device/import');
    });
    inAdmin(<ImportDialog />, 'en');
    fireEvent.click(screen.getByTestId('import-open'));
    expect(screen.getByTestId('import-start')).toBeDisabled();
    const input = screen.getByTestId('import-file') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'fleet.csv')] } });
    expect(screen.getByText('Only Excel files (xlsx or xls) can be uploaded')).toBeInTheDocument();
    expect(screen.getByTestId('import-start')).toBeDisabled();
    fireEvent.change(input, { target: { files: [new File(['x'], 'fleet.xlsx')] } });
    fireEvent.click(screen.getByTestId('import-start'));
    await screen.findByTestId('import-report');
    expect(screen.getByText('2 errors found; nothing was imported')).toBeInTheDocument();
    const report = screen.getAllByTestId('import-row-error').map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    expect(report).toEqual(rows.map((r) => [String(r.row), r.column, r.message]));
  });

  it('shows the success count of a clean import', async () => {
    vi.spyOn(devicesApi, 'importDevices').mockResolvedValue({ imported: 12 });
    inAdmin(<ImportDialog />, 'zh');
    fireEvent.click(screen.getByTestId('import-open'));
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [new File(['x'], 'fleet.xlsx')] } });
    fireEvent.click(screen.getByTestId('import-start'));
    expect(await screen.findByTestId('import-success')).toHaveTextContent('成功导入 12 台设备');
  });

  it('validates the device form as the user types, with the domain messages', async () => {
    configureClient({
      fetch: async () =>
        new Response(JSON.stringify({ code: 0, msg: 'ok', data: [{ id: 2, name: 'oceanic', children: [{ id: 3, name: 'oceanops' }] }] }), {
          headers: { 'content-type': 'application/json' },
        }),
    });
    inAdmin(<DeviceCreate />, 'en');
    fireEvent.change(screen.getByTestId('device-deviceNum'), { target: { value: 'a1b2' } });
    expect(await screen.findByText(translateDomain('en', 'validation.deviceNum'))).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('device-deviceNum'), { target: { value: 'A1B2C3D4' } });
    await waitFor(() => expect(screen.queryByText(translateDomain('en', 'validation.deviceNum'))).toBeNull());
    fireEvent.change(screen.getByTestId('device-mac'), { target: { value: '00.11.22.33.44' } });
    expect(await screen.findByText(translateDomain('en', 'validation.mac'))).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('device-mac'), { target: { value: '00.11.22.33.44.5f' } });
    await waitFor(() => expect(screen.queryByText(translateDomain('en', 'validation.mac'))).toBeNull());
  });
});
