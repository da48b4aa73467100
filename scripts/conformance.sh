#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
# against `cairn serve`.
#
# The suite only talks Streamable HTTP, so cairn is reached through the test
# bridge internal/testutil/cmd/stdiobridge, which gives every HTTP session its
# own `cairn serve` child over stdio.
#
# Gating scenarios (any failure exits non-zero) are listed in GATING below:
# every scenario that needs no fixture tools, prompts or resources. The
# HTTP-transport scenarios are run and reported, but do not gate.
#
# Tools are cached, gitignored, in .tools/ (delete it to start over):
#   - Node 22 (the suite imports fs.globSync, new in Node 22) from the npm
#     package node-linux-<arch>, which ships the official node binary; a
#     system node >= 22 is used instead when there is one;
#   - the suite itself, pinned, installed with npm.
# Needs go, npm and the npm registry on first run; works with CI=true and no
# stdin. Set CONFORMANCE_KEEP=1 to keep the work dir (logs, results).
set -euo pipefail

CONFORMANCE_VERSION=0.1.16
NODE_VERSION=22.23.3
SCENARIO_TIMEOUT=60 # seconds, per scenario

# Cairn runs with every toolset, so tools, prompts (with completion) and
# the loops' resources (list, templates, subscriptions) are all served.
# resources-(un)subscribe name a fixture URI, but subscribing needs no
# resource to exist, so they hold Cairn to the protocol too.
GATING=(server-initialize ping tools-list prompts-list completion-complete
  resources-list resources-subscribe resources-unsubscribe logging-set-level)
# These test the HTTP transport (the SDK's, in the bridge) rather than Cairn.
EXTRA=(server-sse-polling server-sse-multiple-streams dns-rebinding-protection)

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=$ROOT/.tools
exec </dev/null

log() { printf '==> %s\n' "$*" >&2; }
die() {
  printf 'conformance.sh: %s\n' "$*" >&2
  exit 1
}
strip_ansi() { sed 's/\x1b\[[0-9;]*m//g'; }

# --- Node >= 22 -------------------------------------------------------------

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

find_node() {
  local sys
  if sys=$(command -v node) && (($(node_major "$sys") >= 22)); then
    NODE=$sys
    return
  fi
  local arch
  case $(uname -m) in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no node >= 22 and no node-linux package for $(uname -m)" ;;
  esac
  local dir=$TOOLS/node-$NODE_VERSION
  NODE=$dir/node_modules/node-linux-$arch/bin/node
  if [[ ! -x $NODE ]] || (($(node_major "$NODE") < 22)); then
    command -v npm >/dev/null || die "npm is needed to install Node $NODE_VERSION"
    log "installing Node $NODE_VERSION (npm package node-linux-$arch) into ${dir#"$ROOT"/}"
    rm -rf "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-$arch@$NODE_VERSION" >&2
    [[ -x $NODE ]] || die "node-linux-$arch@$NODE_VERSION did not provide $NODE"
  fi
}

# --- the suite --------------------------------------------------------------

find_suite() {
  local dir=$TOOLS/conformance-$CONFORMANCE_VERSION
  local pkg=$dir/node_modules/@modelcontextprotocol/conformance
  SUITE=$pkg/dist/index.js
  if [[ ! -f $SUITE ]] ||
    [[ $("$NODE" -p "require('$pkg/package.json').version" 2>/dev/null) != "$CONFORMANCE_VERSION" ]]; then
    command -v npm >/dev/null || die "npm is needed to install the conformance suite"
    log "installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION into ${dir#"$ROOT"/}"
    rm -rf "$dir"
    # npm runs under the system node; the suite runs under $NODE.
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error --engine-strict=false \
      "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >&2
    [[ -f $SUITE ]] || die "the conformance package has no $SUITE"
  fi
}

# --- run ----------------------------------------------------------------------

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cairn-conformance.XXXXXX")
BRIDGE_PID=
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
  local rc=$?
  if [[ -n $BRIDGE_PID ]] && kill -0 "$BRIDGE_PID" 2>/dev/null; then
    kill -TERM "$BRIDGE_PID" 2>/dev/null || true
    # The bridge closes its cairn children on SIGTERM; give it a few seconds.
    for _ in $(seq 50); do
      kill -0 "$BRIDGE_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$BRIDGE_PID" 2>/dev/null || true
    wait "$BRIDGE_PID" 2>/dev/null || true
  fi
  if [[ ${CONFORMANCE_KEEP:-} == 1 ]]; then
    log "kept $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

START=$SECONDS
find_node
find_suite
log "node $("$NODE" --version) ($NODE), conformance $CONFORMANCE_VERSION"

log "building cairn and stdiobridge"
(cd "$ROOT" && go build -o "$WORK/cairn" ./cmd/cairn && go build -o "$WORK/stdiobridge" ./internal/testutil/cmd/stdiobridge)

mkdir -p "$WORK/project/.cairn"
# A developer's CAIRN_* settings must not change what the suite sees.
while IFS= read -r v; do unset "$v"; done < <(compgen -e | grep '^CAIRN_' || true)
export CAIRN_PROJECT_ROOT=$WORK/project

"$WORK/stdiobridge" -listen 127.0.0.1:0 -url-file "$WORK/url" -- "$WORK/cairn" serve --toolsets all \
  >"$WORK/bridge.log" 2>&1 &
BRIDGE_PID=$!
for _ in $(seq 100); do
  [[ -s $WORK/url ]] && break
  kill -0 "$BRIDGE_PID" 2>/dev/null || { cat "$WORK/bridge.log" >&2; die "the bridge exited"; }
  sleep 0.1
done
[[ -s $WORK/url ]] || { cat "$WORK/bridge.log" >&2; die "the bridge did not start within 10s"; }
URL=$(<"$WORK/url")
log "bridge on $URL"

PATH=$(dirname "$NODE"):$PATH # for anything the suite starts
export PATH
declare -A RESULT SUMMARY
run_scenario() {
  local s=$1 out=$WORK/$1.out rc=0
  timeout "$SCENARIO_TIMEOUT" "$NODE" "$SUITE" server --url "$URL" --scenario "$s" \
    -o "$WORK/results" >"$out" 2>&1 || rc=$?
  SUMMARY[$s]=$(strip_ansi <"$out" | grep -m1 -E '^(Passed|Total):' || true)
  if ((rc == 0)); then
    RESULT[$s]=PASS
  else
    RESULT[$s]=FAIL
    if ((rc == 124)); then SUMMARY[$s]="timed out after ${SCENARIO_TIMEOUT}s"; fi
  fi
}

for s in "${GATING[@]}" "${EXTRA[@]}"; do
  log "scenario $s"
  run_scenario "$s"
done

# --- report -------------------------------------------------------------------

failed=0
for s in "${GATING[@]}" "${EXTRA[@]}"; do
  [[ ${RESULT[$s]} == PASS ]] && continue
  printf '\n----- %s: suite output -----\n' "$s"
  # Everything up to the failed checks, without the scenario's long description.
  strip_ansi <"$WORK/$s.out" | awk '/=== Failed Checks ===/ { f = 1; print; next } f && /^[^ ]/ { exit } { print }' | tail -40
done

printf '\nMCP conformance %s against cairn serve (via stdiobridge), %ss\n' "$CONFORMANCE_VERSION" $((SECONDS - START))
g_pass=0 g_fail=0 x_pass=0 x_fail=0
for s in "${GATING[@]}"; do
  printf '  %-4s %-30s required       %s\n' "${RESULT[$s]}" "$s" "${SUMMARY[$s]}"
  if [[ ${RESULT[$s]} == PASS ]]; then ((++g_pass)); else ((++g_fail)); fi
done
for s in "${EXTRA[@]}"; do
  printf '  %-4s %-30s informational  %s\n' "${RESULT[$s]}" "$s" "${SUMMARY[$s]}"
  if [[ ${RESULT[$s]} == PASS ]]; then ((++x_pass)); else ((++x_fail)); fi
done
printf 'informational: %d passed, %d failed (not gating)\n' "$x_pass" "$x_fail"
if ((g_fail > 0)); then
  printf '\nbridge log (tail):\n' >&2
  tail -30 "$WORK/bridge.log" >&2
  failed=1
fi
printf 'conformance: %d passed, %d failed\n' "$g_pass" "$g_fail"
exit "$failed"
