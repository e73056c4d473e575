#!/usr/bin/env bash
# Checks that docs/architecture.md names only what exists: one line per name that does not, exit 1.
# No build needed; it reads the doc, Package.swift and the file tree (well under a second).
#   scripts/check-architecture.sh              the repository's doc
#   DOC=/tmp/edited.md scripts/check-architecture.sh      another copy of the doc (ROOT=… another tree)
#
# What counts as a name (picked so that prose never matches):
# - In the first fenced block under "## Targets" (the tree):
#   a line starting with `Sources/NAME` names a target: Package.swift declares `name: "NAME"` and the folder
#   exists; a line starting with `Tests/` or `Examples/` names that folder. Until the next such line, every
#   `Word/` is a folder somewhere under it and every `Word/name.ext` a file under it.
# - In every fenced block (the tree and the diagrams): every word that starts with a capital and has another
#   capital and a lower-case letter, without `_` (`ItemSwitch`, `HLSSession`, `MPVError`); words with one
#   capital are prose there (`Scene`, `Swift`).
#   `+Word` (no space) is a concern file: some `*+Word.swift` exists.
# - Outside fenced blocks, in backticks only: the leading identifier of a span when it starts with a capital,
#   has a lower-case letter and no `_` (`SoundOutput.reclaim` → SoundOutput, `Loop()` → Loop; not
#   `CLOCK_MONOTONIC` or `SDL_RenderCopyEx`, C's names); a span `Type+Concern` is the file Type+Concern.swift,
#   a span `Name.swift` (or .md, .sh) a file at the top or a Swift file anywhere.
# - Anywhere: a path starting with Sources/, Tests/, Examples/, scripts/ or docs/ exists.
# A CamelCase name exists when it is a Swift type (struct, class, enum, protocol, actor, typealias) declared
# in Sources, Tests or Examples, a file's name there (without `.swift`), a folder's, or a target's; names that
# belong to others (FFmpeg's, Swift's, SwiftPM's) are in `foreign` below. A doc in which nothing is found
# fails too: the rules would then be checking nothing.
set -euo pipefail
root=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
doc=${DOC:-$root/docs/architecture.md}
shown=${doc#"$root/"}
[[ -r $doc ]] || { echo "$shown: cannot read" >&2; exit 1; }
cd "$root"

foreign=(FFmpeg AVFormatContext AVCodecContext AVFilterGraph AVIOContext SwiftPM DocC MiB Mutex Sendable Atomic Synchronization
         AsyncStream AsyncStreams)

declare -A known=() folders=() concerns=() files=() targets=()
for name in "${foreign[@]}"; do known[$name]=1; done
while read -r name; do targets[$name]=1; known[$name]=1; done \
  < <(grep -oE '\bname: "[^"]+"' Package.swift | sed -E 's/name: "(.*)"/\1/')
while read -r name; do known[$name]=1; done \
  < <(grep -rhoE --include='*.swift' '\b(struct|class|enum|protocol|actor|typealias)[[:space:]]+[A-Za-z][A-Za-z0-9]*' \
        Sources Tests Examples | awk '{print $2}' | sort -u)
while read -r path; do
  base=${path##*/} stem=${base%.swift}
  files[$stem]=1 known[$stem]=1 known[${stem%%+*}]=1
  [[ $stem == *+* ]] && concerns[${stem#*+}]=1
done < <(find Sources Tests Examples -name '*.swift')
# A folder is known under each of its ancestors: key "ancestor|name".
while read -r path; do
  base=${path##*/} known[$base]=1 up=$path
  while [[ $up == */* ]]; do up=${up%/*}; folders["$up|$base"]=1; done
done < <(find Sources Tests Examples -mindepth 1 -type d)

# kind, line, name, root (for folders and relative paths), one per line.
extract() {
  awk '
    function words(text, kind,    rest) {
      rest = text
      while (match(rest, /[A-Za-z0-9_]+/)) {
        w = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
        if (w ~ /^[A-Z][A-Za-z0-9]*[A-Z]/ && w !~ /_/ && w ~ /[a-z]/) print kind "\t" NR "\t" w "\t-"
      }
    }
    function paths(text,    rest, p) {
      rest = text
      while (match(rest, /(^|[^A-Za-z0-9_.\/-])(Sources|Tests|Examples|scripts|docs)\/[A-Za-z0-9_.+\/-]*[A-Za-z0-9]/)) {
        p = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
        sub(/^[^A-Za-z]/, "", p); print "path\t" NR "\t" p "\t-"
      }
    }
    /^## / { section = $0 }
    /^```/ {
      fence = !fence
      if (fence && section ~ /^## Targets/ && !treeDone) tree = 1
      if (!fence && tree) { tree = 0; treeDone = 1 }
      next
    }
    {
      paths($0)
      if (fence) {
        line = $0
        if (tree) {
          if (match(line, /^(Sources\/[A-Za-z0-9_]+|Tests\/|Examples\/)/)) {
            top = substr(line, 1, RLENGTH); sub(/\/$/, "", top)
            if (top ~ /^Sources\//) print "target\t" NR "\t" substr(top, 9) "\t-"
            line = substr(line, RLENGTH + 1)
          }
          rest = line
          while (match(rest, /(^|[^A-Za-z0-9_.\/-])[A-Za-z][A-Za-z0-9_.+-]*\/[A-Za-z0-9_.+\/-]*/)) {
            p = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
            sub(/^[^A-Za-z]/, "", p)
            if (p ~ /^(Sources|Tests|Examples|scripts|docs)\//) continue
            if (p ~ /\/$/) print "folder\t" NR "\t" substr(p, 1, length(p) - 1) "\t" top
            else if (p ~ /\/[^\/]+\.[a-z0-9]+$/) print "path\t" NR "\t" top "/" p "\t-"
          }
        }
        rest = line
        while (match(rest, /\+[A-Z][A-Za-z0-9]*/)) {
          print "concern\t" NR "\t" substr(rest, RSTART + 1, RLENGTH - 1) "\t-"; rest = substr(rest, RSTART + RLENGTH)
        }
        words(line, "name")
        next
      }
      rest = $0
      while (match(rest, /`[^`]+`/)) {
        span = substr(rest, RSTART + 1, RLENGTH - 2); rest = substr(rest, RSTART + RLENGTH)
        if (span ~ /^[A-Z][A-Za-z0-9]*\+[A-Z][A-Za-z0-9]*$/) { print "file\t" NR "\t" span "\t-"; continue }
        if (span ~ /^[A-Za-z0-9_+]+\.(swift|md|sh)$/) { print "named\t" NR "\t" span "\t-"; continue }
        if (span ~ /\//) continue
        if (match(span, /^[A-Z][A-Za-z0-9_]*/)) {
          w = substr(span, 1, RLENGTH)
          if (w !~ /_/ && w ~ /[a-z]/) print "name\t" NR "\t" w "\t-"
        }
      }
    }
  ' "$doc"
}

checked=0 problems=0
while IFS=$'\t' read -r kind line name under; do
  checked=$((checked + 1)) problem=
  case $kind in
    target) [[ -n ${targets[$name]:-} && -d Sources/$name ]] || problem="target $name: not in Package.swift or no Sources/$name" ;;
    folder) [[ -n ${folders["$under|$name"]:-} ]] || problem="folder $name/: none under $under" ;;
    path) [[ -e $name ]] || problem="$name: no such file or folder" ;;
    concern) [[ -n ${concerns[$name]:-} ]] || problem="+$name: no *+$name.swift" ;;
    file) [[ -n ${files[$name]:-} ]] || problem="$name.swift: no such file" ;;
    named) [[ -e $name || -n ${files[${name%.swift}]:-} ]] || problem="$name: no such file" ;;
    name) [[ -n ${known[$name]:-} ]] || problem="$name: no such type, file, folder or target" ;;
  esac
  if [[ -n $problem ]]; then echo "$shown:$line: $problem"; problems=$((problems + 1)); fi
done < <(extract)

if ((checked == 0)); then echo "$shown: no target, folder, file or type name found: nothing checked"; exit 1; fi
((problems == 0)) || exit 1
echo "$shown: $checked names checked"
