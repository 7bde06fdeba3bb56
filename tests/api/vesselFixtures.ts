import type { TestServer } from './helpers';
import { ingest, report } from './monitoringFixtures';

/** Reports at the given times (ms), sent through the HTTP ingest in batches of 1000. */
export async function ingestAt(
  s: TestServer,
  num: string,
  times: readonly number[],
  overrides: (ms: number) => Record<string, unknown> = () => ({}),
) {
  for (let i = 0; i < times.length; i += 1000) {
    const batch = times.slice(i, i + 1000).map((ms) => report(overrides(ms), new Date(ms)));
    const res = await ingest(s, num, { reports: batch });
    if (res.code !== 0) throw new Error(`ingest failed: ${JSON.stringify(res)}`);
  }
}

/** Times every `stepMinutes` ending exactly at `to`, none before `from`, ascending. */
export function every(stepMinutes: number, from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = to; t >= from; t -= stepMinutes * 60_000) out.push(t);
  return out.reverse();
}

/** Visible-to-oceanops (granted) and not granted oceanic vessels, and a Polaris vessel. */
export async function vesselIds(s: TestServer) {
  const rows = await s.db.query<{ id: number; granted: boolean }>(
    `SELECT d.id, EXISTS (SELECT 1 FROM sub_user_grants g JOIN users u ON u.id = g.sub_user_id WHERE u.name = 'oceanops' AND g.device_id = d.id) AS granted
       FROM devices d JOIN users o ON o.id = d.owner_id WHERE o.name = 'oceanic' AND d.owner_sub_id IS NULL ORDER BY d.id`,
  );
  const [polaris] = await s.db.query<{ id: number }>(
    `SELECT d.id FROM devices d JOIN users o ON o.id = d.owner_id WHERE o.name = 'polaris' ORDER BY d.id DESC LIMIT 1`,
  );
  return { granted: rows.find((r) => r.granted)!.id, ungranted: rows.find((r) => !r.granted)!.id, polaris: polaris!.id };
}
