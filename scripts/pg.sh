#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests.
#
#   eval "$(scripts/pg.sh start)"   # sets CAIRN_TEST_DATABASE_URL and CAIRN_PG_DIR
#   scripts/pg.sh stop "$CAIRN_PG_DIR"
#
# start installs Debian's postgresql package with apt-get when initdb and
# pg_ctl are missing, creates a cluster in a new temporary directory (owned by
# the postgres user when run as root, since PostgreSQL refuses to run as root),
# starts it on a free TCP port on 127.0.0.1 with its unix socket in the same
# directory, creates the database cairn_test and prints shell assignments.
# The server is tuned for tests (no fsync): never use it for real data.
# Progress goes to stderr; stdout is only the assignments.
set -euo pipefail

log() { echo "pg.sh: $*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

find_bin() {
  if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return
  fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
    echo "$d"
  fi
}

# run_pg runs a command as the user that owns the cluster.
run_pg() {
  if [ "$(id -u)" != 0 ]; then
    "$@"
  elif command -v runuser >/dev/null; then
    runuser -u postgres -- "$@"
  else
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  fi
}

# free_port prints a loopback port nothing listens on, below the kernel's
# ephemeral range, whose ports may be the local ends of live connections
# (nothing listens on them, but bind refuses them).
free_port() {
  local p lo=32768
  [ -r /proc/sys/net/ipv4/ip_local_port_range ] && read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
  [ "$lo" -gt 11000 ] || lo=32768
  for _ in $(seq 1 50); do
    p=$((10000 + RANDOM % (lo - 10000)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  log "no free port found"; exit 1
}

start() {
  local bin
  bin=$(find_bin)
  if [ -z "$bin" ]; then
    log "initdb/pg_ctl not found: installing Debian's postgresql package"
    as_root apt-get update -qq >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    bin=$(find_bin)
    [ -n "$bin" ] || { log "postgresql installed but initdb/pg_ctl still not found"; exit 1; }
  fi
  local dir user
  # As root the cluster belongs to postgres, which must reach the directory:
  # use /tmp, not a TMPDIR that may be private to root.
  local base=${TMPDIR:-/tmp}
  [ "$(id -u)" = 0 ] && base=/tmp
  dir=$(mktemp -d "$base/cairn-pg.XXXXXX")
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { log "running as root needs the postgres user (install the postgresql package)"; exit 1; }
    chown postgres "$dir"
  fi
  user=cairn
  run_pg "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust --encoding=UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  local port ok=""
  for _ in 1 2 3 4 5; do
    port=$(free_port)
    if run_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" >&2; then
      ok=1
      break
    fi
    log "start on port $port failed; trying another"
  done
  [ -n "$ok" ] || { cat "$dir/server.log" >&2; exit 1; }
  run_pg "$bin/createdb" -h "$dir" -p "$port" -U "$user" cairn_test >&2
  log "PostgreSQL running on 127.0.0.1:$port (data in $dir)"
  echo "CAIRN_TEST_DATABASE_URL='postgres://$user@127.0.0.1:$port/cairn_test?sslmode=disable'"
  echo "CAIRN_PG_DIR='$dir'"
  echo "export CAIRN_TEST_DATABASE_URL CAIRN_PG_DIR"
}

stop() {
  local dir=${1:?usage: pg.sh stop DIR}
  local bin
  bin=$(find_bin)
  [ -d "$dir/data" ] && run_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac
