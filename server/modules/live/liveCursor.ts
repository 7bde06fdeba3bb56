/** `id: 41` normally; `id: 41.38.39` when 38 and 39 (below 41) were not committed yet when 41 was sent. */
export function formatCursor(max: number, missing: readonly number[]): string {
  return [max, ...missing].join('.');
}

/** The cursor a console sends back (Last-Event-ID); null when it is not one of ours. */
export function parseCursor(value: string | undefined | null): { max: number; missing: number[] } | null {
  if (value === undefined || value === null || value === '') return null;
  if (!/^\d{1,16}(\.\d{1,16}){0,200}$/.test(value)) return null;
  const [max, ...missing] = value.split('.').map(Number);
  return { max: max!, missing };
}

/** One SSE frame; the data line is the device id and the row's data, nothing more (bytes at sea). */
export function formatEvent(cursor: string, kind: string, data: unknown): string {
  return `id: ${cursor}\nevent: ${kind}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * What a hub has handed out (docs/architecture.md, "Ids that commit out of order"). Ids are taken
 * when a row is inserted but become visible when its transaction commits, so a lower id can appear
 * after a higher one. The ledger keeps a floor (every id at or below it was sent or given up), the
 * ids sent above it, and the ids below the highest one sent that were not seen yet (gaps), with
 * when they were first missed: a gap older than the grace period (a rolled-back transaction) is
 * given up.
 */
export class DeliveryLedger {
  floor = 0;
  maxDelivered = 0;
  readonly delivered = new Set<number>();
  /** Ids below maxDelivered not seen yet, with when they were first missed. */
  private readonly gaps = new Map<number, number>();

  constructor(private readonly gapGraceMs: number) {}

  /** Every id at or below `floor` counts as handed out. */
  startAt(floor: number): void {
    this.floor = floor;
    this.maxDelivered = floor;
  }

  markDelivered(id: number): void {
    if (id <= this.floor || this.delivered.has(id)) return;
    this.delivered.add(id);
    this.gaps.delete(id);
    if (id > this.maxDelivered) {
      for (let g = Math.max(this.maxDelivered + 1, this.floor + 1); g < id; g++) if (!this.delivered.has(g)) this.gaps.set(g, Date.now());
      this.maxDelivered = id;
    }
  }

  /** Moves the floor past ids sent and ids missing for longer than the grace period. */
  settle(now: number): void {
    for (;;) {
      const next = this.floor + 1;
      if (next > this.maxDelivered) break;
      if (this.delivered.has(next)) this.delivered.delete(next);
      else if (now - (this.gaps.get(next) ?? now) >= this.gapGraceMs) this.gaps.delete(next);
      else break;
      this.floor = next;
    }
  }

  /** The ids below `max` a stream has not been sent but may still be (their transactions are open). */
  missingBelow(max: number, sent: ReadonlySet<number>): number[] {
    const out: number[] = [];
    for (const g of this.gaps.keys()) if (g < max && !sent.has(g)) out.push(g);
    return out.sort((a, b) => a - b);
  }
}
