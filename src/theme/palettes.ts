import { DEFAULT_THEME } from '../domain/constants';

/** One preset of docs/requirements.md §9: the main colour and the four derived colours. */
export interface Palette {
  primary: string;
  tableHeader: string;
  menuBg: string;
  text: string;
  hover: string;
}

/** The eight preset palettes; the first is the default #065aa1. Built locally, no CDN. */
export const PALETTES: readonly Palette[] = [
  { primary: DEFAULT_THEME, tableHeader: '#e8f0f8', menuBg: '#0b2a45', text: '#c9d6e3', hover: '#0a4a80' },
  { primary: '#1890ff', tableHeader: '#e6f4ff', menuBg: '#001529', text: '#bfcbd9', hover: '#0c3c66' },
  { primary: '#13a8a8', tableHeader: '#e6fffb', menuBg: '#0e2f2f', text: '#c3dcdc', hover: '#155e5e' },
  { primary: '#2f9e44', tableHeader: '#ebfbee', menuBg: '#12301a', text: '#c5dccb', hover: '#1f5c2c' },
  { primary: '#7048e8', tableHeader: '#f3f0ff', menuBg: '#221845', text: '#d0c8ee', hover: '#3d2a7a' },
  { primary: '#d6336c', tableHeader: '#fff0f6', menuBg: '#3a1020', text: '#ecc6d4', hover: '#6d1d3c' },
  { primary: '#e8590c', tableHeader: '#fff4e6', menuBg: '#3a1d08', text: '#efd2bf', hover: '#6b3612' },
  { primary: '#495057', tableHeader: '#f1f3f5', menuBg: '#212529', text: '#ced4da', hover: '#3b4147' },
];

export const paletteFor = (primary: string): Palette =>
  PALETTES.find((p) => p.primary.toLowerCase() === primary.toLowerCase()) ?? PALETTES[0]!;
