/** Where a vessel's links go from the monitor, the alarm list and the fleet map (docs/console.md, "Live monitoring"). */
export const deviceDetailPath = (id: number) => `/device/deviceDataDetail?id=${id}`;
export const deviceTrackPath = (id: number) => `/device/map?id=${id}`;
