// The object names the API server accepts (apimachinery's validation): one definition for the
// inputs that name objects and for the manifests a pull request brings. Lengths are tested before
// the patterns, so a hostile name of megabytes costs one comparison.

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

/** A DNS-1123 label: a namespace's name. */
export function isDnsLabel(text: string): boolean {
  return text.length <= 63 && DNS_LABEL.test(text)
}

/** A DNS-1035 label: a Service's name (it becomes a DNS name that must not start with a digit). */
export function isDns1035Label(text: string): boolean {
  return text.length <= 63 && DNS_1035_LABEL.test(text)
}

/** A DNS-1123 subdomain: the name of most objects, Gateway API kinds among them, and a hostname. */
export function isDnsSubdomain(text: string): boolean {
  return text.length <= 253 && DNS_SUBDOMAIN.test(text)
}
