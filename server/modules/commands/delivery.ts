import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/connection';
import type { CommandAck, DeviceLink } from '../../link/deviceLink';
import { INTEGER_MAX } from '../../../src/domain/constants';
import { REBOOT_BACK_WITHIN_MIN, type CommandPayload } from '../../../src/domain/commands';
import {
  claimQueuedCommands,
  closeCommand,
  completeReboots,
  failLostReboots,
  expireOverdueCommands,
  requeueCommands,
  requeueSentCommands,
  type ClaimedCommand,
} from './deliveryQueries';

/** What a device may send back with an ack, at most (a larger result is stored as a note that it was cut). */
const RESULT_MAX_CHARS = 16_384;
const MESSAGE_MAX_CHARS = 500;
/** Connects gathered into one claim, and devices per claim statement. */
const CONNECT_BATCH_MS = 20;
const CLAIM_CHUNK = 5000;

export interface CommandDelivery {
  /** Sends the device's queued commands now if it is connected (after a command was created). */
  deliverIfConnected(deviceNum: string | null): Promise<void>;
}

/**
 * Delivery of commands over the device link:
 * - a command is published when it is created and its device is connected, else when the device
 *   next connects (link.onConnect), oldest first;
 * - a server claims the device's queued commands with one conditional UPDATE (queued -> sent,
 *   RETURNING): across replicas each command is claimed, so published, exactly once. If the
 *   broker refuses the publish the command goes back to queued for the next connect;
 * - once sent, redelivery is the broker's (QoS 1, persistent session), never a second publish;
 *   except that the embedded broker keeps its sessions in memory: when this server starts with it,
 *   commands still "sent" were in sessions that died with the last process, so they are queued
 *   again (requeueLostCommands) and go out when their device connects;
 * - an ack (link.onCommandAck) closes a sent (or still queued) command of that very device
 *   before its deadline; later acks, acks of other devices' ids and repeats change nothing;
 * - a reboot stays acknowledged while the vessel is down: a connect after its ack means the
 *   vessel is back, and the reboot is done.
 * Per device, this server's deliveries run one after another so its commands leave in order;
 * devices connecting within a few milliseconds of each other share one claim statement.
 */
export function startCommandDelivery(db: Queryable, link: DeviceLink, log: FastifyBaseLogger): CommandDelivery {
  const chains = new Map<string, Promise<void>>();

  /** This server's deliveries to one device, one after another. */
  const inOrder = (deviceNum: string, task: () => Promise<void>): Promise<void> => {
    const next = (chains.get(deviceNum) ?? Promise.resolve())
      .then(task)
      .catch((e: Error) => log.warn(`command delivery to ${deviceNum}: ${e.message}`));
    chains.set(deviceNum, next);
    void next.then(() => {
      if (chains.get(deviceNum) === next) chains.delete(deviceNum);
    });
    return next;
  };

  const publish = async (deviceNum: string, claimed: ClaimedCommand[]) => {
    for (let i = 0; i < claimed.length; i += 1) {
      const c = claimed[i]!;
      try {
        await link.sendCommand(deviceNum, {
          id: c.id,
          kind: c.kind,
          params: c.params,
          deadline: new Date(c.deadline).toISOString(),
        } satisfies CommandPayload);
      } catch (error) {
        // Not taken by the broker: this one and the rest wait for the device's next connect.
        const back = claimed.slice(i).map((r) => r.id);
        await requeueCommands(db, back);
        log.warn(`commands for ${deviceNum} left queued: ${(error as Error).message}`);
        return;
      }
    }
  };

  /** Claims the queued commands of these devices (one statement per chunk), each device's oldest first. */
  const claim = async (deviceNums: readonly string[]): Promise<Map<string, ClaimedCommand[]>> => {
    const byDevice = new Map<string, ClaimedCommand[]>();
    for (let i = 0; i < deviceNums.length; i += CLAIM_CHUNK) {
      const claimed = await claimQueuedCommands(db, deviceNums.slice(i, i + CLAIM_CHUNK));
      for (const c of claimed) byDevice.set(c.deviceNum, [...(byDevice.get(c.deviceNum) ?? []), c]);
    }
    for (const list of byDevice.values()) list.sort((a, b) => a.id - b.id);
    return byDevice;
  };

  /** Claims the queued commands of these connecting devices and publishes them. */
  const deliver = async (deviceNums: readonly string[]): Promise<void> => {
    const byDevice = await claim(deviceNums);
    await Promise.all([...byDevice].map(([num, claimed]) => inOrder(num, () => publish(num, claimed))));
  };

  // Devices connecting together (a fleet after a broker restart) are served by one claim per few milliseconds, not one each.
  let connecting: Map<string, Date> | null = null;
  // Connect deliveries under way, with their devices: creating a command waits for its device's, so it answers the command's settled state.
  const onConnectDeliveries = new Map<Promise<void>, ReadonlySet<string>>();
  link.onConnect((deviceNum) => {
    if (!connecting) {
      const batch = (connecting = new Map());
      setTimeout(() => {
        connecting = null;
        const nums = [...batch.keys()];
        const delivery = completeReboots(db, nums, [...batch.values()])
          .catch((e: Error) => log.warn(`reboots completed on connect: ${e.message}`))
          .then(() => deliver(nums))
          .catch((e: Error) => log.warn(`command delivery on connect: ${e.message}`));
        onConnectDeliveries.set(delivery, new Set(nums));
        void delivery.then(() => onConnectDeliveries.delete(delivery));
      }, CONNECT_BATCH_MS).unref?.();
    }
    connecting.set(deviceNum, new Date());
  });
  link.onCommandAck((deviceNum, ack) => acknowledgeCommand(db, deviceNum, ack).then(() => undefined));

  return {
    async deliverIfConnected(deviceNum) {
      if (!deviceNum || !link.isConnected(deviceNum)) return;
      // Claimed and published after this server's earlier deliveries to the device, so a command
      // created meanwhile is never answered "sent" while another delivery is still trying it.
      await inOrder(deviceNum, async () => {
        const claimed = (await claim([deviceNum])).get(deviceNum);
        if (claimed) await publish(deviceNum, claimed);
      });
      // A connect's delivery that claimed it first is still publishing it, or putting it back.
      await Promise.all([...onConnectDeliveries].filter(([, nums]) => nums.has(deviceNum)).map(([delivery]) => delivery));
    },
  };
}

/** Commands left "sent" in the embedded broker's sessions, which a restart lost: queued again. Answers how many. */
export async function requeueLostCommands(db: Queryable): Promise<number> {
  return requeueSentCommands(db);
}

/** Applies a device's ack; answers whether it changed a command (false: unknown, another device's, closed or past its deadline). */
export async function acknowledgeCommand(db: Queryable, deviceNum: string, ack: CommandAck): Promise<boolean> {
  if (!Number.isSafeInteger(ack.id) || ack.id < 1 || ack.id > INTEGER_MAX) return false;
  const message = typeof ack.message === 'string' ? ack.message.slice(0, MESSAGE_MAX_CHARS) : null;
  let result: string | null = null;
  if (ack.data !== undefined && ack.data !== null) {
    const text = JSON.stringify(typeof ack.data === 'object' ? ack.data : { value: ack.data });
    result = text.length > RESULT_MAX_CHARS ? JSON.stringify({ truncated: true, chars: text.length }) : text;
  }
  return closeCommand(db, deviceNum, ack.id, ack.ok === true, message, result);
}

/**
 * The leader's sweep: open commands past their deadline become expired, and reboots whose vessel is
 * not back REBOOT_BACK_WITHIN_MIN after the ack fail. Answers how many changed.
 */
export async function expireCommands(db: Queryable): Promise<number> {
  return (await expireOverdueCommands(db)) + (await failLostReboots(db, REBOOT_BACK_WITHIN_MIN));
}
