#!/usr/bin/env bash
# Builds the tests (and loopplay, which the CLI tests run) with a sanitizer and runs them, one test
# class per process so that a report in one class does not hide the others, then prints a summary.
#
#   scripts/sanitize.sh [address|thread|all] [--fast] [--filter REGEX]   (default: all, every test)
#
#   address  AddressSanitizer: out-of-bounds, use-after-free, double free (scratch path .build-asan)
#   thread   ThreadSanitizer: data races, lock-order inversions (scratch path .build-tsan)
#   --fast   only the classes in FAST below (the engine, the CLI and bad input; about a third of the time)
#   --filter only the test classes whose name matches REGEX (grep -E), e.g. --filter 'BadInput|Lifecycle'
# Env: JOBS=1 (build jobs), LEAKS=1 (LeakSanitizer too; off by default: the Swift runtime's and the
#      system libraries' one-time allocations drown real leaks, which LifecycleTests measures instead),
#      OUT=/tmp/lp-sanitize (reports and logs).
# Exit status: 0 when every class passed with no report, 1 otherwise (also when a build or the test
# listing failed, or no class ran: a sanitizer run that ran nothing is not a pass).
set -uo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH

FAST='LoopplayCommandTests|BadInputTests|CorruptCorpusTests|LifecycleTests|SeamlessLoopTests|ExtVideoPlayerTests|GaplessAudioLoopTests|AudioControlTests|FilterPlaybackTests'

which=all filter='' fast=0
while (($#)); do
  case $1 in
    address|thread|all) which=$1 ;;
    --fast) fast=1 ;;
    --filter) filter=${2:?--filter needs a regex}; shift ;;
    --filter=*) filter=${1#--filter=} ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "sanitize.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
  shift
done
[[ $which == all ]] && kinds=(address thread) || kinds=("$which")
OUT=${OUT:-/tmp/lp-sanitize}
scripts/install-deps.sh --tests

status=0
summary=()
for kind in "${kinds[@]}"; do
  short=${kind:0:1}san scratch=.build-${kind:0:1}san
  logs=$OUT/$short; rm -rf "$logs"; mkdir -p "$logs"
  echo "== $kind: building into $scratch (slow: the whole package is instrumented)"
  start=$(date +%s)
  if ! nice -n 10 swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" -j "${JOBS:-1}" \
      >"$logs/build.log" 2>&1; then
    tail -30 "$logs/build.log"; echo "sanitize.sh: the $kind build failed (log: $logs/build.log)" >&2
    summary+=("$kind: FAILED: the build failed (log: $logs/build.log)"); status=1
    continue
  fi
  built=$(date +%s)
  # Listing runs the instrumented test binary: if it fails (e.g. a crash at load, as the ifunc
  # resolver under TSan did) nothing would run and the summary would read "0 failed"; stop instead.
  if ! swift test --list-tests --skip-build --sanitize="$kind" --scratch-path "$scratch" \
      >"$logs/list.log" 2>&1; then
    tail -20 "$logs/list.log"; echo "sanitize.sh: listing the $kind tests failed (log: $logs/list.log)" >&2
    summary+=("$kind: FAILED: the test listing failed (log: $logs/list.log)"); status=1
    continue
  fi
  classes=$(sed -n 's/^\([A-Za-z]*Tests\)\.\([A-Za-z]*\)\/.*/\1.\2/p' "$logs/list.log" | sort -u)
  ((fast)) && classes=$(grep -E "\.($FAST)\$" <<<"$classes")
  [[ -n $filter ]] && classes=$(grep -E "$filter" <<<"$classes")
  if [[ -z $classes ]]; then
    echo "sanitize.sh: no $kind test class to run (listing: $logs/list.log; --fast/--filter: '$filter')" >&2
    summary+=("$kind: FAILED: no test class ran (listing: $logs/list.log)"); status=1
    continue
  fi
  export UBSAN_OPTIONS="print_stacktrace=1" LOOPPLAYER_SANITIZER=$kind
  # The runtimes find llvm-symbolizer on PATH (the Swift toolchain has one) for file:line frames.
  passed=0 failed=()
  for class in $classes; do
    # Reports go to one file per process (log_path; loopplay started by the CLI tests inherits it);
    # the test run's own output to the class log. Exit code 66 tells a sanitizer stop from a failure.
    common="log_path=$logs/$class.report:exitcode=66:abort_on_error=0:print_summary=1"
    export ASAN_OPTIONS="$common:detect_leaks=${LEAKS:-0}:check_initialization_order=1"
    # The suppressions are Mutex false reports only (scripts/sanitize/tsan.supp says why).
    export TSAN_OPTIONS="$common:halt_on_error=0:second_deadlock_stack=1:report_signal_unsafe=0:suppressions=$PWD/scripts/sanitize/tsan.supp"
    t0=$(date +%s)
    nice -n 10 swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" --disable-swift-testing \
      --filter "^$class/" >"$logs/$class.log" 2>&1
    code=$?
    t1=$(date +%s)
    reports=$(ls "$logs/$class".report.* 2>/dev/null | wc -l)
    # A crash (signal) fails the class whatever the exit code says, and so does a run in which no
    # test executed (XCTest prints "Executed N test(s), with ..." per suite).
    why="exit $code"
    grep -q 'unexpected signal' "$logs/$class.log" && why="CRASHED, exit $code"
    grep -Eq 'Executed [1-9][0-9]* tests?, with' "$logs/$class.log" || why="$why, no test executed"
    if [[ $why == "exit 0" ]] && ((reports == 0)); then
      passed=$((passed + 1)); printf '  %-50s ok        %4ss\n' "$class" $((t1 - t0))
    else
      failed+=("$class")
      printf '  %-50s FAILED    %4ss  %s, %s report(s), log %s\n' "$class" $((t1 - t0)) "$why" "$reports" "$logs/$class.log"
    fi
  done
  done_at=$(date +%s)
  # Unique findings: each report's kind and its first frame in our own code, counted. (A Swift trap
  # under ThreadSanitizer shows as "CHECK failed" in the crash handler's fork; its frame says why.)
  findings=$(cat "$logs"/*.report.* 2>/dev/null | awk '
      /(ERROR|WARNING): (Address|Thread|Leak|UndefinedBehavior)Sanitizer|Sanitizer: CHECK failed/ {
        if (kind != "") print kind " | " (frame == "" ? "no frame in Sources/ or Tests/" : frame)
        kind = $0; sub(/^==[0-9]+==/, "", kind); sub(/ \(pid=[0-9]+\)/, "", kind); sub(/ on address 0x[0-9a-f]+.*/, "", kind); sub(/ \(tid=[0-9]+\)/, "", kind)
        frame = ""; next }
      frame == "" && /#[0-9]+ .*\/(Sources|Tests)\// { frame = $0; sub(/^ *#[0-9]+ (0x[0-9a-f]+ in )?/, "", frame); sub(/ \([^()]*\+0x[0-9a-f]+\).*/, "", frame) }
      END { if (kind != "") print kind " | " (frame == "" ? "no frame in Sources/ or Tests/" : frame) }' \
    | swift demangle --simplified | sort | uniq -c | sort -rn)
  nreports=$(ls "$logs"/*.report.* 2>/dev/null | wc -l)
  summary+=("$kind: build $((built - start)) s, tests $((done_at - built)) s; $passed classes passed, ${#failed[@]} failed; $nreports report files in $logs")
  [[ -n $findings ]] && summary+=("$findings")
  ((passed > 0 && ${#failed[@]} == 0 && nreports == 0)) || status=1
done

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
