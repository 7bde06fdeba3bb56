import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { IconList } from '../../src/resources/icons/IconList';
import { iconsResource } from '../../src/resources/icons/definition';
import { checkImage } from '../../src/resources/icons/imageCheck';

// The shell's logo and antenna icons are reloaded after a change; here that is only counted.
const loadIcons = vi.hoisted(() => vi.fn(async () => undefined));
vi.mock('../../src/state/icons', () => ({ loadIcons }));

function fakeProvider(rows: Record<string, unknown>[]) {
  return {
    getList: vi.fn(async () => ({ data: rows.map((r) => ({ ...r, id: r.fileType })), total: rows.length })),
    delete: vi.fn(async (_resource: string, params: { id: number; previousData?: unknown }) => ({ data: params.previousData })),
    call: vi.fn(async () => ({ fileType: 2, size: 3 })),
  };
}

function renderIcons(provider: ReturnType<typeof fakeProvider>) {
  return render(
    <AdminContext i18nProvider={createI18nProvider('en')} dataProvider={provider as never}>
      <IconList />
    </AdminContext>,
  );
}

const image = (slot: number) => within(screen.getByTestId(`icon-slot-${slot}`)).getByRole('img') as HTMLImageElement;

describe('icon management (system/icon resource)', () => {
  afterEach(() => {
    vi.clearAllMocks();
  });

  it('is a resource of levels 2 and 3 whose restore deletes one file type', () => {
    expect(iconsResource.name).toBe('system/icon');
    expect(iconsResource.access.list).toEqual(['2', '3']);
    expect(iconsResource.endpoints.list).toMatchObject({ path: '/users/getPictureListByUid', paged: false });
    expect(iconsResource.endpoints.delete?.params?.(3)).toEqual({ fileType: 3 });
    expect(iconsResource.endpoints.idOf?.({ fileType: 4, ownerId: 0 })).toBe(4);
  });

  it('shows the four fixed types, with the server picture or the built-in one', async () => {
    const provider = fakeProvider([{ fileType: 1, ownerId: 2, content: 'data:image/png;base64,LOGO' }]);
    renderIcons(provider);
    await waitFor(() => expect(image(1).getAttribute('src')).toBe('data:image/png;base64,LOGO'));
    for (const slot of [1, 2, 3, 4]) expect(screen.getByTestId(`icon-slot-${slot}`)).toBeTruthy();
    expect(image(3).getAttribute('src')).toBe('/icons/antenna-offline.svg');
    expect(provider.getList).toHaveBeenCalledWith('system/icon', expect.anything());
  });

  it('uploads through the dataProvider, then refetches the list and the shell icons', async () => {
    const provider = fakeProvider([]);
    renderIcons(provider);
    await waitFor(() => expect(provider.getList).toHaveBeenCalledTimes(1));
    const file = new File([new Uint8Array([0x89, 0x50])], 'on.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('icon-file-2'), { target: { files: [file] } });
    await waitFor(() => expect(loadIcons).toHaveBeenCalled());
    expect(provider.call).toHaveBeenCalledWith('users', 'uploadPicture', 2, file);
    expect(provider.getList.mock.calls.length).toBeGreaterThan(1);
  });

  it('refuses a file that is not JPG/PNG before sending it', async () => {
    const provider = fakeProvider([]);
    renderIcons(provider);
    await waitFor(() => expect(provider.getList).toHaveBeenCalled());
    fireEvent.change(screen.getByTestId('icon-file-1'), { target: { files: [new File(['x'], 'a.gif', { type: 'image/gif' })] } });
    expect(provider.call).not.toHaveBeenCalled();
    expect(checkImage({ name: 'a.gif', type: 'image/gif', size: 1 })).toBe('error.uploadType');
  });

  it('restores the default after confirmation (delete of that type)', async () => {
    const provider = fakeProvider([{ fileType: 4, ownerId: 2, content: 'data:image/png;base64,AL' }]);
    renderIcons(provider);
    await waitFor(() => expect(image(4).getAttribute('src')).toBe('data:image/png;base64,AL'));
    fireEvent.click(within(screen.getByTestId('icon-slot-4')).getByRole('button', { name: /restore/i }));
    fireEvent.click(await screen.findByRole('button', { name: /^ok$/i }));
    await waitFor(() => expect(provider.delete).toHaveBeenCalledWith('system/icon', expect.objectContaining({ id: 4 })));
    await waitFor(() => expect(loadIcons).toHaveBeenCalled());
  });
});
