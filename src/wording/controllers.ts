// A controller as the reader knows it: its name and its controllerName.
import { findController } from '../rules/controllers.ts'

/** "Envoy Gateway (gateway.envoyproxy.io/gatewayclass-controller)", or the bare controllerName. */
export function controllerLabel(controllerName: string | null | undefined): string {
  if (!controllerName) return 'the controller'
  const known = findController(controllerName)
  return known ? `${known.name} (${controllerName})` : controllerName
}
