#include "square/square_semi.hpp"

#include <string>

#include "magic/core/error.hpp"

namespace magic {

bool semi_pairs_handles(const SquareSpec& spec) {
  return spec.order == 5 && spec.kind == SquareKind::Semi && spec.symmetry_breaking;
}

namespace {

std::string list_text(const std::vector<int>& v) {
  std::string s;
  for (int x : v) {
    if (!s.empty()) s += ',';
    s += std::to_string(x);  // (not "," + to_string: GCC 12 warns falsely, PR 105651)
  }
  return s;
}

// The slice's row or column as a block: N distinct numbers of 1..N² with the sum.
std::uint32_t block_of_line(const std::vector<int>& line, int n, const char* what) {
  const int sum = n * (n * n + 1) / 2;
  std::uint32_t b = 0;
  int total = 0;
  for (int v : line) {
    if (v < 1 || v > n * n || (b >> (v - 1) & 1)) b = ~0u;
    if (b == ~0u) break;
    b |= 1u << (v - 1);
    total += v;
  }
  if (static_cast<int>(line.size()) != n || b == ~0u || total != sum)
    throw SpecError(std::string("square ") + what + " must be " + std::to_string(n) + " distinct numbers of 1.." +
                    std::to_string(n * n) + " adding up to " + std::to_string(sum) + ", got [" + list_text(line) +
                    "]");
  return b;
}

}  // namespace

template <int N>
SemiPairsProblem<N>::SemiPairsProblem(const SquareSpec& spec) : row_(spec.first_row), col_(spec.first_column) {
  if (spec.order != N || spec.kind != SquareKind::Semi) throw std::logic_error("SemiPairsProblem: spec not handled");
  describe_ = {{"name", "square"}, {"order", N}, {"kind", "semi"}, {"symmetry_breaking", true}};
  if (!row_.empty()) {
    row_set_ = block_of_line(row_, N, "first_row");
    describe_["first_row"] = row_;
  }
  if (!col_.empty()) {
    if (row_.empty()) throw SpecError("square first_column needs first_row too");
    col_set_ = block_of_line(col_, N, "first_column");
    if (col_[0] != row_[0] || std::popcount(row_set_ & col_set_) != 1)
      throw SpecError("square first_column must start with first_row's first number and share no other");
    describe_["first_column"] = col_;
  }
  // Every N-subset with the sum, by the mask's own order (Gosper's hack).
  for (std::uint32_t t = (1u << N) - 1; t <= kAll; ) {
    int sum = 0;
    for (std::uint32_t b = t; b; b &= b - 1) sum += std::countr_zero(b) + 1;
    if (sum == kSum) subsets_.push_back(t);
    const std::uint32_t c = t & (~t + 1), r = t + c;
    t = (((r ^ t) >> 2) / c) | r;
  }
  for (std::uint32_t t : subsets_)
    if (!row_set_ || t == row_set_ || !(t & row_set_))
      p_by_least_[static_cast<std::size_t>(std::countr_zero(t))].push_back(t);
}

template <int N>
std::vector<std::uint32_t> SemiPairsProblem<N>::q_candidates(const State& s, int u) const {
  std::vector<std::uint32_t> out;
  for (std::uint32_t t : subsets_) {
    if (std::countr_zero(t) != u || (t & s.covered)) continue;
    bool transversal = true;
    for (std::uint32_t b : s.p) transversal = transversal && std::has_single_bit(t & b);
    if (!transversal || (col_set_ && t != col_set_ && (t & col_set_))) continue;
    if (!sliced() && (t & 1) && t <= s.p[0]) continue;
    out.push_back(t);
  }
  return out;
}

template <int N>
void SemiPairsProblem<N>::cut(int depth, SinkRef<State> sink) const {
  ExpandMode<State> m{sink, depth};
  Scratch unused;
  walk(State{}, m, unused);
}

template <int N>
typename SemiPairsProblem<N>::Solution SemiPairsProblem<N>::representative(const Solution& s) {
  std::array<std::uint32_t, N> rows{}, cols{};
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      const std::uint32_t bit = 1u << (s[static_cast<std::size_t>(i * N + j)] - 1);
      rows[i] |= bit;
      cols[j] |= bit;
    }
  auto by_least = [](std::uint32_t a, std::uint32_t b) { return std::countr_zero(a) < std::countr_zero(b); };
  std::sort(rows.begin(), rows.end(), by_least);
  std::sort(cols.begin(), cols.end(), by_least);
  return rows[0] < cols[0] ? square(rows, cols) : square(cols, rows);
}

template class SemiPairsProblem<3>;
template class SemiPairsProblem<4>;
template class SemiPairsProblem<5>;

}  // namespace magic
