#!/usr/bin/env bash
# Load test over Streamable HTTP: builds cairn and cairn-load, serves a new
# SQLite project with `cairn serve --http 127.0.0.1:<free port>`, seeds a
# 1,000-task plan and runs closed-loop agents (one MCP session and agent id
# each, the official Go SDK client) at 1, 16 and 64 clients, printing calls/s,
# p50/p90/p99/max per tool, errors, and the server's CPU per call and RSS.
# Then the same on PostgreSQL when CAIRN_DATABASE_URL is set, or else on a
# throwaway server from scripts/pg.sh (tuned for tests: no fsync) if the
# script is there and can start one.
# It prints numbers and asserts none, except that no call may fail.
#
#   scripts/load.sh
#   CLIENTS=16 DURATION=30s scripts/load.sh
#   CAIRN_DATABASE_URL=postgres://... scripts/load.sh   # use a throwaway database
#
# Settings (env): CLIENTS (1,16,64), DURATION (10s), WARMUP (2s), SEED (1000
# tasks), MIX (cairn-load's default), JSON=1 (JSON, not tables), LOAD_DIR
# (keep binaries, projects and server logs there), CAIRN_BIN (a cairn binary
# to use instead of building one). CAIRN_TOKEN, if set, is the bearer token:
# the server gets it as CAIRN_TOKENS=$CAIRN_TOKEN:*:rw.
#
# Profiling the server (developers): PROFILE=1 (best with LOAD_DIR) has each
# server write cpu-LABEL.prof and mem-LABEL.prof there, of the levels after
# seeding (CAIRN_CPUPROFILE and CAIRN_MEMPROFILE; SIGUSR1 starts them over).
#   go tool pprof -top DIR/cairn DIR/cpu-sqlite.prof
#   go tool pprof -sample_index=alloc_space -base DIR/mem-sqlite.prof.start DIR/cairn DIR/mem-sqlite.prof
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
command -v go >/dev/null || { echo "scripts/load.sh: Go is required, expected at /usr/local/go" >&2; exit 1; }

server_pid="" pg_dir="" keep=""
out="${LOAD_DIR:-}"
if [[ -z "$out" ]]; then
	out="$(mktemp -d "${TMPDIR:-/tmp}/cairn-load.XXXXXX")"
else
	mkdir -p "$out"
	keep=1
fi
stop_server() {
	if [[ -n "$server_pid" ]]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
		server_pid=""
	fi
}
cleanup() {
	stop_server
	[[ -z "$pg_dir" ]] || scripts/pg.sh stop "$pg_dir" || true
	[[ -n "$keep" ]] || rm -rf "$out"
}
trap cleanup EXIT

# free_port prints a loopback port nothing listens on, below the kernel's
# ephemeral range: a port in that range may be the local end of one of the
# load's own connections, which nothing listens on but bind still refuses.
free_port() {
	local p lo=32768
	[[ -r /proc/sys/net/ipv4/ip_local_port_range ]] && read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
	((lo > 11000)) || lo=32768
	for _ in $(seq 1 200); do
		p=$((10000 + RANDOM % (lo - 10000)))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	echo "scripts/load.sh: no free port found" >&2
	return 1
}

echo "== build"
cairn="${CAIRN_BIN:-$out/cairn}"
[[ -n "${CAIRN_BIN:-}" ]] || go build -o "$cairn" ./cmd/cairn
go build -o "$out/cairn-load" ./cmd/cairn-load
help="$("$cairn" serve --help 2>&1 || true)"
if [[ "$help" != *--http* ]]; then
	echo "scripts/load.sh: this cairn has no \`serve --http\`; nothing to load (try: go run ./cmd/cairn-load -inproc)" >&2
	exit 1
fi

args=(-clients "${CLIENTS:-1,16,64}" -duration "${DURATION:-10s}" -warmup "${WARMUP:-2s}" -seed "${SEED:-1000}" -wait 30s)
[[ -n "${MIX:-}" ]] && args+=(-mix "$MIX")
[[ -n "${JSON:-}" ]] && args+=(-json)
token_env=()
[[ -n "${CAIRN_TOKEN:-}" ]] && token_env=(CAIRN_TOKENS="$CAIRN_TOKEN:*:rw")

# run LABEL [ENV=VALUE...]: serve a new project with the given environment
# and put it under load.
run() {
	local label="$1"
	shift
	local project="$out/project-$label" port
	rm -rf "$project"
	mkdir -p "$project"
	port="$(free_port)"
	echo "== $label: cairn serve --http 127.0.0.1:$port"
	local prof=() log=(-log-level warn)
	if [[ -n "${PROFILE:-}" ]]; then
		prof=(CAIRN_CPUPROFILE="$out/cpu-$label.prof" CAIRN_MEMPROFILE="$out/mem-$label.prof")
		log=(-log-level info) # says when the plan is seeded
	fi
	env CAIRN_PROJECT_ROOT="$project" "$@" "${prof[@]}" "$cairn" serve --http "127.0.0.1:$port" 2>"$out/server-$label.log" &
	server_pid=$!
	local rc=0
	if [[ -n "${PROFILE:-}" ]]; then
		# Profile the levels, not the seeding: start the profiles over once seeded.
		(
			for _ in $(seq 1 6000); do
				grep -q "seeded the plan" "$out/load-$label.err" 2>/dev/null && break
				sleep 0.1
			done
			kill -USR1 "$server_pid" 2>/dev/null || true
		) &
	fi
	"$out/cairn-load" -url "http://127.0.0.1:$port/mcp" -server-pid "$server_pid" -label "$label" "${log[@]}" "${args[@]}" 2> >(tee "$out/load-$label.err" >&2) |
		tee "$out/load-$label.txt" || rc=$?
	if ! kill -0 "$server_pid" 2>/dev/null; then
		echo "scripts/load.sh: the $label server exited; its log:" >&2
		cat "$out/server-$label.log" >&2
		rc=1
	fi
	stop_server
	if [[ "$label" == postgres && -e "$project/.cairn/cairn.db" ]]; then
		echo "scripts/load.sh: this cairn ignored CAIRN_DATABASE_URL and served SQLite; the postgres numbers above are not PostgreSQL's" >&2
		rc=1
	fi
	return "$rc"
}

status=0
# The embedded store: the environment must not point the server elsewhere.
run sqlite CAIRN_DATABASE_URL= "${token_env[@]}" || status=1

pg_url="${CAIRN_DATABASE_URL:-}"
if [[ -z "$pg_url" && -x scripts/pg.sh ]]; then
	if assignments="$(scripts/pg.sh start)"; then
		eval "$assignments"
		pg_url="$CAIRN_TEST_DATABASE_URL" pg_dir="$CAIRN_PG_DIR"
		echo "== postgres: a throwaway server from scripts/pg.sh (no fsync: an upper bound)"
	else
		echo "== postgres: scripts/pg.sh could not start a server" >&2
		status=1
	fi
fi
if [[ -n "$pg_url" ]]; then
	# A project name of its own, so a shared database keeps runs apart.
	run postgres CAIRN_DATABASE_URL="$pg_url" CAIRN_PROJECT="load-$(date +%s)" "${token_env[@]}" || status=1
elif [[ ! -x scripts/pg.sh ]]; then
	echo "== postgres: skipped (set CAIRN_DATABASE_URL to a throwaway database)"
fi
if [[ -z "${JSON:-}" ]]; then
	echo "== summary (target: 2,000 calls/s at 16 clients on 2 cores)"
	printf '%-9s %7s %8s %6s %8s %8s %8s %8s %9s %13s %8s\n' store clients calls errors calls/s p50_ms p90_ms p99_ms max_ms cpu_µs/call rss_MiB
	for f in "$out"/load-*.txt; do
		[[ -e "$f" ]] || continue
		label="$(basename "$f" .txt)"
		awk -v store="${label#load-}" '$2 == "all" {
			printf "%-9s %7s %8s %6s %8s %8s %8s %8s %9s %13s %8s\n", store, $1, $3, $4, $5, $6, $7, $8, $9, $10, $11 }' "$f"
	done
	for f in "$out"/load-*.txt; do
		[[ -e "$f" ]] || continue
		label="$(basename "$f" .txt)"
		sed -n "s/^host load/${label#load-}: host load/p" "$f"
	done
fi
exit "$status"
