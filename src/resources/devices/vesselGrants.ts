import { devicesApi } from '../../api/devicesApi';
import type { Device } from '../../domain/device';

/** The server's largest page. */
const PAGE = 500;

/** Every vessel of an enterprise, page by page (a sub-user may be granted any of them). */
export async function enterpriseVessels(ownerId: number): Promise<Pick<Device, 'id' | 'name' | 'deviceNum' | 'deviceKind' | 'status'>[]> {
  const out: Device[] = [];
  for (let pageIndex = 1; ; pageIndex += 1) {
    const { list, total } = await devicesApi.devicePage({ ownerId, pageIndex, pageSize: PAGE, sort: 'name', order: 'asc' });
    out.push(...list);
    if (!list.length || out.length >= total) return out;
  }
}

/** Ticks or unticks a set of ids (the filtered rows) in the chosen set. */
export function toggleAll(chosen: ReadonlySet<number>, ids: readonly number[], on: boolean): Set<number> {
  const next = new Set(chosen);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** Vessels whose name or number contains the text (case-insensitive). */
export function matchVessel(vessel: { name: string; deviceNum: string | null }, text: string): boolean {
  const needle = text.trim().toLowerCase();
  return !needle || vessel.name.toLowerCase().includes(needle) || (vessel.deviceNum ?? '').toLowerCase().includes(needle);
}
