/** Strings of the live push (issue 17, part 3), in Chinese. */
export const liveZh = {
  on: '实时推送已连接：告警与状态变化即时显示',
};
