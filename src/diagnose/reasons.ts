// The reasons Gateway API defines for Route conditions (apis/v1/shared_types.go, unchanged v1.0 to
// v1.6.1) and route-gate's synthetic ones, each with a generic title and remediation that the evidence
// gatherers sharpen.

export interface ReasonEntry {
  /** condition types the Gateway API defines this reason for; empty for synthetic reasons */
  conditions: string[]
  title: string
  remediation: string
}

export const STANDARD_REASONS: Record<string, ReasonEntry> = {
  Accepted: {
    conditions: ['Accepted'],
    title: 'The parent accepted the Route',
    remediation: 'Nothing to do.'
  },
  NotAllowedByListeners: {
    conditions: ['Accepted'],
    title: 'No listener of the parent allows this Route',
    remediation:
      "Make a listener admit the Route: its allowedRoutes.namespaces must include the Route's namespace and its allowedRoutes.kinds (or protocol) must support the Route kind."
  },
  NoMatchingListenerHostname: {
    conditions: ['Accepted'],
    title: "No listener hostname matches the Route's hostnames",
    remediation:
      'Add a Route hostname that a listener accepts, or change the listener hostname to cover the Route hostnames.'
  },
  NoMatchingParent: {
    conditions: ['Accepted'],
    title: "The parentRef's sectionName or port matches no listener",
    remediation: "Set the parentRef's sectionName and port to a listener that exists."
  },
  UnsupportedValue: {
    conditions: ['Accepted', 'PartiallyInvalid'],
    title: 'The Route uses a value the controller does not support',
    remediation:
      'Change the field the message names to a supported value (path, header and query match types; HTTP method; filter type).'
  },
  Pending: {
    conditions: ['Accepted'],
    title: 'The controller has not reconciled the Route yet',
    remediation:
      'Wait for the controller; if it stays Pending, check that the controller is running.'
  },
  IncompatibleFilters: {
    conditions: ['Accepted', 'PartiallyInvalid'],
    title: 'A rule combines filters that cannot be used together',
    remediation:
      'Split the rule or drop one of the filters: RequestRedirect cannot be combined with URLRewrite or with backendRefs, and a rule may hold at most one of each.'
  },
  ResolvedRefs: {
    conditions: ['ResolvedRefs'],
    title: 'Every reference resolved',
    remediation: 'Nothing to do.'
  },
  RefNotPermitted: {
    conditions: ['ResolvedRefs'],
    title: 'A cross-namespace backendRef is not permitted by any ReferenceGrant',
    remediation:
      "Create a ReferenceGrant in the backend's namespace that allows the Route's kind and namespace to reference the Service."
  },
  InvalidKind: {
    conditions: ['ResolvedRefs'],
    title: 'A backendRef or filter refers to a kind the controller does not support',
    remediation:
      'Refer to a core Service (group "", kind Service) or a kind the controller supports.'
  },
  BackendNotFound: {
    conditions: ['ResolvedRefs'],
    title: 'A backendRef refers to a Service that does not exist',
    remediation: 'Create the Service or correct the backendRef name, namespace and port.'
  },
  UnsupportedProtocol: {
    conditions: ['ResolvedRefs'],
    title: "A backend's appProtocol is not supported",
    remediation:
      "Change the Service port's appProtocol to one the controller supports, or remove it."
  }
}

export const SYNTHETIC_REASONS: Record<string, ReasonEntry> = {
  NoStatus: {
    conditions: [],
    title: 'No controller has written status for this parentRef',
    remediation:
      'Check that the parent exists under this name and namespace, that its GatewayClass is Accepted and that the controller named by the class is running and watches this namespace.'
  },
  StaleStatus: {
    conditions: [],
    title: 'The status describes an older generation of the Route',
    remediation: 'The controller has not processed the current spec: it is lagging or stopped.'
  },
  ConditionMissing: {
    conditions: [],
    title: 'A required condition is missing',
    remediation:
      'The controller wrote status without this condition; check whether it supports this Route kind and condition.'
  },
  ConditionUnknown: {
    conditions: [],
    title: 'A required condition is Unknown',
    remediation:
      'The controller has not decided yet; if it stays Unknown, check the controller logs.'
  },
  NoParentRefs: {
    conditions: [],
    title: 'The Route has no parentRefs, so nothing serves it',
    remediation: 'Add spec.parentRefs naming the Gateway (or Service) that should serve the Route.'
  },
  FallBack: {
    conditions: [],
    title: 'The controller serves an older version of the Route (PartiallyInvalid: Fall Back)',
    remediation:
      'Some rules of the current spec are invalid, so the controller keeps serving the last good version. Fix the rules the PartiallyInvalid message names.'
  },
  Terminating: {
    conditions: [],
    title: 'The Route is being deleted',
    remediation:
      'A Route with metadata.deletionTimestamp is on its way out, whatever its status says: re-create it once it is gone if it should stay.'
  },
  NotSynced: {
    conditions: [],
    title: 'The cluster does not carry the merged files yet',
    remediation:
      'Its status describes what ran before the merge, so it was not judged. Sync the GitOps application that deploys these files (argocd app sync, flux reconcile kustomization) or apply them; the Route is judged once the cluster carries them.'
  },
  Unpredictable: {
    conditions: [],
    title: 'The objects cannot tell what the controller will write',
    remediation:
      'route-gate predict did not guess: apply the change and let route-gate gate judge the status its controller writes.'
  },
  ParentUnhealthy: {
    conditions: [],
    title: 'The parent is not healthy although the Route looks fine',
    remediation: 'Fix the Gateway, listener or GatewayClass conditions listed as evidence.'
  }
}

export function reasonEntry(reason: string): ReasonEntry | undefined {
  return STANDARD_REASONS[reason] ?? SYNTHETIC_REASONS[reason]
}

export function isSynthetic(reason: string): boolean {
  return reason in SYNTHETIC_REASONS
}

/** Gateway API defines this reason for this condition type (UnsupportedValue on ResolvedRefs: no). */
export function isStandardReason(condition: string | undefined, reason: string): boolean {
  const entry = STANDARD_REASONS[reason]
  return entry !== undefined && condition !== undefined && entry.conditions.includes(condition)
}
