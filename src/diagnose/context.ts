// What an evidence gatherer receives and what it hands back to explainRoute.
import type { ControllerFacts } from '../rules/controllers.ts'
import type { Finding, Fix, ParentVerdict, RouteObject, World } from '../model/types.ts'

export interface DiagnosisContext {
  route: RouteObject
  world: World
  finding: Finding
  /** absent for route-level findings (NoParentRefs) */
  parent?: ParentVerdict
  controller?: ControllerFacts
  /** every parent verdict of the Route, this one included: what the same controller did elsewhere */
  parents?: ParentVerdict[]
  /** other Routes the run holds (the dump's, the gate's), for conflicts and controller liveness */
  routes?: RouteObject[]
  now?: Date
  /** what `now` is: the clock at the end of a live run, or the newest timestamp in a dump */
  clock?: 'live' | 'dump'
}

/** The sharpened explanation; any field left out falls back to the reason catalogs. */
export interface Diagnosis {
  title?: string
  remediation?: string
  evidence: string[]
  fixes?: Fix[]
}

export type Gatherer = (context: DiagnosisContext) => Diagnosis
