/**
 * Ports a voyage's destination may name (docs/architecture.md, "Degradation ahead"): the world's
 * busiest container ports and those of the demo's routes, each with its UN/LOCODE, its names in
 * English and Chinese, and the point at sea where ships approach it (to about 10 km: where a
 * projected path ends, not a berth). A destination is matched by any of these, case and spacing
 * aside; one that names no port here, nor one of the fleet's own (its port geofences), does not
 * steer the path.
 */
export interface Port {
  locode: string;
  name: string;
  zh: string;
  /** Other names and spellings it goes by. */
  aliases?: readonly string[];
  at: readonly [lat: number, lon: number];
}

export const PORTS: readonly Port[] = [
  { locode: 'CNSHA', name: 'Shanghai', zh: '上海', at: [31.0, 122.7] },
  { locode: 'SGSIN', name: 'Singapore', zh: '新加坡', at: [1.25, 103.95] },
  { locode: 'LKCMB', name: 'Colombo', zh: '科伦坡', at: [6.96, 79.8] },
  { locode: 'NLRTM', name: 'Rotterdam', zh: '鹿特丹', at: [52.0, 3.9] },
  { locode: 'USNYC', name: 'New York', zh: '纽约', aliases: ['New York/New Jersey', 'Newark'], at: [40.45, -73.85] },
  { locode: 'USLAX', name: 'Los Angeles', zh: '洛杉矶', at: [33.68, -118.2] },
  { locode: 'USHNL', name: 'Honolulu', zh: '檀香山', aliases: ['火奴鲁鲁'], at: [21.27, -157.88] },
  { locode: 'BRSSZ', name: 'Santos', zh: '桑托斯', at: [-24.1, -46.3] },
  { locode: 'ZACPT', name: 'Cape Town', zh: '开普敦', at: [-33.88, 18.42] },
  { locode: 'HKHKG', name: 'Hong Kong', zh: '香港', at: [22.25, 114.2] },
  { locode: 'CNSZX', name: 'Shenzhen', zh: '深圳', aliases: ['Yantian', '盐田'], at: [22.5, 114.3] },
  { locode: 'CNNGB', name: 'Ningbo', zh: '宁波', aliases: ['Ningbo-Zhoushan', '宁波舟山'], at: [29.9, 122.2] },
  { locode: 'CNTAO', name: 'Qingdao', zh: '青岛', at: [36.0, 120.4] },
  { locode: 'CNTSN', name: 'Tianjin', zh: '天津', at: [38.95, 117.9] },
  { locode: 'CNCAN', name: 'Guangzhou', zh: '广州', aliases: ['Nansha', '南沙'], at: [22.6, 113.7] },
  { locode: 'CNXMN', name: 'Xiamen', zh: '厦门', at: [24.4, 118.1] },
  { locode: 'KRPUS', name: 'Busan', zh: '釜山', aliases: ['Pusan'], at: [35.05, 129.05] },
  { locode: 'JPTYO', name: 'Tokyo', zh: '东京', at: [35.4, 139.8] },
  { locode: 'TWKHH', name: 'Kaohsiung', zh: '高雄', at: [22.55, 120.25] },
  { locode: 'MYPKG', name: 'Port Klang', zh: '巴生港', aliases: ['Klang'], at: [2.95, 101.3] },
  { locode: 'AEJEA', name: 'Jebel Ali', zh: '杰贝阿里', aliases: ['Dubai', '迪拜'], at: [25.05, 55.0] },
  { locode: 'INBOM', name: 'Mumbai', zh: '孟买', aliases: ['Bombay', 'Nhava Sheva'], at: [18.9, 72.8] },
  { locode: 'DEHAM', name: 'Hamburg', zh: '汉堡', at: [53.9, 8.5] },
  { locode: 'BEANR', name: 'Antwerp', zh: '安特卫普', at: [51.4, 3.5] },
  { locode: 'GRPIR', name: 'Piraeus', zh: '比雷埃夫斯', at: [37.9, 23.6] },
  { locode: 'EGPSD', name: 'Port Said', zh: '塞得港', at: [31.3, 32.35] },
  { locode: 'USLGB', name: 'Long Beach', zh: '长滩', at: [33.72, -118.2] },
  { locode: 'CAVAN', name: 'Vancouver', zh: '温哥华', at: [49.3, -123.2] },
  { locode: 'PABLB', name: 'Balboa', zh: '巴尔博亚', at: [8.9, -79.55] },
  { locode: 'AUSYD', name: 'Sydney', zh: '悉尼', at: [-33.85, 151.3] },
  { locode: 'ZADUR', name: 'Durban', zh: '德班', at: [-29.88, 31.07] },
];

const key = (text: string) => text.toLowerCase().replace(/[\s\-_.,/()'’]+/g, '');
const byKey = new Map<string, Port>();
for (const p of PORTS) for (const n of [p.locode, p.name, p.zh, ...(p.aliases ?? [])]) byKey.set(key(n), p);

/** A port of a fleet's own, by name: an enterprise's port geofences (Support > Geofences, kind "port"). */
export interface OwnPort {
  name: string;
  at: readonly [lat: number, lon: number];
}
export type OwnPorts = ReadonlyMap<string, OwnPort>;
const withoutPortOf = (name: string) => name.replace(/^port\s+of\s+/i, '');
/** A fleet's own ports, found by name as the product's are (case and spacing aside; "Port of Darwin" also by "Darwin"). */
export function ownPorts(places: readonly OwnPort[]): OwnPorts {
  const byName = new Map<string, OwnPort>();
  // A name that is all punctuation has no key: it names nothing.
  for (const p of places) for (const k of [key(p.name), key(withoutPortOf(p.name))]) if (k && !byName.has(k)) byName.set(k, p);
  return byName;
}

/**
 * The port a voyage's destination names, or undefined: its UN/LOCODE ("SGSIN", "SG SIN"), its
 * name or an alias in English or Chinese, case and spacing aside; also "Singapore, SG",
 * "Port of Singapore" or "Los Angeles/Long Beach" (the part before a comma or a slash, a leading
 * "port of"). A fleet's own ports (`own`) are looked at first: a fleet's own "Colombo" is where its
 * ships go, and it names ports the product does not know.
 */
export function portNamed(destination: string | null | undefined): Port | undefined;
export function portNamed(destination: string | null | undefined, own: OwnPorts | undefined): Port | OwnPort | undefined;
export function portNamed(destination: string | null | undefined, own?: OwnPorts): Port | OwnPort | undefined {
  if (!destination) return undefined;
  const whole = destination.trim();
  for (const candidate of [whole, whole.split(/[,，]/)[0]!, whole.split('/')[0]!, withoutPortOf(whole)]) {
    const found = own?.get(key(candidate)) ?? byKey.get(key(candidate));
    if (found) return found;
  }
  return undefined;
}
