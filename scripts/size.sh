#!/usr/bin/env bash
# What each hands validator adds to the binary: builds the release binary
# (-trimpath -ldflags='-s -w') of the committed tree as it is, then once
# without each validator named (taken out of hands.Checkers), and prints
# the size and what leaving each out saves. It changes nothing here: each
# build is of a copy in a temporary directory. docs/footprint.md has the
# numbers and what the rest of the binary is.
#
#   scripts/size.sh                   # every validator, one at a time (a few minutes)
#   scripts/size.sh sql a11y          # only these
#
# Validators are named as the hands name them (hands.Kinds): mermaid,
# openapi, sql, tests, dockerfile, i18n, designtokens, a11y, perf, secrets.
set -euo pipefail

cd "$(dirname "$0")/.."
checks=("$@")
[[ ${#checks[@]} -gt 0 ]] || checks=(sql a11y openapi mermaid dockerfile perf tests i18n designtokens secrets)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() { # build DIR OUT
  (cd "$1" && go build -trimpath -ldflags='-s -w' -o "$2" ./cmd/cairn)
  stat -c %s "$2"
}

git archive HEAD | tar xf - -C "$work" --one-top-level=base
full=$(build "$work/base" "$work/cairn")
awk -v f="$full" 'BEGIN { printf "binary                 %6.2f MB\n", f / 1e6 }'
for c in "${checks[@]}"; do
  dir="$work/no-$c"
  cp -a "$work/base" "$dir"
  hands="$dir/internal/service/hands/hands.go"
  case $c in
    sql) alias=sqlcheck ;;
    tests) alias=testcheck ;;
    *) alias=$c ;;
  esac
  # Drop the import and the constructor; WarmUp warms the SQL check only.
  grep -v "\"github.com/cairn-dev/cairn/internal/check/$c\"\$" "$hands" >"$hands.new" && mv "$hands.new" "$hands"
  sed -i -E "s/\\b$alias\\.New\\(\\),[[:space:]]*//; s/,[[:space:]]*$alias\\.New\\(\\)//" "$hands"
  [[ $c == sql ]] && sed -i 's/^func WarmUp() { sqlcheck.WarmUp() }/func WarmUp() {}/' "$hands"
  size=$(build "$dir" "$dir/cairn")
  awk -v c="$c" -v f="$full" -v s="$size" 'BEGIN { printf "without %-14s saves %6.2f MB\n", c, (f - s) / 1e6 }'
  rm -rf "$dir"
done
