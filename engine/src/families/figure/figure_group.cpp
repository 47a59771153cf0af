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
// gtools.h (graph6) declares nauty's thread-local globals with C11's keyword.
#define _Thread_local thread_local
#include <gtools.h>
#undef _Thread_local

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
// work areas are static too, hence one call at a time (every call of this
// program goes through run_nauty).
std::mutex nauty_mutex;
std::vector<std::vector<int>>* nauty_out = nullptr;
void collect_automorphism(int /*count*/, int* perm, int* /*orbits*/, int /*numorbits*/, int /*stabvertex*/, int n) {
  nauty_out->emplace_back(perm, perm + n);
}

// densenauty on g (n vertices, m set words each) with the colour cells
// lab/ptn: the generators it reports, and with canong the canonical form.
std::vector<std::vector<int>> run_nauty(std::vector<graph>& g, int m, int n, std::vector<int>& lab, std::vector<int>& ptn,
                                        graph* canong) {
  std::vector<int> orbits(static_cast<std::size_t>(n));
  DEFAULTOPTIONS_GRAPH(options);
  options.defaultptn = FALSE;
  options.getcanon = canong ? TRUE : FALSE;
  options.userautomproc = collect_automorphism;
  statsblk stats;
  std::vector<std::vector<int>> out;
  std::lock_guard lock(nauty_mutex);
  nauty_check(WORDSIZE, m, n, NAUTYVERSIONID);
  nauty_out = &out;
  densenauty(g.data(), lab.data(), ptn.data(), orbits.data(), &options, &stats, m, n, canong);
  nauty_out = nullptr;
  return out;
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
  std::vector<int> lab(static_cast<std::size_t>(n)), ptn(static_cast<std::size_t>(n), 1);
  std::iota(lab.begin(), lab.end(), 0);
  ptn[static_cast<std::size_t>(n_points - 1)] = 0;
  ptn[static_cast<std::size_t>(n - 1)] = 0;
  std::vector<PointPerm> out;
  for (const std::vector<int>& g_full : run_nauty(g, m, n, lab, ptn, nullptr))
    out.emplace_back(g_full.begin(), g_full.begin() + n_points);
  // Lines are distinct sets (the reader refuses a repeated line), so an
  // automorphism that fixes every point fixes every line: the restriction
  // to the points loses nothing.
  std::erase_if(out, is_identity);
  return out;
}

GraphSymmetry graph_symmetry(int n, const std::vector<std::pair<int, int>>& edges) {
  const int m = SETWORDSNEEDED(n);
  std::vector<graph> g(static_cast<std::size_t>(m) * static_cast<std::size_t>(n)),
      canong(static_cast<std::size_t>(m) * static_cast<std::size_t>(n));
  EMPTYGRAPH(g.data(), m, n);
  for (const auto& [u, v] : edges) ADDONEEDGE(g.data(), u, v, m);
  std::vector<int> lab(static_cast<std::size_t>(n)), ptn(static_cast<std::size_t>(n), 1);
  std::iota(lab.begin(), lab.end(), 0);
  ptn[static_cast<std::size_t>(n - 1)] = 0;
  GraphSymmetry out;
  for (std::vector<int>& p : run_nauty(g, m, n, lab, ptn, canong.data())) {
    bool moves = false;
    for (int v = 0; v < n; ++v) moves = moves || p[static_cast<std::size_t>(v)] != v;
    if (moves) out.generators.push_back(std::move(p));
  }
  out.canonical_order = lab;  // lab[i]: the vertex at place i of the canonical form
  return out;
}

std::string graph6_check(const std::string& s, int max_vertices, int& n) {
  if (s.empty()) return "an empty graph6 string";
  for (char c : s)
    if (static_cast<unsigned char>(c) < BIAS6 || static_cast<unsigned char>(c) > MAXBYTE)
      return "graph6 uses the characters ? to ~ only, got byte " + std::to_string(static_cast<unsigned char>(c));
  std::size_t head = 1;
  long long size = static_cast<unsigned char>(s[0]) - BIAS6;
  if (s[0] == MAXBYTE) {  // 18 bits in three bytes (or 36 in six after ~~)
    head = s.size() > 1 && s[1] == MAXBYTE ? 8 : 4;
    if (s.size() < head) return "the graph6 string ends inside its vertex count";
    size = 0;
    for (std::size_t i = head == 8 ? 2 : 1; i < head; ++i) size = size << 6 | (static_cast<unsigned char>(s[i]) - BIAS6);
  }
  if (size > max_vertices)
    return "the graph has " + std::to_string(size) + " vertices; the engine takes at most " + std::to_string(max_vertices);
  const long long bits = size * (size - 1) / 2, want = static_cast<long long>(head) + (bits + 5) / 6;
  if (static_cast<long long>(s.size()) != want)
    return "a graph6 string of " + std::to_string(size) + " vertices has " + std::to_string(want) +
           " characters, got " + std::to_string(s.size());
  n = static_cast<int>(size);
  return "";
}

std::vector<std::pair<int, int>> graph6_edges(const std::string& s, int n) {
  const int m = SETWORDSNEEDED(std::max(n, 1));
  std::vector<graph> g(static_cast<std::size_t>(m) * static_cast<std::size_t>(std::max(n, 1)));
  std::string text = s;  // stringtograph reads a mutable C string
  {
    std::lock_guard lock(nauty_mutex);
    stringtograph(text.data(), g.data(), m);
  }
  std::vector<std::pair<int, int>> edges;
  for (int v = 1; v < n; ++v)  // graph6's own order: by the larger end, then the smaller
    for (int u = 0; u < v; ++u)
      if (ISELEMENT(GRAPHROW(g.data(), u, m), v)) edges.emplace_back(u, v);
  return edges;
}

std::string graph6_of(int n, const std::vector<std::pair<int, int>>& edges) {
  const int m = SETWORDSNEEDED(std::max(n, 1));
  std::vector<graph> g(static_cast<std::size_t>(m) * static_cast<std::size_t>(std::max(n, 1)));
  EMPTYGRAPH(g.data(), m, std::max(n, 1));
  for (const auto& [u, v] : edges) ADDONEEDGE(g.data(), u, v, m);
  std::lock_guard lock(nauty_mutex);
  std::string out = ntog6(g.data(), m, n);  // nauty's static buffer, copied under the lock
  if (!out.empty() && out.back() == '\n') out.pop_back();
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
