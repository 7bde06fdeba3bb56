/**
 * The navbar picture of each weekday (Sunday first): seven small SVGs of a ship's week, drawn
 * here, a few hundred bytes each.
 */
const icon = (body: string) =>
  `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 32'>${body}</svg>`)}`;
const sea = `<path d='M0 24 q8 -4 16 0 t16 0 t16 0 t16 0 V32 H0Z' fill='#7fc4f0'/>`;

export const WEEKDAY_PICTURES: readonly string[] = [
  icon(`<circle cx='48' cy='10' r='6' fill='#ffd35c'/>${sea}<path d='M14 22 h24 l-4 4 h-16z' fill='#fff'/>`),
  icon(`${sea}<path d='M10 22 h30 l-5 5 h-20z M18 14 h10 v8 h-10z' fill='#fff'/><path d='M22 6 v8' stroke='#fff' stroke-width='2'/>`),
  icon(`<circle cx='50' cy='9' r='4' fill='#fff'/>${sea}<path d='M20 23 l10 -16 v16z' fill='#fff'/><path d='M30 7 v17' stroke='#fff'/>`),
  icon(
    `${sea}<path d='M8 22 h40 l-6 5 h-28z' fill='#fff'/><circle cx='18' cy='16' r='3' fill='#ffd35c'/><circle cx='28' cy='16' r='3' fill='#ffd35c'/><circle cx='38' cy='16' r='3' fill='#ffd35c'/>`,
  ),
  icon(`<path d='M34 4 a10 10 0 1 0 10 12 a8 8 0 1 1 -10 -12z' fill='#ffe9a8'/>${sea}<path d='M8 23 h22 l-4 4 h-14z' fill='#fff'/>`),
  icon(
    `${sea}<path d='M26 20 a8 8 0 0 1 16 0z' fill='#fff'/><path d='M34 20 v-12 M28 10 l6 -4 l6 4' stroke='#fff' stroke-width='2' fill='none'/>`,
  ),
  icon(
    `<circle cx='14' cy='10' r='6' fill='#ffd35c'/>${sea}<path d='M30 22 h22 l-4 4 h-14z M40 10 v12' fill='#fff' stroke='#fff'/><path d='M40 10 l8 6 h-8z' fill='#ff8a65'/>`,
  ),
];

export const pictureForDay = (date: Date = new Date()): string => WEEKDAY_PICTURES[date.getDay()]!;
