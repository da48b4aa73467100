#!/usr/bin/env bash
# Real files nobody here wrote, for the hands validators' corpus tests:
# the npm packages each check lists in internal/check/*/testdata/corpus.txt
# (one "name@version" a line), installed once into .tools/corpus/ (gitignored).
# Prints `export CAIRN_CORPUS_DIR=...` for eval; the tests read
# $CAIRN_CORPUS_DIR/node_modules/<name>/ and skip without it (but fail under
# CI=true). Needs npm and the npm registry on first run.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=$ROOT/.tools/corpus
exec </dev/null

mapfile -t pkgs < <(cat "$ROOT"/internal/check/*/testdata/corpus.txt 2>/dev/null | sed 's/#.*//' | awk 'NF' | sort -u)
if ((${#pkgs[@]} == 0)); then
  exit 0
fi
want=$(printf '%s\n' "${pkgs[@]}")
if [[ ! -f $DIR/installed.txt ]] || [[ $(cat "$DIR/installed.txt") != "$want" ]]; then
  command -v npm >/dev/null || { echo "corpus.sh: npm is needed to install the validators' corpus" >&2; exit 1; }
  echo "==> installing the validators' corpus (${#pkgs[@]} npm packages) into .tools/corpus" >&2
  rm -rf "$DIR"
  mkdir -p "$DIR"
  # --ignore-scripts: these are files to read, never code to run.
  # --legacy-peer-deps: packages of unrelated checks may want different
  # peers (react 18 and 19); they are read, never run together.
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --ignore-scripts --legacy-peer-deps --loglevel=error "${pkgs[@]}" >&2
  printf '%s\n' "$want" >"$DIR/installed.txt"
fi
echo "export CAIRN_CORPUS_DIR=$DIR"
