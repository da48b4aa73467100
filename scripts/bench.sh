#!/usr/bin/env bash
# Measures Cairn end to end over real stdio, with the official Go and
# TypeScript MCP clients, on a project holding 10,000 tasks: cold start,
# p50/p99 of get_current_task and create_new_task, bytes per response,
# server CPU per call and the server's peak RSS; and, with the Go client,
# the plan toolset: a 1,000-task workload (create with dependencies, list,
# query, next, update) and get_next_task on a 10,000-task plan. It prints
# numbers and asserts none.
#
#   scripts/bench.sh            # everything, about a minute
#   scripts/bench.sh --profile  # also CPU and allocation profiles of the
#                               # in-process server benchmarks, with top costs
#
# BENCH_DIR keeps the binary, the seeded project, the raw outputs and the
# profiles (default: a temporary directory, removed unless --profile).
set -euo pipefail

cd "$(dirname "$0")/.."
profile=false
[[ "${1:-}" == "--profile" ]] && profile=true

out="${BENCH_DIR:-}"
if [[ -z "$out" ]]; then
	out="$(mktemp -d "${TMPDIR:-/tmp}/cairn-bench.XXXXXX")"
	$profile || trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

echo "== build"
go build -o "$out/cairn" ./cmd/cairn
go build -o "$out/seed" ./bench/seed

echo "== prepare the 10,000-task project and the 10,000-task plan"
rm -rf "$out/project" "$out/plan"
"$out/seed" "$out/project"
"$out/seed" -plan "$out/plan"

export CAIRN_BIN="$out/cairn" CAIRN_BENCH_PROJECT="$out/project" CAIRN_BENCH_PLAN_PROJECT="$out/plan"

echo "== Go client (go-sdk), real stdio"
go test -run '^$' -bench '^BenchmarkColdStart$' -benchtime 20x ./internal/e2e/ | tee "$out/go.txt"
go test -run '^$' -bench '^Benchmark(GetCurrentTask|CreateNewTask)$' -benchtime 2000x ./internal/e2e/ | tee -a "$out/go.txt"

echo "== plan toolset, Go client (go-sdk), real stdio"
go test -run '^$' -bench '^BenchmarkPlanWorkload$' -benchtime 1x ./internal/e2e/ | tee -a "$out/go.txt"
go test -run '^$' -bench '^BenchmarkPlanNextTask$' -benchtime 2000x ./internal/e2e/ | tee -a "$out/go.txt"

echo "== TypeScript client (@modelcontextprotocol/sdk), real stdio"
if [[ ! -d bench/ts/node_modules/@modelcontextprotocol/sdk ]]; then
	(cd bench/ts && npm ci --no-audit --no-fund --loglevel=error)
fi
node bench/ts/bench.mjs --bin "$out/cairn" --project "$out/project" --json "$out/ts.json"

if $profile; then
	echo "== profiles: the in-process server (StdioTransport on pipes), 5000 calls per tool"
	for tool in get_current_task create_new_task; do
		go test -run '^$' -bench "^BenchmarkServer\$/^$tool\$" -benchtime 5000x \
			-cpuprofile "$out/cpu-$tool.prof" -memprofile "$out/mem-$tool.prof" \
			-o "$out/e2e.test" ./internal/e2e/ | grep '^Benchmark'
		echo "-- $tool: CPU, cumulative"
		go tool pprof -top -cum -nodecount=25 "$out/e2e.test" "$out/cpu-$tool.prof" 2>/dev/null | sed -n '/flat%/,$p'
		echo "-- $tool: allocated bytes, cumulative"
		go tool pprof -sample_index=alloc_space -top -cum -nodecount=15 "$out/e2e.test" "$out/mem-$tool.prof" 2>/dev/null | sed -n '/flat%/,$p'
	done
	echo "== profiles: get_next_task in process on the 10,000-task plan, cached and after a write"
	for b in next next-miss; do
		go test -run '^$' -bench "^BenchmarkPlanInProc\$/^$b\$" -benchtime 300x \
			-cpuprofile "$out/cpu-plan-$b.prof" -o "$out/e2e.test" ./internal/e2e/ | grep '^Benchmark'
		echo "-- get_next_task ($b): CPU, cumulative"
		go tool pprof -top -cum -nodecount=25 "$out/e2e.test" "$out/cpu-plan-$b.prof" 2>/dev/null | sed -n '/flat%/,$p'
	done
	echo "profiles in $out"
fi

echo
echo "== summary (medians of one run; the machine may be shared and noisy)"
node bench/ts/summary.mjs "$out/go.txt" "$out/ts.json"
