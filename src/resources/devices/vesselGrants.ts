/** The server's largest page: the vessel grant dialog reads an enterprise's vessels this many at a time. */
export const VESSEL_PAGE = 500;

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
