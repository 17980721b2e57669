#!/bin/bash
# docs/SCALING.md's generated part (between the scale-model markers) must equal what
#   gshmem-scale-model --rmem-default 212992 --fd-limit 1024
# prints with no GSHMEM_* variable set. With --update, rewrite that part instead.
# Usage: check-doc.sh <gshmem-scale-model> <docs/SCALING.md> [--update]. Exit 77 (skipped) for a tool built without
# UCX, whose tables lack the UCX rows the document shows.
set -u
tool=$1 doc=$2 mode=${3:-}
begin='<!-- scale-model:begin -->' end='<!-- scale-model:end -->'
gen=$(env -i PATH="$PATH" "$tool" --rmem-default 212992 --fd-limit 1024) || { echo "FAIL: the tool failed"; exit 1; }
if grep -q 'not in this build' <<<"$gen"; then echo "skipped: gshmem-scale-model was built without UCX"; exit 77; fi
if [ "$mode" = --update ]; then
  tmp=$(mktemp) gtmp=$(mktemp)
  printf '%s\n' "$gen" >"$gtmp"
  awk -v b="$begin" -v e="$end" -v gf="$gtmp" '
    $0 == b { print; while ((getline l < gf) > 0) print l; skip = 1; next }
    $0 == e { skip = 0 }
    !skip' "$doc" >"$tmp" && cat "$tmp" >"$doc"
  rm -f "$tmp" "$gtmp"
  exit 0
fi
have=$(awk -v b="$begin" -v e="$end" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' "$doc")
if [ "$have" != "$gen" ]; then
  diff <(echo "$have") <(echo "$gen") | head -40
  echo "FAIL: $doc is out of date: run tools/scale/check-doc.sh <gshmem-scale-model> $doc --update"
  exit 1
fi
echo "docs/SCALING.md matches gshmem-scale-model"
