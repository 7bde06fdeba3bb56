/** Strings of the live push (docs/architecture.md, "Live push"), in Chinese. */
export const liveZh = {
  on: '实时推送已连接：告警与状态变化即时显示',
};
