import { describe, expect, it } from 'vitest';
import L from 'leaflet';
import { latLngToCell } from 'h3-js';
import { BAND_COLOURS, TOO_FEW_COLOUR, cellOutline, cellPopup, drawCells } from '../../src/pages/coverage/coverageLayer';
import { histMedian, resolutionForZoom, snrBucket, SNR_HIST_BUCKETS, type CoverageCell } from '../../src/domain/coverage';

const WORDS = { title: 'Cell', samples: 'Reports', locked: 'Locked', medianSnr: 'Median SNR', none: 'none' };

describe('the coverage map’s cells', () => {
  it('keeps a cell across the antimeridian on one side, so it is not drawn round the world', () => {
    const outline = cellOutline(latLngToCell(-48.3, 179.95, 2));
    const lons = outline.map(([, lon]) => lon);
    expect(Math.max(...lons) - Math.min(...lons)).toBeLessThan(10);
    expect(Math.min(...lons)).toBeGreaterThan(170);
    // An ordinary cell is left as it is.
    const plain = cellOutline(latLngToCell(22.3, 114.2, 4));
    for (const [, lon] of plain) expect(lon).toBeGreaterThan(113);
  });

  it('colours a cell by its median SNR, and only outlines one with too few reports', () => {
    const cells: CoverageCell[] = [
      ['8428309ffffffff', 100, 98, 11],
      ['842830bffffffff', 100, 60, 5],
      ['842830dffffffff', 100, 10, -1],
      ['842831bffffffff', 5, 100, 11],
      ['8428313ffffffff', 50, 0, null],
    ];
    const group = drawCells(cells, 20, (c) => cellPopup(c, WORDS, String), L.svg());
    const options = group.getLayers().map((layer) => (layer as L.Polygon).options);
    expect(options.map((o) => [o.fillColor, o.fillOpacity! > 0])).toEqual([
      [BAND_COLOURS.good, true],
      [BAND_COLOURS.fair, true],
      [BAND_COLOURS.poor, true],
      [TOO_FEW_COLOUR, false],
      [TOO_FEW_COLOUR, false],
    ]);
  });

  it('colours a link layer’s cell by the share of reports with the link available, which has no SNR', () => {
    const cells: CoverageCell[] = [
      ['8428309ffffffff', 100, 95, null],
      ['842830bffffffff', 100, 60, null],
      ['842830dffffffff', 100, 10, null],
      ['842831bffffffff', 5, 100, null],
    ];
    const group = drawCells(cells, 20, (c) => cellPopup(c, WORDS, String), L.svg(), true);
    expect(group.getLayers().map((layer) => (layer as L.Polygon).options.fillColor)).toEqual([
      BAND_COLOURS.good,
      BAND_COLOURS.fair,
      BAND_COLOURS.poor,
      TOO_FEW_COLOUR,
    ]);
    // Its popup says "available" and has no SNR line.
    const words = { title: 'Cell', samples: 'Reports', locked: 'Link available', none: 'none' };
    expect(cellPopup(['8428309ffffffff', 40, 25, null], words, String).textContent).toBe(
      'Cell 8428309ffffffffReports: 40Link available: 25%',
    );
  });

  it('shows a cell’s figures in its popup', () => {
    const box = cellPopup(['8428309ffffffff', 1234, 75, 11], WORDS, (n) => n.toLocaleString('en'));
    expect(box.textContent).toBe('Cell 8428309ffffffffReports: 1,234Locked: 75%Median SNR: 11 dB');
    expect(cellPopup(['8428309ffffffff', 3, 0, null], WORDS, String).textContent).toContain('Median SNR: none');
  });

  it('reads the median from the histogram and picks the resolution from the zoom', () => {
    const hist = new Array<number>(SNR_HIST_BUCKETS).fill(0);
    hist[snrBucket(11.5)] = 30;
    hist[snrBucket(-3)] = 10;
    expect(histMedian(hist)).toBe(11);
    hist[snrBucket(-3)] = 31;
    expect(histMedian(hist)).toBe(-3);
    expect(histMedian(new Array<number>(SNR_HIST_BUCKETS).fill(0))).toBeNull();
    // The ends are open.
    expect([snrBucket(-40), snrBucket(99)]).toEqual([0, SNR_HIST_BUCKETS - 1]);
    expect([0, 3, 4, 5, 6, 12].map(resolutionForZoom)).toEqual([2, 2, 3, 3, 4, 4]);
  });
});
