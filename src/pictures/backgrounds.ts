/**
 * The six login backgrounds (p1..p6) and six home backgrounds (homep1..homep6) of docs/requirements.md §9:
 * small SVG seascapes built here (no downloaded pictures), each well under 1 KB.
 */
const svg = (body: string) =>
  `url("data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1440 900' preserveAspectRatio='xMidYMid slice'>${body}</svg>`)}")`;

const waves = (sky: [string, string], sea: [string, string, string], sun: string) =>
  svg(
    `<defs><linearGradient id='s' x1='0' y1='0' x2='0' y2='1'><stop offset='0' stop-color='${sky[0]}'/><stop offset='1' stop-color='${sky[1]}'/></linearGradient></defs>` +
      `<rect width='1440' height='900' fill='url(#s)'/><circle cx='1130' cy='250' r='90' fill='${sun}' opacity='.55'/>` +
      `<path d='M0 560 Q180 520 360 560 T720 560 T1080 560 T1440 560 V900 H0Z' fill='${sea[0]}'/>` +
      `<path d='M0 650 Q180 610 360 650 T720 650 T1080 650 T1440 650 V900 H0Z' fill='${sea[1]}'/>` +
      `<path d='M0 750 Q180 710 360 750 T720 750 T1080 750 T1440 750 V900 H0Z' fill='${sea[2]}'/>` +
      `<path d='M260 540 h150 l-20 26 h-112z M300 540 v-40 h40 v40z' fill='#1f2d3d' opacity='.7'/>`,
  );

export const LOGIN_BACKGROUNDS: readonly string[] = [
  waves(['#0b3d6b', '#2a78b8'], ['#0a5a94', '#084b7c', '#063a61'], '#ffd98a'),
  waves(['#12263f', '#3b5f8a'], ['#1d4e7a', '#173f63', '#10304d'], '#f5f1d6'),
  waves(['#f7a35c', '#fbd7a2'], ['#2b6ea3', '#235d8b', '#1a4a70'], '#fff3c4'),
  waves(['#5fa8d3', '#cae9ff'], ['#1b80c4', '#166ca6', '#115685'], '#ffffff'),
  waves(['#2d2a55', '#7b6fb0'], ['#2f4f86', '#27426f', '#1e3456'], '#ffe8a3'),
  waves(['#0f5257', '#4fb3a9'], ['#137a7f', '#0f6468', '#0b4d50'], '#fdf6d8'),
];

const grid = (a: string, b: string) =>
  svg(
    `<rect width='1440' height='900' fill='${a}'/>` +
      `<g stroke='${b}' stroke-width='1' fill='none' opacity='.5'>` +
      Array.from({ length: 9 }, (_, i) => `<path d='M0 ${i * 100 + 50} H1440'/>`).join('') +
      Array.from({ length: 15 }, (_, i) => `<path d='M${i * 100 + 20} 0 V900'/>`).join('') +
      `</g><path d='M0 700 Q360 620 720 700 T1440 700 V900 H0Z' fill='${b}' opacity='.25'/>`,
  );

export const HOME_BACKGROUNDS: readonly string[] = [
  grid('#f3f8fd', '#b9d4ec'),
  grid('#f6f9f4', '#c4dcc0'),
  grid('#fbf7f2', '#e6cfb3'),
  grid('#f5f4fb', '#cbc6e8'),
  grid('#f2fafa', '#b5dedc'),
  grid('#f7f7f7', '#cfd4da'),
];

/** p1 and homep1 are the defaults (docs/requirements.md §4); a stored choice 1..6 picks another. */
export function backgroundIndex(key: string): number {
  const n = Number(typeof localStorage === 'undefined' ? NaN : localStorage.getItem(key));
  return Number.isInteger(n) && n >= 1 && n <= 6 ? n - 1 : 0;
}
