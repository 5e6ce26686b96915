// client-node, loaded on demand (credentials.ts: an auth-provider or a proxy-url). A name imported
// from it here, not the whole package from import(), lets the bundle keep only what KubeConfig needs:
// the package whole is 4.2 MB, KubeConfig and what it uses 1.4 MB.
export { KubeConfig } from '@kubernetes/client-node'
