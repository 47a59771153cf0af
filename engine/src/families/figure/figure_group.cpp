// A figure's symmetry group: nauty for the incidence graph's automorphisms,
// Schreier-Sims for the stabilizer chain (figure_group.hpp).
#include "figure/figure_group.hpp"

#include <algorithm>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

#include <nauty.h>

#include "magic/core/error.hpp"

namespace magic {
namespace {

PointPerm identity(int n) {
  PointPerm p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), std::uint8_t{0});
  return p;
}
bool is_identity(const PointPerm& p) {
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] != i) return false;
  return true;
}
// (a o b)(q) = a(b(q)).
PointPerm compose(const PointPerm& a, const PointPerm& b) {
  PointPerm out(b.size());
  for (std::size_t q = 0; q < b.size(); ++q) out[q] = a[b[q]];
  return out;
}
PointPerm inverse(const PointPerm& a) {
  PointPerm out(a.size());
  for (std::size_t q = 0; q < a.size(); ++q) out[a[q]] = static_cast<std::uint8_t>(q);
  return out;
}

// nauty reports automorphisms through a plain function pointer, so the
// collector is reached through a pointer set for the call; nauty's own
// work areas are static too, hence one call at a time.
std::mutex nauty_mutex;
std::vector<PointPerm>* nauty_out = nullptr;
int nauty_points = 0;
void collect_automorphism(int /*count*/, int* perm, int* /*orbits*/, int /*numorbits*/, int /*stabvertex*/,
                          int /*n*/) {
  PointPerm p(static_cast<std::size_t>(nauty_points));
  for (int q = 0; q < nauty_points; ++q) p[static_cast<std::size_t>(q)] = static_cast<std::uint8_t>(perm[q]);
  nauty_out->push_back(std::move(p));
}

}  // namespace

bool preserves_lines(const PointPerm& perm, const std::vector<std::vector<int>>& lines) {
  std::set<std::vector<int>> all;
  for (auto l : lines) {
    std::sort(l.begin(), l.end());
    all.insert(l);
  }
  for (const auto& l : lines) {
    std::vector<int> img;
    for (int p : l) img.push_back(perm[static_cast<std::size_t>(p)]);
    std::sort(img.begin(), img.end());
    if (!all.count(img)) return false;
  }
  return true;
}

std::vector<PointPerm> incidence_automorphisms(int n_points, const std::vector<std::vector<int>>& lines) {
  // Vertices: the points 0..P-1, then the lines; two colour classes, so no
  // automorphism swaps points with lines.
  const int n = n_points + static_cast<int>(lines.size());
  const int m = SETWORDSNEEDED(n);
  std::vector<graph> g(static_cast<std::size_t>(m) * static_cast<std::size_t>(n));
  EMPTYGRAPH(g.data(), m, n);
  for (std::size_t l = 0; l < lines.size(); ++l)
    for (int p : lines[l]) ADDONEEDGE(g.data(), p, n_points + static_cast<int>(l), m);
  std::vector<int> lab(static_cast<std::size_t>(n)), ptn(static_cast<std::size_t>(n), 1),
      orbits(static_cast<std::size_t>(n));
  std::iota(lab.begin(), lab.end(), 0);
  ptn[static_cast<std::size_t>(n_points - 1)] = 0;
  ptn[static_cast<std::size_t>(n - 1)] = 0;
  DEFAULTOPTIONS_GRAPH(options);
  options.defaultptn = FALSE;
  options.getcanon = FALSE;
  options.userautomproc = collect_automorphism;
  statsblk stats;
  std::vector<PointPerm> out;
  std::lock_guard lock(nauty_mutex);
  nauty_check(WORDSIZE, m, n, NAUTYVERSIONID);
  nauty_out = &out;
  nauty_points = n_points;
  densenauty(g.data(), lab.data(), ptn.data(), orbits.data(), &options, &stats, m, n, nullptr);
  nauty_out = nullptr;
  // Lines are distinct sets (the reader refuses a repeated line), so an
  // automorphism that fixes every point fixes every line: the restriction
  // to the points loses nothing.
  std::erase_if(out, is_identity);
  return out;
}

StabilizerChain::StabilizerChain(int n, const std::vector<PointPerm>& generators, const std::vector<int>& base)
    : n_(n) {
  levels_.resize(base.size());
  gens_.resize(base.size());
  for (std::size_t i = 0; i < base.size(); ++i) levels_[i].base = base[i];
  // Each generator belongs to every level whose earlier base points it fixes.
  for (const PointPerm& g : generators) {
    if (is_identity(g)) continue;
    for (std::size_t i = 0; i < base.size(); ++i) {
      gens_[i].push_back(g);
      if (g[static_cast<std::size_t>(base[i])] != base[i]) break;
    }
  }
  for (std::size_t i = 0; i < levels_.size(); ++i) build_orbit(i);
  // Schreier-Sims: every Schreier generator of level i must sift through
  // the levels below it; a residue is a new generator of the levels it
  // fixes, and the check goes on from the deepest level it changed.
  std::size_t i = levels_.size();
  while (i-- > 0) {
    bool added = false;
    for (std::size_t a = 0; a < levels_[i].orbit.size() && !added; ++a)
      for (std::size_t s = 0; s < gens_[i].size() && !added; ++s) {
        const PointPerm& gen = gens_[i][s];
        const PointPerm& ua = levels_[i].transversal[a];
        const int image = gen[static_cast<std::size_t>(levels_[i].orbit[a])];
        const auto at = std::find(levels_[i].orbit.begin(), levels_[i].orbit.end(), image);
        const PointPerm& ub = levels_[i].transversal[static_cast<std::size_t>(at - levels_[i].orbit.begin())];
        const PointPerm schreier = compose(inverse(ub), compose(gen, ua));
        auto [residue, j] = sift(schreier, i + 1);
        if (is_identity(residue)) continue;
        if (j >= levels_.size()) throw std::logic_error("Schreier-Sims: a residue fixes the whole base");
        for (std::size_t l = i + 1; l <= j; ++l) {
          gens_[l].push_back(residue);
          build_orbit(l);
        }
        i = j + 1;  // the loop's i-- resumes at level j
        added = true;
      }
  }
  std::uint64_t order = 1;
  for (const Level& l : levels_)
    if (__builtin_mul_overflow(order, std::uint64_t{l.orbit.size()}, &order) || order > (std::uint64_t{1} << 62))
      throw SpecError("the figure's symmetry group has more than 2^62 elements, too many to count labellings by");
  order_ = order;
}

void StabilizerChain::build_orbit(std::size_t i) {
  Level& l = levels_[i];
  l.orbit.assign(1, l.base);
  l.transversal.assign(1, identity(n_));
  std::vector<bool> seen(static_cast<std::size_t>(n_));
  seen[static_cast<std::size_t>(l.base)] = true;
  for (std::size_t k = 0; k < l.orbit.size(); ++k)
    for (const PointPerm& g : gens_[i]) {
      const int b = g[static_cast<std::size_t>(l.orbit[k])];
      if (seen[static_cast<std::size_t>(b)]) continue;
      seen[static_cast<std::size_t>(b)] = true;
      l.orbit.push_back(b);
      l.transversal.push_back(compose(g, l.transversal[k]));
    }
}

std::pair<PointPerm, std::size_t> StabilizerChain::sift(PointPerm g, std::size_t from) const {
  for (std::size_t i = from; i < levels_.size(); ++i) {
    const Level& l = levels_[i];
    const int b = g[static_cast<std::size_t>(l.base)];
    const auto at = std::find(l.orbit.begin(), l.orbit.end(), b);
    if (at == l.orbit.end()) return {std::move(g), i};
    g = compose(inverse(l.transversal[static_cast<std::size_t>(at - l.orbit.begin())]), g);
  }
  return {std::move(g), levels_.size()};
}

std::vector<std::pair<int, int>> StabilizerChain::less_than_pairs() const {
  std::vector<std::pair<int, int>> out;
  for (const Level& l : levels_)
    for (std::size_t j = 1; j < l.orbit.size(); ++j) out.emplace_back(l.base, l.orbit[j]);
  return out;
}

}  // namespace magic
