import L from 'leaflet';
import { cellToBoundary } from 'h3-js';
import { cellBand, type CoverageCell, type SnrBand } from '../../domain/coverage';

/** The map's colour per quality band (MUI's error, warning and success), and the outline of a cell with too few reports. */
export const BAND_COLOURS: Record<SnrBand, string> = { poor: '#d32f2f', fair: '#ed6c02', good: '#2e7d32' };
export const TOO_FEW_COLOUR = '#757575';

/** A cell's outline as Leaflet points; a cell across the antimeridian keeps its longitudes on one side, so it is not drawn round the world. */
export function cellOutline(cell: string): [number, number][] {
  const ring = cellToBoundary(cell);
  const lons = ring.map(([, lon]) => lon);
  const across = Math.max(...lons) - Math.min(...lons) > 180;
  return ring.map(([lat, lon]) => [lat, across && lon < 0 ? lon + 360 : lon]);
}

export interface CellWords {
  title: string;
  samples: string;
  /** "Locked", or "Available" in a link layer. */
  locked: string;
  /** Absent: no SNR line (a link layer's cells have none). */
  medianSnr?: string;
  none: string;
}

/** A cell's figures, as its popup shows them. */
export function cellPopup([cell, samples, lockedPct, medianSnr]: CoverageCell, words: CellWords, number: (n: number) => string): HTMLElement {
  const box = document.createElement('div');
  box.dataset.testid = 'coverage-cell';
  const title = document.createElement('strong');
  title.textContent = `${words.title} ${cell}`;
  box.append(title);
  const lines: [string, string][] = [
    [words.samples, number(samples)],
    [words.locked, `${lockedPct}%`],
  ];
  if (words.medianSnr !== undefined) lines.push([words.medianSnr, medianSnr === null ? words.none : `${medianSnr} dB`]);
  for (const [label, value] of lines) {
    const line = document.createElement('div');
    line.textContent = `${label}: ${value}`;
    box.append(line);
  }
  return box;
}

/**
 * The cells on one canvas: filled by their band (cellBand: the median SNR's, or in a link layer the
 * link's available share), or only outlined in grey when they hold fewer reports than `minSamples`
 * (too few to say); a click opens the cell's figures.
 */
export function drawCells(
  cells: readonly CoverageCell[],
  minSamples: number,
  popup: (cell: CoverageCell) => HTMLElement,
  renderer: L.Renderer,
  linkLayer = false,
): L.LayerGroup {
  const group = L.layerGroup();
  for (const cell of cells) {
    const band = cellBand(cell, minSamples, linkLayer);
    const coloured = band !== null;
    const colour = coloured ? BAND_COLOURS[band] : TOO_FEW_COLOUR;
    L.polygon(cellOutline(cell[0]), {
      renderer,
      color: colour,
      weight: coloured ? 0.5 : 1,
      fillColor: colour,
      fillOpacity: coloured ? 0.45 : 0,
      dashArray: coloured ? undefined : '3 3',
    })
      .bindPopup(() => popup(cell))
      .addTo(group);
  }
  return group;
}
