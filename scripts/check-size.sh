#!/usr/bin/env bash
# Checks the two sizes the architecture promises (docs/architecture.md): the library's public surface
# stays within its budget, and no type's file with its extension files (Type.swift + every
# Type+*.swift under Sources) is over 800 lines. One line per excess, exit 1. No build needed.
#   scripts/check-size.sh                 the repository (ROOT=… another tree)
set -euo pipefail
root=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
public_budget=650 type_lines=800
targets=(LoopPlayer LoopPlayerCore LoopPlayerMedia LoopPlayerOutput Overlay Filters FFmpegSupport LoopPlayerIPC LoopPlayerMetrics)
shopt -s nullglob
status=0
public=$(grep -rhE '^\s*(public|open) ' "${targets[@]/#/Sources/}" | wc -l)
if ((public == 0)); then
  echo "check-size: no public declaration found under Sources: nothing was checked" >&2; exit 1
fi
if ((public > public_budget)); then
  echo "public surface: $public declaration lines, over the budget of $public_budget" >&2; status=1
fi
checked=0
while read -r file; do
  # Its extension files anywhere under Sources (an extension may live in another target's folder).
  base=$(basename "$file" .swift)
  mapfile -t parts < <(printf '%s\n' "$file"; find Sources -name "$base+*.swift")
  lines=$(cat "${parts[@]}" | wc -l)
  checked=$((checked + 1))
  if ((lines > type_lines)); then
    echo "${file#Sources/}: $lines lines with its extensions, over $type_lines" >&2; status=1
  fi
done < <(find Sources -name '*.swift' ! -name '*+*')
((checked > 0)) || { echo "check-size: no Swift file under Sources" >&2; exit 1; }
exit "$status"
