// What an evidence gatherer receives and what it hands back to explainRoute.
import type { ControllerInfo } from './controllers.ts'
import type { Finding, ParentVerdict, RouteObject, World } from '../model/types.ts'

export interface DiagnosisContext {
  route: RouteObject
  world: World
  finding: Finding
  /** absent for route-level findings (NoParentRefs) */
  parent?: ParentVerdict
  controller?: ControllerInfo
  now?: Date
}

/** The sharpened explanation; any field left out falls back to the reason catalogs. */
export interface Diagnosis {
  title?: string
  remediation?: string
  evidence: string[]
  fix?: string
}

export type Gatherer = (context: DiagnosisContext) => Diagnosis
