import { boxesOverlap } from './vesselStyle';

/** How the vessel layer (vesselLayer.ts) draws on its canvas: arrows, clusters, shared spots and names. */
const VESSEL_LENGTH = 9;

/** A vessel: an arrow pointing along its heading, with a white outline so it reads on land or sea. */
export function drawArrow(ctx: CanvasRenderingContext2D, x: number, y: number, angle: number, colour: string) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.beginPath();
  ctx.moveTo(0, -VESSEL_LENGTH);
  ctx.lineTo(5, VESSEL_LENGTH * 0.7);
  ctx.lineTo(0, VESSEL_LENGTH * 0.35);
  ctx.lineTo(-5, VESSEL_LENGTH * 0.7);
  ctx.closePath();
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = 1.2;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  ctx.restore();
}

/** The shared position of an overlapping group: a small dark dot the spread vessels are joined to. */
export function drawGroupCentre(ctx: CanvasRenderingContext2D, x: number, y: number) {
  ctx.beginPath();
  ctx.arc(x, y, 4.5, 0, Math.PI * 2);
  ctx.fillStyle = '#1d2733';
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
}

/** Vessel names beside their arrows, dark on a white halo; a name that would overlap one already written is left out. How many were written. */
export function drawLabels(
  ctx: CanvasRenderingContext2D,
  labels: readonly { x: number; y: number; name: string; left?: boolean }[],
): number {
  ctx.font = '500 12px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  const placed: { x: number; y: number; w: number; h: number }[] = [];
  for (const l of labels) {
    if (!l.name) continue;
    const w = ctx.measureText ? ctx.measureText(l.name).width : l.name.length * 7;
    const box = { x: l.left ? l.x - 10 - w : l.x + 10, y: l.y - 8, w, h: 16 };
    if (placed.some((p) => boxesOverlap(p, box))) continue;
    placed.push(box);
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(255,255,255,0.92)';
    ctx.strokeText(l.name, box.x, l.y);
    ctx.fillStyle = '#1d2733';
    ctx.fillText(l.name, box.x, l.y);
  }
  return placed.length;
}

export function drawCluster(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, colour: string, ring: string, label: string) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = 3;
  ctx.strokeStyle = ring;
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.fillText(label, x, y);
}
