// Each known controller's documentation and what its own reasons mean for the reader, with the fix,
// seeded from the controllers' published reasons. The facts (names, reasons written, support) are
// rules/controllers.ts; a test holds both to the same controllers and reasons.
import type { ControllerFacts } from '../rules/controllers.ts'

export interface ControllerReason {
  meaning: string
  fix: string
  /** a standard or synthetic reason whose evidence also applies (Cilium InvalidHTTPRoute: the parent is missing) */
  like?: string
}

export interface ControllerDocs {
  docs: string
  /** keyed by "Condition/Reason" where the meaning depends on the condition, else by reason */
  reasons: Record<string, ControllerReason>
}

const INVALID_PARENT: ControllerReason = {
  meaning: 'the parent Gateway (or mesh Service) could not be fetched',
  fix: 'Fix the parentRef name and namespace, or create the Gateway.',
  like: 'NoMatchingParent'
}

/** By the controller's name in rules/controllers.ts. */
export const CONTROLLER_DOCS: Record<string, ControllerDocs> = {
  Istio: {
    docs: 'https://istio.io/latest/docs/tasks/traffic-management/ingress/gateway-api/',
    reasons: {
      InvalidFilter: {
        meaning:
          'a rule or backendRef uses a filter type Istio does not support, or an invalid header filter',
        fix: 'Remove or replace the filter. Istio supports RequestHeaderModifier, ResponseHeaderModifier, RequestRedirect, RequestMirror, URLRewrite and CORS (and ExtensionRef where configured).'
      },
      InvalidDestination: {
        meaning:
          'a backendRef is not a usable destination: a hostname instead of a Service name, a missing port, or a namespace on a Hostname ref',
        fix: 'Use the Service name (not its FQDN), set port, and drop namespace on ServiceEntry Hostname refs.',
        like: 'BackendNotFound'
      },
      InvalidConfiguration: {
        meaning: 'a match type is unknown, or a gRPC match has neither service nor method',
        fix: 'Fix the match type; give each gRPC match a service or a method.',
        like: 'UnsupportedValue'
      },
      UnsupportedAddress: {
        meaning: 'a route configuration error (Istio reports general errors on ResolvedRefs)',
        fix: 'Read the message and fix the field it names.'
      },
      InvalidCertificateRef: {
        meaning: 'a certificate reference is invalid',
        fix: 'Fix the certificate reference the message names.'
      },
      InvalidCACertificateRef: {
        meaning: 'a CA certificate reference is invalid',
        fix: 'Fix the CA certificate reference the message names.'
      },
      InvalidCACertificateKind: {
        meaning: 'a CA certificate reference has an unsupported kind',
        fix: 'Refer to a ConfigMap or Secret holding the CA certificate.'
      },
      InvalidMatch: {
        meaning: 'match processing failed (agentgateway)',
        fix: "Fix the rule's matches.",
        like: 'UnsupportedValue'
      },
      TranslationError: {
        meaning: 'a timeout or retry could not be applied (agentgateway)',
        fix: "Fix the rule's timeouts or retries."
      },
      ParentRefConflict: {
        meaning: 'an older Istio reason for a parentRef that matches no listener',
        fix: "Fix the parentRef's sectionName or port.",
        like: 'NoMatchingParent'
      }
    }
  },
  'Envoy Gateway': {
    docs: 'https://gateway.envoyproxy.io/docs/troubleshooting/configuration',
    reasons: {
      InvalidBackendRef: {
        meaning:
          'a backend failed validation (dynamic resolver with several backendRefs, BackendTLS without CA)',
        fix: 'Fix the Backend or BackendTLSPolicy, or split the backends.'
      },
      InvalidBackendTLS: {
        meaning:
          'the BackendTLSPolicy or EnvoyProxy client certificate cannot be used (CA ConfigMap or Secret missing, client cert in the wrong namespace)',
        fix: "Create the CA ConfigMap or Secret in the policy's namespace, or fix the EnvoyProxy backend TLS client certificate reference."
      },
      InvalidBackendFilters: {
        meaning:
          'a backendRef-level filter could not be translated, e.g. a missing HTTPRouteFilter',
        fix: 'Create the referenced HTTPRouteFilter or remove the filter.',
        like: 'IncompatibleFilters'
      },
      UnsupportedRefValue: {
        meaning:
          'a filter inside a backendRef is not supported there (allowed: header modifiers, URLRewrite hostname, HTTPRouteFilter)',
        fix: 'Move the filter to the rule or use one allowed on a backendRef.',
        like: 'IncompatibleFilters'
      },
      PortNotFound: {
        meaning: 'the Service exists but has no port with that number and protocol',
        fix: 'Use a port the Service has (its port, not its targetPort) and check TCP against UDP.',
        like: 'BackendNotFound'
      },
      PortNotSpecified: {
        meaning: 'a backendRef to a Service has no port',
        fix: 'Add port to the backendRef.',
        like: 'BackendNotFound'
      },
      UnsupportedAddressType: {
        meaning:
          'a backend mixes address types (FQDN and IP) or uses a Unix socket where it is not allowed',
        fix: 'Use one address type per backendRef.'
      },
      InvalidAddress: {
        meaning: 'a Backend endpoint is invalid (loopback IP, single-label hostname)',
        fix: 'Use an FQDN with at least two labels or a routable IP in the Backend resource.'
      },
      'ResolvedRefs/UnsupportedValue': {
        meaning: 'an ExternalName Service as backend, or the Backend API is disabled',
        fix: 'Replace the ExternalName Service with a Backend resource (FQDN endpoint), or enable the Backend API in the EnvoyGateway configuration.',
        like: 'BackendNotFound'
      },
      EndpointsNotFound: {
        meaning: 'the Service exists but has no ready endpoints; requests get 503',
        fix: 'Scale up or fix the readiness of the backing Pods; check the Service selector.'
      },
      InvalidRule: {
        meaning: 'a TCPRoute or UDPRoute has other than exactly one rule',
        fix: 'Keep one rule per TCPRoute or UDPRoute; split the Route.'
      },
      RouteRulesOverlap: {
        meaning: 'another Route on the same parent has identical matches; the oldest wins',
        fix: 'Differentiate the matches or hostnames.'
      },
      Aggregated: {
        meaning: 'the Route has more than 32 parents and the status list is truncated',
        fix: 'Reduce the number of parentRefs.'
      }
    }
  },
  Cilium: {
    docs: 'https://docs.cilium.io/en/latest/network/servicemesh/gateway-api/gateway-api/',
    reasons: {
      InvalidHTTPRoute: INVALID_PARENT,
      InvalidGRPCRoute: INVALID_PARENT,
      InvalidTLSRoute: INVALID_PARENT,
      InvalidTCPRoute: INVALID_PARENT,
      InvalidUDPRoute: INVALID_PARENT
    }
  },
  'NGINX Gateway Fabric': {
    docs: 'https://docs.nginx.com/nginx-gateway-fabric/overview/gateway-api-compatibility/',
    reasons: {
      UnsupportedField: {
        meaning: 'the Route is accepted but some fields are ignored',
        fix: 'Remove the unsupported fields the message lists, or accept that they are ignored.'
      },
      InvalidListener: {
        meaning: 'every listener the parentRef selects is invalid',
        fix: "Fix the Gateway listener (see the listener's conditions)."
      },
      InvalidGateway: {
        meaning: 'the parent Gateway is invalid (Accepted=False)',
        fix: 'Fix the Gateway (see its conditions).'
      },
      InvalidListenerSet: {
        meaning: 'the parent ListenerSet is invalid',
        fix: 'Fix the ListenerSet.'
      },
      HostnameConflict: {
        meaning: 'L4 Route hostnames conflict with another Route of the same kind on the same port',
        fix: 'Make TLSRoute/TCPRoute hostnames unique per port.'
      },
      UnsupportedConfiguration: {
        meaning: 'GRPCRoute while HTTP/2 is disabled in NginxProxy',
        fix: 'Enable HTTP/2 in the NginxProxy configuration.'
      },
      InvalidFilter: {
        meaning:
          'an ExtensionRef filter (SnippetsFilter, AuthenticationFilter...) is missing or invalid',
        fix: 'Create or fix the referenced filter resource (check its own Accepted condition).',
        like: 'InvalidKind'
      },
      InvalidInferencePool: {
        meaning: 'an InferencePool backendRef is invalid',
        fix: 'Fix the InferencePool or its endpoint picker Service.'
      },
      'ResolvedRefs/UnsupportedValue': {
        meaning:
          'a backendRef field is invalid: missing port, bad weight, filters on a backendRef, or an ExternalName Service without a DNS resolver',
        fix: 'Fix the backendRef fields; for ExternalName Services configure a DNS resolver in NginxProxy.',
        like: 'BackendNotFound'
      },
      MultipleRoutesOnListener: {
        meaning: 'several L4 Routes on one listener (older NGF)',
        fix: 'Attach one TCPRoute or UDPRoute per listener, or upgrade.'
      },
      GatewayNotProgrammed: {
        meaning: 'older NGF serves only one Gateway and this one is not programmed',
        fix: 'Fix the Gateway or upgrade to NGF 2.0 or later.'
      },
      GatewayIgnored: {
        meaning: 'older NGF serves only one Gateway and ignores this one',
        fix: 'Use the Gateway NGF serves, or upgrade to NGF 2.0 or later.'
      },
      InvalidServiceIPFamily: {
        meaning: "the Service IP family differs from NGINX's (older NGF)",
        fix: 'Align the Service ipFamilies with the NginxProxy ipFamily.'
      }
    }
  },
  Contour: {
    docs: 'https://projectcontour.io/docs/main/config/gateway-api/',
    reasons: {
      InvalidGateway: {
        meaning: 'the parent Gateway is invalid',
        fix: 'Fix the Gateway (see its conditions).'
      },
      RuleMatchConflict: {
        meaning: "the Route's matches fully conflict with another Route's; the older Route wins",
        fix: 'Change the matches or the hostname.'
      },
      RuleMatchPartiallyConflict: {
        meaning: 'some rules were dropped because they conflict with another Route',
        fix: 'Change the matches or the hostname of the dropped rules.'
      },
      InvalidRouteRules: {
        meaning: 'a TCPRoute has more than one rule',
        fix: 'Keep one rule per TCPRoute.'
      },
      Degraded: {
        meaning:
          'a rule has no backendRefs, a backendRef lacks name or port, or a header filter is invalid',
        fix: 'Add the backendRefs or port; fix duplicate or invalid header filters.',
        like: 'BackendNotFound'
      },
      AllBackendRefsHaveZeroWeights: {
        meaning: 'every backendRef has weight 0; Contour answers 503',
        fix: 'Give at least one backendRef a weight above 0.'
      },
      InvalidPathMatch: {
        meaning: 'a path match is invalid (must start with /, no //, valid regex)',
        fix: 'Fix the path value.',
        like: 'UnsupportedValue'
      },
      InvalidMethodMatch: {
        meaning: 'a GRPCRoute match lacks service or method',
        fix: 'Set both service and method.',
        like: 'UnsupportedValue'
      }
    }
  },
  Traefik: {
    docs: 'https://doc.traefik.io/traefik/routing/providers/kubernetes-gateway/',
    reasons: {
      'ResolvedRefs/UnsupportedProtocol': {
        meaning:
          'the Service port is not TCP, or its appProtocol is not one Traefik proxies (HTTPRoute: kubernetes.io/h2c, http, https, kubernetes.io/ws, kubernetes.io/wss; GRPCRoute: kubernetes.io/h2c, https)',
        fix: "Point the backendRef at a TCP port of the Service, and set that port's appProtocol to one Traefik supports or remove it."
      }
    }
  },
  'Kong Ingress Controller': {
    docs: 'https://developer.konghq.com/kubernetes-ingress-controller/',
    reasons: {
      TranslationError: {
        meaning:
          'the Route could not be translated to Kong configuration; the details are in Kubernetes Events',
        fix: 'Read the Route Events (kubectl describe) and check the KongPlugins and annotations it references.'
      },
      ConfiguredInGateway: {
        meaning: 'the Route is configured in Kong',
        fix: 'Nothing to do.'
      }
    }
  },
  'GKE Gateway controller': {
    docs: 'https://cloud.google.com/kubernetes-engine/docs/concepts/gateway-api',
    reasons: {
      ReconciliationFailed: {
        meaning: 'GKE could not reconcile the Route; the message carries a GWCER error code',
        fix: 'Read the GWCER message and fix the resource it names.'
      }
    }
  },
  kgateway: {
    docs: 'https://kgateway.dev/docs/',
    reasons: {
      RouteRuleDropped: {
        meaning:
          'a rule could not be translated (invalid regex, failing policy, no action) and was dropped',
        fix: "Fix the rule's matches or its TrafficPolicy; the message names the error.",
        like: 'UnsupportedValue'
      },
      RouteRuleReplaced: {
        meaning: 'a rule was replaced by a direct 500 response because a policy on it is invalid',
        fix: 'Fix the TrafficPolicy or filter attached to the rule.',
        like: 'UnsupportedValue'
      },
      ListenerReplaced: {
        meaning: 'a policy on the listener is invalid, so the listener is replaced',
        fix: 'Fix the policy targeting the listener.'
      },
      GatewayReplaced: {
        meaning: 'a policy on the Gateway is invalid, so the Gateway is replaced',
        fix: 'Fix the policy targeting the Gateway.'
      },
      Conflicted: {
        meaning:
          'the Route loses a conflict with a Route of another type on the same host and listener',
        fix: 'Avoid an HTTPRoute and a GRPCRoute on the same host and listener.'
      }
    }
  },
  Linkerd: {
    docs: 'https://linkerd.io/2-edge/features/gateway-api/',
    reasons: {
      RouteReasonConflicted: {
        meaning:
          'a Route kind with higher precedence (GRPCRoute > HTTPRoute > TLSRoute > TCPRoute) targets the same parent',
        fix: 'Keep one Route kind per parent Service: remove the lower-precedence Route or use another parent port.'
      },
      NoMatchingTarget: {
        meaning: 'a policy targetRef names a missing Server',
        fix: 'Fix the targetRef.'
      },
      RateLimitReasonAlreadyExists: {
        meaning: 'a second HTTPLocalRateLimitPolicy targets the same resource',
        fix: 'Keep one rate-limit policy per target.'
      },
      EgressReasonNetworkOverlap: {
        meaning: 'EgressNetwork CIDRs overlap the cluster networks',
        fix: 'Fix the EgressNetwork CIDRs.'
      }
    }
  },
  'AWS Gateway API Controller (VPC Lattice)': {
    docs: 'https://www.gateway-api-controller.eks.aws.dev/',
    reasons: {
      Conflicted: {
        meaning: 'the VPC Lattice service is already owned by another Route or cluster',
        fix: 'Rename the Route or remove the conflicting owner.'
      },
      CertificateNotFound: {
        meaning: 'the listener certificate ARN or ACM certificate was not found',
        fix: 'Fix the certificate ARN or the ACM import.'
      },
      InvalidExternalTargetGroup: {
        meaning: 'the external target group annotation is invalid',
        fix: 'Fix the application-networking.k8s.aws annotations or the target group ARN.'
      },
      ConflictingServiceImportAnnotations: {
        meaning: 'ServiceImport annotations conflict',
        fix: 'Fix the application-networking.k8s.aws annotations.'
      },
      ExternalTargetGroupNotFound: {
        meaning: 'the external target group was not found',
        fix: 'Fix the target group ARN.'
      }
    }
  },
  'Azure Application Gateway for Containers': {
    docs: 'https://learn.microsoft.com/en-us/azure/application-gateway/for-containers/troubleshooting-guide',
    reasons: {}
  },
  'HAProxy Kubernetes Ingress Controller': {
    docs: 'https://github.com/haproxytech/kubernetes-ingress/blob/master/documentation/gateway-api.md',
    reasons: {}
  },
  'HAProxy Unified Gateway': {
    docs: 'https://github.com/haproxytech/haproxy-unified-gateway',
    reasons: {}
  },
  'HAProxy Ingress': {
    docs: 'https://haproxy-ingress.github.io/docs/configuration/gateway-api/',
    reasons: {}
  },
  'Airlock Microgateway': {
    docs: 'https://docs.airlock.com/microgateway/latest/index/1762466259858.html',
    reasons: {}
  },
  'Consul API Gateway': {
    docs: 'https://developer.hashicorp.com/consul/docs',
    reasons: {
      FilterNotFound: {
        meaning: 'an ExtensionRef filter (RouteAuthFilter, RouteRetryFilter...) was not found',
        fix: 'Create the referenced filter.'
      },
      JWTProviderNotFound: {
        meaning: 'a JWT provider referenced by a RouteAuthFilter is missing',
        fix: 'Create the JWTProvider config entry.'
      },
      UnhandledValidationError: {
        meaning: 'an unexpected backend validation error',
        fix: 'Read the message.'
      },
      InvalidRouteKind: {
        meaning: 'the listener does not support this Route kind',
        fix: 'Attach to a listener whose protocol supports the Route kind.',
        like: 'NotAllowedByListeners'
      },
      ListenerNamespacePolicy: {
        meaning: "the listener does not allow Routes from the Route's namespace",
        fix: "Allow the Route's namespace in the listener's allowedRoutes.",
        like: 'NotAllowedByListeners'
      },
      ListenerHostnameMismatch: {
        meaning: 'no listener hostname matches the Route hostnames',
        fix: 'Align the Route and listener hostnames.',
        like: 'NoMatchingListenerHostname'
      },
      BindError: {
        meaning: 'the Route could not bind to the parent',
        fix: 'Fix the parentRef.',
        like: 'NoMatchingParent'
      },
      ServiceNotFound: {
        meaning: 'the Kubernetes Service was not found',
        fix: 'Create the Service or fix the backendRef.',
        like: 'BackendNotFound'
      },
      ConsulServiceNotFound: {
        meaning: 'the Service is not registered in the Consul catalog',
        fix: 'Check that the Service is registered in Consul (connect-inject).',
        like: 'BackendNotFound'
      }
    }
  },
  Kuma: {
    docs: 'https://kuma.io/docs/',
    reasons: {}
  },
  'Apache APISIX ingress controller': {
    docs: 'https://apisix.apache.org/docs/ingress-controller/getting-started/',
    reasons: {}
  },
  'Kuadrant (policy controller)': {
    docs: 'https://docs.kuadrant.io/',
    reasons: {}
  },
  'ngrok operator': {
    docs: 'https://ngrok.com/docs/k8s/',
    reasons: {}
  }
}

export function controllerDocs(
  controller: ControllerFacts | undefined
): ControllerDocs | undefined {
  return controller ? CONTROLLER_DOCS[controller.name] : undefined
}

export function controllerReason(
  controller: ControllerFacts | undefined,
  condition: string | undefined,
  reason: string
): ControllerReason | undefined {
  const reasons = controllerDocs(controller)?.reasons
  if (!reasons) return undefined
  return (
    (condition === undefined ? undefined : reasons[`${condition}/${reason}`]) ?? reasons[reason]
  )
}
