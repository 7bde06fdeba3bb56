import type { DeviceReport } from '../../src/domain/reportSchema';
import type { CommandAck } from '../link/deviceLink';
import { SimVessel } from './vessel';
import { placeOnRoute, routeGeometry, SEA_ROUTES } from './seaRoutes';

/** A device the simulator reports as: its number and the secret issued at activation. */
export interface SimDevice {
  deviceNum: string;
  secret: string;
  /** Its device kind (src/domain/deviceKinds.ts): what it reports; a VSAT terminal without it. */
  kind?: string;
  /** Where its latest stored report puts it: the vessel carries on from there along its route (none: where its seed puts it). */
  lastReport?: { lat: number; lon: number; heading: number };
}

export interface FleetReports {
  device: SimDevice;
  reports: DeviceReport[];
}

/** The simulated fleet: vessel i drives device i; the same seed and times give the same reports. */
export class SimFleet {
  readonly vessels: SimVessel[];

  constructor(
    readonly devices: readonly SimDevice[],
    seed: number,
    start: number,
  ) {
    this.vessels = devices.map(
      ({ lastReport, kind }, i) =>
        new SimVessel(
          i,
          seed,
          start,
          lastReport &&
            placeOnRoute(routeGeometry(SEA_ROUTES[i % SEA_ROUTES.length]!), [lastReport.lat, lastReport.lon], lastReport.heading),
          kind,
        ),
    );
  }

  /** Every vessel advanced to `now` (ms); only those with something to send are listed. */
  tick(now: number): FleetReports[] {
    const out: FleetReports[] = [];
    this.vessels.forEach((vessel, i) => {
      // A vessel set to a slower report interval (a setInterval command) sits out the rounds in between.
      if (!vessel.due(now)) return;
      const reports = vessel.tick(now);
      if (reports.length) out.push({ device: this.devices[i]!, reports });
    });
    return out;
  }

  /** A command that reached device `deviceNum` (over MQTT) at `now`: what the vessel does, and its ack. */
  obey(deviceNum: string, command: { id: number; kind: string; params?: unknown }, now: number): CommandAck {
    const vessel = this.vesselOf(deviceNum);
    if (!vessel) return { id: command.id, ok: false, message: 'unknown device' };
    return vessel.obey(command, now);
  }

  /** Whether the device is silent at `now` (an outage, or rebooting after a command): the MQTT transport keeps it disconnected. */
  isSilent(deviceNum: string, now: number): boolean {
    const vessel = this.vesselOf(deviceNum);
    return vessel ? now < vessel.silentUntil() : false;
  }

  private vesselOf(deviceNum: string): SimVessel | undefined {
    return this.vessels[this.devices.findIndex((d) => d.deviceNum === deviceNum)];
  }
}
