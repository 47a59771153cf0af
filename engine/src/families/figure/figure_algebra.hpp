#pragma once
// Which open points of a figure its kept lines already determine.
//
// With the lines in `kept` at the sum S, each is one linear equation in the
// open points:  sum over its open points of x  =  S - (its placed points).
// An open point q is determined when some combination of those equations
// leaves q alone:
//
//   d * x_q  =  sum over lines l of  lambda_l * (S - part_l)
//
// where part_l is the line's sum so far.  The combination gives every other
// open point a net coefficient of zero, so part_l may include any of them
// that are placed meanwhile, and the formula still holds.  A line with one
// open point is the simplest case (lambda = that line, d = 1); the algebra
// also finds, say, the centre of a 3x3 square (d = 3) before any choice,
// and the last three points of a star's chain before the last of them is
// chosen.  The search places determined points with the choice that
// determined them, so they are never branched on.
//
// Exact integer Gauss-Jordan on the open columns (ordered as given), with
// the combination carried along as extra columns.  A point whose formula
// would need coefficients beyond kFigureMaxCoefficient is left undetermined
// (it is then branched on, or forced later by a single line): a weaker cut,
// never a wrong one.
#include <cstdint>
#include <utility>
#include <vector>

namespace magic {

inline constexpr std::int64_t kFigureMaxCoefficient = std::int64_t{1} << 20;

struct Determination {
  int point = -1;
  std::int64_t d = 1;                                  // > 0
  std::vector<std::pair<int, std::int64_t>> lambda;    // (line, lambda_l), lambda_l != 0
};

struct Determined {
  std::vector<Determination> points;  // in an order they may be placed
  // Every determined point was found (no overflow, no coefficient too
  // large, `algebra` on), and the kept lines are independent over the open
  // points.  See FigureProblem::make_plan for what that allows.
  bool complete = false;
  bool independent = false;
};

// The open points the kept lines determine.  With `algebra` false only
// lines with one open point count (repeatedly: each point so found counts
// as placed for the next line).
Determined determined_points(const std::vector<std::vector<int>>& lines, std::uint64_t kept, std::uint64_t open,
                             bool algebra);

}  // namespace magic
