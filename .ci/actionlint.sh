#!/usr/bin/env bash
# Lints every workflow in .github/workflows with actionlint, built from its Go module into the same
# cache outside the repository as the control-plane binaries (test/cluster/build-binaries.sh), keyed
# by version: a cold build takes about a minute, a warm run a stat call.
set -euo pipefail
cd "$(dirname "$0")/.."
ACTIONLINT_VERSION=${ACTIONLINT_VERSION:-v1.7.12}
CACHE_ROOT=${ROUTE_GATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/route-gate}
dir="$CACHE_ROOT/actionlint-$ACTIONLINT_VERSION"
if [ ! -x "$dir/actionlint" ]; then
  mkdir -p "$dir"
  GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-trimpath GOBIN="$dir/bin.tmp" \
    go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
  mv "$dir/bin.tmp/actionlint" "$dir/actionlint"
  rmdir "$dir/bin.tmp"
fi
"$dir/actionlint" -no-color
