/** Where a vessel's links go from the monitor, the alarm list and the fleet map (docs/console.md, "Live monitoring"). */
export const deviceDetailPath = (id: number) => `/device/deviceDataDetail?id=${id}`;
export const deviceTrackPath = (id: number) => `/device/map?id=${id}`;
/** The delivery log of one alarm: who was told about it outside the console (docs/console.md, "Live monitoring"). */
export const alarmNotificationsPath = (alarmId: number) => `/alarm/notification?filter=${encodeURIComponent(JSON.stringify({ alarmId }))}`;
