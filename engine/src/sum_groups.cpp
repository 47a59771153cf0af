#include "magic/sum_groups.hpp"

#include <algorithm>
#include <stdexcept>

namespace magic {

std::optional<SquareKind> parse_square_kind(std::string_view s) {
  if (s == "magic") return SquareKind::Magic;
  if (s == "semi") return SquareKind::Semi;
  if (s == "pandiagonal") return SquareKind::Pandiagonal;
  if (s == "associative") return SquareKind::Associative;
  if (s == "most-perfect") return SquareKind::MostPerfect;
  return std::nullopt;
}

const char* to_string(SquareKind k) {
  switch (k) {
    case SquareKind::Magic: return "magic";
    case SquareKind::Semi: return "semi";
    case SquareKind::Pandiagonal: return "pandiagonal";
    case SquareKind::Associative: return "associative";
    case SquareKind::MostPerfect: return "most-perfect";
  }
  return "?";
}

void validate_square(int order, SquareKind kind, int min_order, int max_order) {
  if (order < min_order || order > max_order)
    throw SpecError("order must be between " + std::to_string(min_order) + " and " +
                                std::to_string(max_order) + ", got " + std::to_string(order));
  if (kind == SquareKind::MostPerfect && order % 4 != 0)
    throw SpecError("most-perfect squares are defined only for orders divisible by 4, got " +
                                std::to_string(order));
}

std::vector<SumGroup> square_groups(int n, SquareKind kind) {
  const int nn = n * n;
  const int line = n * (nn + 1) / 2;
  auto at = [n](int r, int c) { return ((r % n + n) % n) * n + ((c % n + n) % n); };
  std::vector<SumGroup> g;
  for (int r = 0; r < n; ++r) {
    SumGroup row{{}, line}, col{{}, line};
    for (int c = 0; c < n; ++c) {
      row.cells.push_back(at(r, c));
      col.cells.push_back(at(c, r));
    }
    g.push_back(row);
    g.push_back(col);
  }
  const bool broken = kind == SquareKind::Pandiagonal || kind == SquareKind::MostPerfect;
  if (kind != SquareKind::Semi) {
    // Broken diagonals k = 0 are the two main diagonals.
    for (int k = 0; k < (broken ? n : 1); ++k) {
      SumGroup d{{}, line}, a{{}, line};
      for (int i = 0; i < n; ++i) {
        d.cells.push_back(at(i, i + k));
        a.cells.push_back(at(i, n - 1 - i - k));
      }
      g.push_back(d);
      g.push_back(a);
    }
  }
  if (n == 4 && kind != SquareKind::Semi) {
    // Implied by the lines, added because they prune near the root:
    //   diagonals:  corners + centre           = 2S
    //   rows 0,3:   corners + top/bottom middle = 2S
    //   cols 1,2:   top/bottom middle + centre  = 2S
    // so corners = centre = top/bottom middle = S, and likewise for the
    // left/right middle cells (rows 1,2 and cols 0,3).
    g.push_back({{at(0, 0), at(0, 3), at(3, 0), at(3, 3)}, line});
    g.push_back({{at(1, 1), at(1, 2), at(2, 1), at(2, 2)}, line});
    g.push_back({{at(0, 1), at(0, 2), at(3, 1), at(3, 2)}, line});
    g.push_back({{at(1, 0), at(2, 0), at(1, 3), at(2, 3)}, line});
  }
  if (kind == SquareKind::Associative) {
    for (int c = 0; c < nn; ++c) {
      const int o = nn - 1 - c;
      if (c < o) g.push_back({{c, o}, nn + 1});
      if (c == o) g.push_back({{c}, (nn + 1) / 2});
    }
  }
  if (kind == SquareKind::MostPerfect) {
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        g.push_back({{at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)}, 2 * (nn + 1)});
        if (r < n / 2) g.push_back({{at(r, c), at(r + n / 2, c + n / 2)}, nn + 1});
      }
  }
  return g;
}

std::vector<std::vector<int>> square_symmetries(int n) {
  std::vector<std::vector<int>> out;
  for (int t = 0; t < 8; ++t) {
    std::vector<int> perm(n * n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        int rr = r, cc = c;
        if (t & 4) std::swap(rr, cc);                      // transpose
        for (int k = 0; k < (t & 3); ++k) {                 // rotate 90°
          const int tmp = rr;
          rr = cc;
          cc = n - 1 - tmp;
        }
        perm[r * n + c] = rr * n + cc;
      }
    out.push_back(perm);
  }
  return out;
}

std::vector<int> Plan::free_cells() const {
  std::vector<int> out;
  for (const auto& s : steps)
    if (s.forced_by < 0) out.push_back(s.cell);
  return out;
}

Plan make_plan(int cells, const std::vector<SumGroup>& groups, const std::vector<int>& given,
               const std::vector<std::pair<int, int>>& lt) {
  std::vector<char> known(cells, 0);
  std::vector<int> unknown(groups.size());
  std::vector<std::vector<int>> of_cell(cells);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    unknown[g] = static_cast<int>(groups[g].cells.size());
    for (int c : groups[g].cells) of_cell[c].push_back(static_cast<int>(g));
  }
  Plan plan;
  auto place = [&](int cell, int forced_by) {
    PlanStep st;
    st.cell = cell;
    st.forced_by = forced_by;
    known[cell] = 1;
    for (int g : of_cell[cell])
      if (--unknown[g] == 0 && g != forced_by) st.check.push_back(g);
    for (auto [a, b] : lt) {
      if (a == cell && known[b]) st.less.push_back({b, false});
      if (b == cell && known[a]) st.less.push_back({a, true});
    }
    plan.steps.push_back(std::move(st));
  };
  auto propagate = [&] {
    for (bool again = true; again;) {
      again = false;
      for (std::size_t g = 0; g < groups.size(); ++g) {
        if (unknown[g] != 1) continue;
        for (int c : groups[g].cells)
          if (!known[c]) {
            place(c, static_cast<int>(g));
            again = true;
            break;
          }
      }
    }
  };
  for (int c : given) place(c, -1);
  propagate();
  for (;;) {
    // Branch on the cell that forces the most cells, then the one closest to
    // completing a group; ties go to the lowest index, which keeps plans stable.
    int best = -1, best_forced = -1, best_close = 1 << 30;
    for (int c = 0; c < cells; ++c) {
      if (known[c]) continue;
      int forced = 0, close = 1 << 30;
      for (int g : of_cell[c]) {
        if (unknown[g] == 2) ++forced;
        close = std::min(close, unknown[g]);
      }
      // Cells under a symmetry inequality go early: they prune the most.
      const int sym = std::count_if(lt.begin(), lt.end(), [&](auto p) { return p.first == c || p.second == c; });
      forced = forced * 16 + sym;
      if (forced > best_forced || (forced == best_forced && close < best_close)) {
        best = c;
        best_forced = forced;
        best_close = close;
      }
    }
    if (best < 0) break;
    place(best, -1);
    propagate();
  }
  return plan;
}

}  // namespace magic
