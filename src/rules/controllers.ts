// What each Gateway API implementation does, known by its controllerName: the reasons it writes beyond
// the standard ones, and what it takes where the spec leaves it open. Facts only; its documentation
// and what each reason means for the reader live in diagnose/controller-docs.ts, held to the same
// names and reasons by a test.

export interface ControllerFacts {
  name: string
  /** exact controllerName values */
  names: string[]
  /** families: any controllerName starting with one of these */
  prefixes: string[]
  /** the reasons it writes beyond the standard ones: "Condition/Reason" where the condition matters */
  writes: string[]
  /** what the controller accepts where the standard leaves it open */
  supports?: { backendKinds?: string[]; filters?: string[] }
}

export const CONTROLLERS: ControllerFacts[] = [
  {
    name: 'Istio',
    names: [],
    prefixes: ['istio.io/'],
    writes: [
      'InvalidFilter',
      'InvalidDestination',
      'InvalidConfiguration',
      'UnsupportedAddress',
      'InvalidCertificateRef',
      'InvalidCACertificateRef',
      'InvalidCACertificateKind',
      'InvalidMatch',
      'TranslationError',
      'ParentRefConflict'
    ],
    supports: {
      filters: [
        'RequestHeaderModifier',
        'ResponseHeaderModifier',
        'RequestRedirect',
        'RequestMirror',
        'URLRewrite',
        'CORS'
      ]
    }
  },
  {
    name: 'Envoy Gateway',
    names: ['gateway.envoyproxy.io/gatewayclass-controller'],
    prefixes: [],
    writes: [
      'InvalidBackendRef',
      'InvalidBackendTLS',
      'InvalidBackendFilters',
      'UnsupportedRefValue',
      'PortNotFound',
      'PortNotSpecified',
      'UnsupportedAddressType',
      'InvalidAddress',
      'ResolvedRefs/UnsupportedValue',
      'EndpointsNotFound',
      'InvalidRule',
      'RouteRulesOverlap',
      'Aggregated'
    ],
    supports: {
      backendKinds: [
        'Service',
        'ServiceImport (multicluster.x-k8s.io)',
        'Backend (gateway.envoyproxy.io)'
      ]
    }
  },
  {
    name: 'Cilium',
    names: [],
    prefixes: ['io.cilium/'],
    writes: [
      'InvalidHTTPRoute',
      'InvalidGRPCRoute',
      'InvalidTLSRoute',
      'InvalidTCPRoute',
      'InvalidUDPRoute'
    ]
  },
  {
    name: 'NGINX Gateway Fabric',
    names: [],
    prefixes: ['gateway.nginx.org/'],
    writes: [
      'UnsupportedField',
      'InvalidListener',
      'InvalidGateway',
      'InvalidListenerSet',
      'HostnameConflict',
      'UnsupportedConfiguration',
      'InvalidFilter',
      'InvalidInferencePool',
      'ResolvedRefs/UnsupportedValue',
      'MultipleRoutesOnListener',
      'GatewayNotProgrammed',
      'GatewayIgnored',
      'InvalidServiceIPFamily'
    ],
    supports: {
      backendKinds: ['Service']
    }
  },
  {
    name: 'Contour',
    names: [],
    prefixes: ['projectcontour.io/'],
    writes: [
      'InvalidGateway',
      'RuleMatchConflict',
      'RuleMatchPartiallyConflict',
      'InvalidRouteRules',
      'Degraded',
      'AllBackendRefsHaveZeroWeights',
      'InvalidPathMatch',
      'InvalidMethodMatch'
    ],
    supports: {
      backendKinds: ['Service'],
      filters: [
        'RequestHeaderModifier',
        'ResponseHeaderModifier',
        'RequestRedirect',
        'RequestMirror',
        'URLRewrite'
      ]
    }
  },
  {
    name: 'Traefik',
    names: ['traefik.io/gateway-controller'],
    prefixes: ['traefik.io/'],
    // Traefik also writes this standard reason for a Service port that is not TCP
    writes: ['ResolvedRefs/UnsupportedProtocol'],
    // any other kind: ResolvedRefs=False InvalidKind "unsupported HTTPBackendRef" (httproute.go)
    supports: {
      backendKinds: ['Service', 'TraefikService (traefik.io)']
    }
  },
  {
    name: 'Kong Ingress Controller',
    names: [],
    prefixes: ['konghq.com/'],
    writes: ['TranslationError', 'ConfiguredInGateway']
  },
  {
    name: 'GKE Gateway controller',
    names: [],
    prefixes: ['networking.gke.io/'],
    writes: ['ReconciliationFailed']
  },
  {
    name: 'kgateway',
    names: [],
    prefixes: ['kgateway.dev/', 'agentgateway.dev/', 'solo.io/'],
    writes: [
      'RouteRuleDropped',
      'RouteRuleReplaced',
      'ListenerReplaced',
      'GatewayReplaced',
      'Conflicted'
    ]
  },
  {
    name: 'Linkerd',
    names: [],
    prefixes: ['linkerd.io/'],
    writes: [
      'RouteReasonConflicted',
      'NoMatchingTarget',
      'RateLimitReasonAlreadyExists',
      'EgressReasonNetworkOverlap'
    ]
  },
  {
    name: 'AWS Gateway API Controller (VPC Lattice)',
    names: [],
    prefixes: ['application-networking.k8s.aws/'],
    writes: [
      'Conflicted',
      'CertificateNotFound',
      'InvalidExternalTargetGroup',
      'ConflictingServiceImportAnnotations',
      'ExternalTargetGroupNotFound'
    ]
  },
  {
    name: 'Azure Application Gateway for Containers',
    names: [],
    prefixes: ['alb.networking.azure.io/'],
    writes: []
  },
  {
    name: 'HAProxy Kubernetes Ingress Controller',
    names: [],
    prefixes: ['haproxy.org/'],
    writes: []
  },
  {
    name: 'HAProxy Unified Gateway',
    names: [],
    prefixes: ['gate.haproxy.org/'],
    writes: []
  },
  {
    name: 'HAProxy Ingress',
    names: [],
    prefixes: ['haproxy-ingress.github.io/'],
    writes: []
  },
  {
    name: 'Airlock Microgateway',
    names: [],
    prefixes: ['microgateway.airlock.com/'],
    writes: []
  },
  {
    name: 'Consul API Gateway',
    names: [],
    prefixes: ['consul.hashicorp.com/'],
    writes: [
      'FilterNotFound',
      'JWTProviderNotFound',
      'UnhandledValidationError',
      'InvalidRouteKind',
      'ListenerNamespacePolicy',
      'ListenerHostnameMismatch',
      'BindError',
      'ServiceNotFound',
      'ConsulServiceNotFound'
    ]
  },
  {
    name: 'Kuma',
    names: [],
    prefixes: ['gateways.kuma.io/'],
    writes: []
  },
  {
    name: 'Apache APISIX ingress controller',
    names: [],
    prefixes: ['apisix.apache.org/'],
    writes: []
  },
  {
    name: 'Kuadrant (policy controller)',
    names: [],
    prefixes: ['kuadrant.io/'],
    writes: []
  },
  {
    name: 'ngrok operator',
    names: [],
    prefixes: ['ngrok.com/'],
    writes: []
  }
]

export function findController(
  controllerName: string | null | undefined
): ControllerFacts | undefined {
  if (!controllerName) return undefined
  return (
    CONTROLLERS.find((c) => c.names.includes(controllerName)) ??
    CONTROLLERS.find((c) => c.prefixes.some((p) => controllerName.startsWith(p)))
  )
}

/** Whether the controller writes this reason (on this condition, or on any). */
export function writesReason(
  controller: ControllerFacts | undefined,
  condition: string | undefined,
  reason: string
): boolean {
  if (!controller) return false
  return (
    (condition !== undefined && controller.writes.includes(`${condition}/${reason}`)) ||
    controller.writes.includes(reason)
  )
}
