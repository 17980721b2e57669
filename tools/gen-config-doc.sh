#!/usr/bin/env bash
# Regenerate docs/CONFIGURATION.md from `gshmem-info --markdown` (the GSHMEM_* table in src/base/params.def).
#   tools/gen-config-doc.sh [--check] [path/to/gshmem-info]
# --check: change nothing; exit 1 with a diff when the committed doc differs from the generated one (a ctest).
# Without a path, uses gshmem-info from $BUILD_DIR (default build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"

check=0
if [[ "${1:-}" == "--check" ]]; then check=1; shift; fi
info="${1:-}"
if [[ -z "$info" ]]; then
  info=$(find "$BUILD_DIR" -name gshmem-info -type f -perm -u+x 2>/dev/null | head -n 1)
  [[ -n "$info" ]] || { echo "gen-config-doc: no gshmem-info under $BUILD_DIR; run scripts/build.sh first" >&2; exit 1; }
fi
doc="$GSHMEM_ROOT/docs/CONFIGURATION.md"

generated=$(mktemp)
trap 'rm -f "$generated"' EXIT
"$info" --markdown >"$generated"

if [[ $check -eq 1 ]]; then
  if ! diff -u "$doc" "$generated"; then
    echo "gen-config-doc: docs/CONFIGURATION.md is out of date with src/base/params.def;" \
         "run tools/gen-config-doc.sh and commit the result" >&2
    exit 1
  fi
  echo "gen-config-doc: docs/CONFIGURATION.md is up to date"
else
  cp "$generated" "$doc"
  echo "gen-config-doc: wrote $doc"
fi
