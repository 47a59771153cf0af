#pragma once
// An independent checker of result files (`magicount verify`), in the
// spirit of a SAT solver's separate proof checker: it trusts nothing the
// solvers computed.  Each problem's rules, symmetry group, canonical form
// and digest encoding are written again here from the documented result
// format (docs/json.md, the headers' comments); no solver header
// is included.
//
// What it checks, in this order, stopping at the first failure:
//   1. every listed solution is valid for the problem the file names;
//   2. no two listed solutions are equal up to the problem's symmetry;
//   3. when the file lists every counted solution (see `complete listing`
//      below): counts.unique, counts.total, the by-key map (counts.by_sum
//      for stars) and the digest, recomputed from the solutions, equal the
//      file's.
//
// Complete listing.  The runner counts a solution and hands it out in the
// same step, so with `--solutions all` the listed solutions are exactly the
// counted ones, exhaustive or not (`--limit`, shards).  The file does not
// record how many solutions were asked for, so the count decides:
//   listed == counts.unique   complete: every figure is recomputed;
//   listed >  counts.unique   a disagreement (exit 1);
//   listed <  counts.unique   a disagreement, unless `partial` is set (a file
//                             written with --solutions N): then only 1 and 2.
// A missing solution must not pass as a "partial listing" by default.
#include <string>

namespace magic::checker {

struct VerifyOptions {
  std::string result_path;     // the result JSON ("-" = stdin)
  std::string solutions_path;  // JSON Lines, one solution per line; empty: the JSON's "solutions"
  bool partial = false;        // accept fewer listed solutions than counts.unique
};

struct VerifyReport {
  bool ok = false;
  std::string line;  // ok: the one-line summary; else: the first failure
};

// Throws magic::Error (InputError, SpecError, IoError) for a file that cannot
// be read or is not a result file: missing, not JSON, nested too deep, wrong
// JSON types, an unknown problem.  Every other outcome is a report.
VerifyReport verify(const VerifyOptions& options);

}  // namespace magic::checker
