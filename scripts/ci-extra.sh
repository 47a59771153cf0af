#!/usr/bin/env bash
# CI after scripts/test.sh: the unit tests under ASan+UBSan (but $heavy), the runner's
# contract suite under TSan, and every libFuzzer target for FUZZ_SECONDS
# (default 30) each, two at a time.  Any sanitizer report or fuzz finding
# fails the run.  First, `install`: the Release tree installed, packaged and
# used as a user would (scripts/ci-install.sh).  Each step prints its wall
# time.  Usage: ci-extra.sh [install] [asan] [tsan] [fuzz] (default: all four).  Build dirs: build-asan (the ASan+UBSan
# tests and the fuzzers: one tree, coverage only on the readers) and
# build-tsan.
#
# Debian's libtbb is not instrumented, so TSan cannot see TBB hand work to
# its workers; magic::schedule (core/scheduler.hpp) states those edges with
# __tsan_release/__tsan_acquire under TSan, and tsan.supp silences only
# accesses inside TBB's own headers.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bash scripts/deps.sh
steps=("$@")
((${#steps[@]})) || steps=(install asan tsan fuzz)
jobs=$(nproc)
# Seven targets two at a time: four rounds of 30 s, the 120 s that six
# targets of 40 s took (perf/results/ci.md).
fuzz_seconds=${FUZZ_SECONDS:-30}
# Sanitizer reports also go to files here: a report from a child process
# (tests run the magicount binary) fails CI even if that test ignores the
# child's exit code.
logs=$(mktemp -d "${TMPDIR:-/tmp}/magic-ci.XXXXXX")
trap 'rm -rf "$logs"' EXIT

timed() {  # timed NAME COMMAND...: runs it and prints its wall time
  local name=$1 t0=$SECONDS
  shift
  echo "== $name" >&2
  "$@"
  echo "== $name: $((SECONDS - t0)) s" >&2
}

no_reports() {  # fails if a sanitizer wrote a report file
  if compgen -G "$logs/report.*" >/dev/null; then
    echo "error: sanitizer reports:" >&2
    cat "$logs"/report.* >&2
    exit 1
  fi
}

# clang++ for all three: with sanitizers it compiles this code base about
# three times faster than g++ 12 (the runner's templates are instantiated for
# every problem size).  -O1 with line tables only: -O0 compiles faster, but
# under ASan the exhaustive tests then run ~50x slower than Release (one
# times out at 600 s); at -O1 the whole step takes a fraction of that.
# Debug keeps assert() on.  Left out of these trees, with their reasons:
# the star sizes above 16 (ASan) and 12 (TSan) (MAGIC_STAR_MAX_N: the
# largest star a test there searches is 14 under ASan, 9 under TSan, so
# larger ones would only be compiled; the Release step builds and runs
# them) and the star chain's BMI2 copy (the portable copy's source compiled
# twice; see star/star.hpp).
configure() {  # configure DIR ARGS...
  local dir=$1
  shift
  local gen=()
  [ -f "$dir/CMakeCache.txt" ] || gen=(-G Ninja)  # as scripts/build.sh
  CXX=clang++ cmake "${gen[@]}" -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
    -DMAGIC_BUILD_PERF=OFF "$@" >/dev/null
}

# The unit suite's longest exhaustive runs: each takes 5 s to 4 min under
# ASan, together over half the step, and more under TSan.  The Release suite
# (scripts/test.sh) runs them; under the sanitizers their code is still run
# by the smaller cases and the other tests of the same problems:
# square5_associative and square4_semi keep their reference run, dedup
# paths and resume in the contract (square4_semi not under TSan, see
# tsan_heavy), the order-5 checker its slices (Verify.OrderFive...), and
# circles n <= 14 the circle search (Circle.*); the order-5 semi slice and
# the order-8 most-perfect counter keep their reference runs, dedup paths,
# resume and verify cases; a window of nothing (every task spilled) runs
# on every other problem of the contract.  The committed records (60 MB
# of journals, read twice: by the library and by the CLI from /) are data,
# not code paths: under ASan the journal reader is fuzzed and checked by
# Records.AChangedResultOrJournalIsCaught and the Journal tests.  The
# figure catalog's files against its builtins (data), the hash-set oracle
# over every labelling (the figure search's paths run in the other Figure
# tests) and the order-8 most-perfect table row (the MostPerfect8 cases
# keep its paths) are 50 test-seconds under ASan.
# CMake's regular expressions hold at most 9 groups: -E "$heavy|$tsan_heavy"
# with more is refused and excludes nothing, so new entries add no group.
heavy='^(Orders/SquareBrute\.EngineAgreesWithBruteForceForEveryKind/4'
heavy+='|Problems/Contract\.(AdaptiveSplittingChangesNothing|AWindowOfNothingChangesNothing|TaskChunksChangeNothing|SameResultAndSolutionOrderForAnyThreadsAndSplitDepth|ShardsAddUpToTheWhole)/square(5_associative|4_semi|5_semi_slice)'
heavy+='|Problems/(Contract|Cluster)\.(AdaptiveSplittingWithHashSetAndStop|Checkpoint(ListsTheSolutionsOfResumedTasks|OfASplitRunResumes)|SameResult[A-Za-z]*|StopAfter[A-Za-z]*)/square4_semi'
heavy+='|Documents/DocumentCounts\.EngineMatchesDocument/15_circle_'
heavy+='|Table/KnownCounts\.EngineMatchesTable/(pandiagonal|1_magic|25_magic)_square_5_'
heavy+='|Families/VerifyFamily\.(Rejects[A-Za-z]*|ReadsTheSolutionsFromAJsonLinesFile)/square5_associative'
heavy+='|MostPerfect8\.ThreadsSplitsShardsAndResumeChangeNothing|MostPerfect8\.EverySquareOnceAndTheCompletionsOfAnyRow'
heavy+='|SemiPairs\.Order5RowSliceIsTheCompletionsOfThatRow'
heavy+='|Square5\.SemiMagicRunsWithLimitAndShards|StarComplement\.SameSolutionsAsWithout'
heavy+='|CompleteWide/EveryOrder\.Completes/1[56]$'
heavy+='|Records\.TheCommittedRecordsAddUp|Data\.ReproduceFindsTheSourceTreesRecordsFromAnyDirectory'
heavy+='|Figure\.TheCatalogFilesAreTheBuiltins|Figure\.CountsEqualAHashSetOfCanonicalFormsOverEveryLabelling'
heavy+='|Table/KnownCounts\.EngineMatchesTable/most_perfect_square_8_15)'

# The ASan+UBSan tree also builds the fuzzers (MAGIC_FUZZ: coverage on the
# readers only, cmake/MagicWarnings.cmake), so the sanitized engine is
# compiled once for both steps.
configure_asan() {
  configure build-asan -DMAGIC_SANITIZE=address,undefined -DMAGIC_FUZZ=ON -DMAGIC_STAR_MAX_N=16
}

asan() {
  configure_asan
  timed "asan: build (tests and fuzzers)" cmake --build build-asan -j"$jobs"
  # Leaks are reported too (detect_leaks defaults to on for x86_64 Linux).
  local rc=0
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:log_path=$logs/report \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$logs/report \
    timed "asan: ctest -LE slow" bash scripts/ctest-clean.sh build-asan -j"$jobs" -LE slow -E "$heavy" || rc=$?
  no_reports
  return "$rc"
}

# Under TSan, square4_semi too: a third of the step, and its runner paths
# (every image emitted, the hash set, splitting, resume) are those that
# star8 and pentagram_k4 take there in a tenth of the time.  Its own search
# code runs single-threaded per task; ASan and Release run its cases.
# ctest names a value-parameterized case "Suite.Test/param  # GetParam() = ...",
# so a name is matched up to the space after it, not to the end ($).
tsan_heavy='/square4_semi |/square5_semi_slice '

tsan() {
  configure build-tsan -DMAGIC_SANITIZE=thread -DMAGIC_STAR_MAX_N=12 -DMAGIC_COMPILED_PLANS=OFF
  timed "tsan: build" cmake --build build-tsan -j"$jobs" --target test_contract test_cluster test_complete_wide
  # The runner's contract suite: thread and split invariance, shards,
  # stop-after, checkpoint resume on another thread count; the run across
  # ranks (coordinator, workers and their wire, on threads); and a first
  # completion's restarts side by side (complete.cpp's SideLanes).
  local rc=0
  TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$root/scripts/tsan.supp:log_path=$logs/report" \
    timed "tsan: contract suite" bash scripts/ctest-clean.sh build-tsan -j"$jobs" -R '^((Problems/Contract|Runner|Planner|Problems/Cluster|Cluster[A-Za-z]*)\.|CompleteWide\.(SideLanes|RestartsSideBySide))' -E "$heavy|$tsan_heavy" || rc=$?
  no_reports
  return "$rc"
}

# One fuzz target for fuzz_seconds on a copy of its corpus; 1 on a finding.
# Its log and findings stay in $work/NAME for report_finding.
fuzz_one() {  # fuzz_one BIN
  local bin=$1 name=${1##*/fuzz_} dir
  dir=$work/$name
  # A copy: inputs found in CI are not added to the committed corpus.
  mkdir -p "$dir/corpus" "$dir/artifacts" "$dir/tmp"
  cp -r "fuzz/corpus/$name/." "$dir/corpus/"
  TMPDIR=$dir/tmp ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$bin" -max_total_time="$fuzz_seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1
}

# What a target's run left: its statistics, or its finding; 1 if it failed.
fuzz_verdict() {  # fuzz_verdict NAME RC
  local name=$1 rc=$2 dir=$work/$1
  if [ "$rc" -ne 0 ]; then
    tail -n 80 "$dir/log" >&2
    for a in "$dir/artifacts"/*; do
      [ -e "$a" ] || continue
      echo "finding $a (base64):" >&2
      base64 "$a" | head -c 4000 >&2
      echo >&2
    done
    echo "error: fuzz_$name found a problem" >&2
    return 1
  fi
  echo "== fuzz: $name: ${fuzz_seconds} s" >&2
  grep -E "^stat::(number_of_executed_units|new_units_added)" "$dir/log" >&2 || true
  # The harnesses remove their scratch files.
  if [ -n "$(ls -A "$dir/tmp")" ]; then
    echo "error: fuzz_$name left files in its temp dir" >&2
    return 1
  fi
}

fuzz() {
  configure_asan
  timed "fuzz: build" cmake --build build-asan -j"$jobs" --target fuzz
  # tmpfs when there is one: the journal harness writes a file per input.
  local base=${TMPDIR:-/tmp}
  [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
  work=$(mktemp -d "$base/magic-fuzz.XXXXXX")  # global: the EXIT trap removes it
  trap 'rm -rf "$logs" "$work"' EXIT
  # One target per core at a time: each still runs fuzz_seconds.
  local bins=(build-asan/bin/fuzz_*) i k failed=0
  for ((i = 0; i < ${#bins[@]}; i += jobs)); do
    local names=() pids=()
    for ((k = i; k < i + jobs && k < ${#bins[@]}; ++k)); do
      names+=("${bins[k]##*/fuzz_}")
      echo "== fuzz: ${names[-1]} for ${fuzz_seconds}s" >&2
      fuzz_one "${bins[k]}" &
      pids+=($!)
    done
    for k in "${!pids[@]}"; do
      local rc=0
      wait "${pids[k]}" || rc=$?
      fuzz_verdict "${names[k]}" "$rc" || failed=1
    done
    ((failed == 0)) || exit 1
  done
}

install() { bash scripts/ci-install.sh; }

for s in "${steps[@]}"; do
  case $s in
    install | asan | tsan | fuzz) timed "$s (total)" "$s" ;;
    *) echo "usage: $0 [install] [asan] [tsan] [fuzz]" >&2; exit 2 ;;
  esac
done
