#!/usr/bin/env bash
# Measures `cairn bridge` against mcp-remote, both in front of the same
# remote: `cairn serve --http` (the binary built here, on a real SQLite
# file, requiring a bearer token). Both are driven over real stdio by the
# official Go MCP SDK client. Measured: the latency each adds to a tool call
# (p50 through the proxy minus p50 straight to the remote), startup (spawn
# to initialized, median of five), peak RSS (VmHWM) and the proxy's CPU per
# call. It prints a table and asserts nothing; it is not part of
# scripts/test.
#
#   scripts/bridge-bench.sh          # 3000 calls per route
#   CALLS=10000 scripts/bridge-bench.sh
#
# mcp-remote is installed, pinned, into the gitignored .tools/ and run with
# the Node 22 that scripts/conformance.sh installs there (a system node >= 22
# is used instead when there is one). Needs go, npm and the npm registry on
# first run.
set -euo pipefail

MCP_REMOTE_VERSION=0.15.1
CALLS=${CALLS:-3000}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=$ROOT/.tools
cd "$ROOT"
export PATH="/usr/local/go/bin:$PATH"
exec </dev/null

log() { printf '==> %s\n' "$*" >&2; }
die() {
  printf 'bridge-bench.sh: %s\n' "$*" >&2
  exit 1
}

# shellcheck source=scripts/node.sh
source "$ROOT/scripts/node.sh"

find_mcp_remote() {
  local dir=$TOOLS/mcp-remote-$MCP_REMOTE_VERSION
  PROXY=$dir/node_modules/mcp-remote/dist/proxy.js
  if [[ ! -f $PROXY ]]; then
    command -v npm >/dev/null || die "npm is needed to install mcp-remote"
    log "installing mcp-remote@$MCP_REMOTE_VERSION into ${dir#"$ROOT"/}"
    rm -rf "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error \
      "mcp-remote@$MCP_REMOTE_VERSION" >&2
    [[ -f $PROXY ]] || die "mcp-remote@$MCP_REMOTE_VERSION did not provide $PROXY"
  fi
}

find_node
find_mcp_remote

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-bridge-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
log "building cairn"
go build -o "$work/cairn" ./cmd/cairn

log "measuring: direct, cairn bridge, mcp-remote ($CALLS calls each, after warm-up)"
CAIRN_BIN="$work/cairn" CAIRN_MCP_REMOTE="$NODE $PROXY" \
  go test -count=1 -run '^$' -bench '^BenchmarkBridge$' -benchtime "${CALLS}x" ./internal/e2e/ | tee "$work/out.txt" >&2

# Benchmark lines carry "value unit" pairs; print one row per route.
awk '
  /^BenchmarkBridge\// {
    name = $1; sub(/^BenchmarkBridge\//, "", name); sub(/-[0-9]+$/, "", name)
    for (i = 3; i < NF; i += 2) v[name, $(i + 1)] = $i
    order[++n] = name
  }
  END {
    base = v["direct", "p50-µs"]
    printf "\n%-14s %10s %12s %10s %10s %13s %13s\n", "route", "p50 µs", "added p50", "p90 µs", "start ms", "peak RSS MB", "CPU µs/call"
    for (k = 1; k <= n; k++) {
      r = order[k]
      added = (r == "direct") ? "-" : sprintf("%+.2f ms", (v[r, "p50-µs"] - base) / 1000)
      printf "%-14s %10.0f %12s %10.0f %10s %13s %13s\n", r, v[r, "p50-µs"], added, v[r, "p90-µs"],
        (v[r, "start-ms"] == "" ? "-" : sprintf("%.1f", v[r, "start-ms"])),
        (v[r, "peak-RSS-MB"] == "" ? "-" : sprintf("%.1f", v[r, "peak-RSS-MB"])),
        (v[r, "cpu-µs/call"] == "" ? "-" : sprintf("%.0f", v[r, "cpu-µs/call"]))
    }
    print "\ntargets for cairn bridge: at most +0.3 ms per call, 20 ms to start, 25 MB"
  }' "$work/out.txt"
