/**
 * Whether an alarm rule's scope covers a vessel: its vessels and groups, or neither named: every
 * vessel of its enterprise (the caller checks the enterprise). The same rule as the SQL function
 * alarm_rule_covers (migration 022), for the checks that hold their vessels in memory.
 */
export function ruleCovers(
  rule: { deviceIds: readonly number[] | null; groupIds: readonly number[] | null },
  deviceId: number,
  groupId: number | null,
): boolean {
  const devices = rule.deviceIds ?? [];
  const groups = rule.groupIds ?? [];
  return (!devices.length && !groups.length) || devices.includes(deviceId) || (groupId !== null && groups.includes(groupId));
}
