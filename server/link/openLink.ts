import { noDeviceLink, type DeviceLink, type LinkParts } from './deviceLink';
import { openEmbeddedLink } from './embeddedBroker';
import { openExternalLink } from './externalBroker';

/** The device link the settings ask for: none (MQTT=0), an external broker (MQTT_URL), else the embedded one. */
export async function openDeviceLink(parts: LinkParts): Promise<DeviceLink> {
  if (!parts.config.mqtt) return noDeviceLink();
  return parts.config.mqttUrl ? openExternalLink(parts) : openEmbeddedLink(parts);
}
