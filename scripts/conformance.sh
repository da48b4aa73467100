#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
# against `cairn serve --http` (Streamable HTTP, on a loopback port), first
# stateful (sessions, SSE streams), then stateless with JSON responses.
#
# Every scenario that needs no fixture tools, prompts or resources gates (any
# failure exits non-zero): GATING below, the HTTP transport's own scenarios
# (DNS rebinding protection, SSE polling, multiple SSE streams) included.
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
SCENARIO_TIMEOUT=60 # seconds, per scenario

# Cairn runs with every toolset, so tools, prompts (with completion) and
# the loops' resources (list, templates, subscriptions) are all served.
# resources-(un)subscribe are left out: they subscribe to the suite's
# fixture URI, and Cairn accepts subscriptions only to loops that exist (a
# session subscribing to anything held unbounded memory: issue 34, attack
# 7). Subscribing and unsubscribing on real loops is tested end to end
# (TestLoopSubscription, TestLoopSubscriptionsBounded).
GATING=(server-initialize ping tools-list prompts-list completion-complete
  resources-list logging-set-level
  server-sse-polling server-sse-multiple-streams dns-rebinding-protection)
# logging-set-level: Cairn declares no logging capability (MCP logging is
# deprecated, SEP-2577; its log goes to stderr), but the SDK still answers
# logging/setLevel with {}, and the suite's client sends it regardless, so
# the scenario holds Cairn to that answer.
# Stateless with JSON responses: every request stands alone, so the scenarios
# that need a session (subscriptions, SSE streams) do not apply.
STATELESS=(server-initialize ping tools-list prompts-list completion-complete
  resources-list logging-set-level dns-rebinding-protection)

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

# shellcheck source=scripts/node.sh
source "$ROOT/scripts/node.sh"

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
SERVER_PID=
stop_server() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    # SIGTERM drains calls in flight; give it a few seconds.
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=
}
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
  local rc=$?
  stop_server
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

log "building cairn"
(cd "$ROOT" && go build -o "$WORK/cairn" ./cmd/cairn)

mkdir -p "$WORK/project/.cairn"
# A developer's CAIRN_* settings must not change what the suite sees.
while IFS= read -r v; do unset "$v"; done < <(compgen -e | grep '^CAIRN_' || true)
export CAIRN_PROJECT_ROOT=$WORK/project

# start_server LOG ARGS...: runs cairn serve --http on a free loopback port
# and sets URL from the address it logs.
start_server() {
  local logf=$1
  shift
  "$WORK/cairn" serve --http 127.0.0.1:0 --toolsets all "$@" >"$logf" 2>&1 &
  SERVER_PID=$!
  URL=
  for _ in $(seq 100); do
    URL=$(grep -o -m1 'url=http://[^ ]*' "$logf" | cut -d= -f2- || true)
    [[ -n $URL ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$logf" >&2; die "cairn serve --http exited"; }
    sleep 0.1
  done
  [[ -n $URL ]] || { cat "$logf" >&2; die "cairn serve --http did not start within 10s"; }
  log "cairn serve --http $* on $URL"
}

PATH=$(dirname "$NODE"):$PATH # for anything the suite starts
export PATH
declare -A RESULT SUMMARY
ORDER=()
# run_scenario MODE SCENARIO
run_scenario() {
  local mode=$1 s=$2 id="$1/$2" out=$WORK/$1-$2.out rc=0
  ORDER+=("$id")
  timeout "$SCENARIO_TIMEOUT" "$NODE" "$SUITE" server --url "$URL" --scenario "$s" \
    -o "$WORK/results-$mode" >"$out" 2>&1 || rc=$?
  SUMMARY[$id]=$(strip_ansi <"$out" | grep -m1 -E '^(Passed|Total):' || true)
  # A scenario passes only if the suite says so and counts no failed check.
  if ((rc == 0)) && ! grep -qE '[1-9][0-9]* failed' <<<"${SUMMARY[$id]}"; then
    RESULT[$id]=PASS
  else
    RESULT[$id]=FAIL
    if ((rc == 124)); then SUMMARY[$id]="timed out after ${SCENARIO_TIMEOUT}s"; fi
  fi
}

start_server "$WORK/stateful.log"
for s in "${GATING[@]}"; do
  log "scenario $s (stateful)"
  run_scenario stateful "$s"
done
stop_server

start_server "$WORK/stateless.log" --stateless --json-response
for s in "${STATELESS[@]}"; do
  log "scenario $s (stateless, JSON responses)"
  run_scenario stateless "$s"
done
stop_server

# --- report -------------------------------------------------------------------

failed=0
for id in "${ORDER[@]}"; do
  [[ ${RESULT[$id]} == PASS ]] && continue
  printf '\n----- %s: suite output -----\n' "$id"
  # Everything up to the failed checks, without the scenario's long description.
  strip_ansi <"$WORK/${id/\//-}.out" | awk '/=== Failed Checks ===/ { f = 1; print; next } f && /^[^ ]/ { exit } { print }' | tail -40
done

printf '\nMCP conformance %s against cairn serve --http, %ss\n' "$CONFORMANCE_VERSION" $((SECONDS - START))
pass=0 fail=0
for id in "${ORDER[@]}"; do
  printf '  %-4s %-40s %s\n' "${RESULT[$id]}" "$id" "${SUMMARY[$id]}"
  if [[ ${RESULT[$id]} == PASS ]]; then ((++pass)); else ((++fail)); fi
done
if ((fail > 0)); then
  for m in stateful stateless; do
    printf '\nserver log, %s (tail):\n' "$m" >&2
    tail -30 "$WORK/$m.log" >&2
  done
  failed=1
fi
printf 'conformance: %d passed, %d failed\n' "$pass" "$fail"
exit "$failed"
