#pragma once
// A figure's symmetry group, as permutations of its points, and the two
// things the search needs from it:
//
//  - a stabilizer chain (Schreier-Sims), for the group's order, for the
//    symmetry-breaking constraints and for canonical forms;
//  - the automorphisms of the point-line incidence graph, from nauty.
//
// Every call of the program into nauty is here, behind one lock (nauty's
// work areas are static): the graph family's automorphisms, canonical form
// and graph6 too.
//
// A permutation maps point q to perm[q].
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace magic {

using PointPerm = std::vector<std::uint8_t>;

// The automorphism group of the incidence graph of `lines` (points 0..n-1;
// lines are sets), as generators restricted to the points (nauty's
// densenauty).  Coordinates play no part.
std::vector<PointPerm> incidence_automorphisms(int n_points, const std::vector<std::vector<int>>& lines);

// The automorphisms of a simple graph (vertices 0..n-1, n >= 1), from
// nauty: generators as vertex permutations (v to generators[g][v]) and the
// order of nauty's canonical form (canonical_order[i]: the vertex that
// comes i-th), so that two labellings of one graph give one form.
struct GraphSymmetry {
  std::vector<std::vector<int>> generators;
  std::vector<int> canonical_order;
};
GraphSymmetry graph_symmetry(int n, const std::vector<std::pair<int, int>>& edges);

// graph6, nauty's format for a graph.  graph6_check says what is wrong
// with a string ("" if nothing; nauty's own reader would end the process)
// and sets n; graph6_edges reads a checked string with nauty; graph6_of
// writes one.
std::string graph6_check(const std::string& s, int max_vertices, int& n);
std::vector<std::pair<int, int>> graph6_edges(const std::string& s, int n);
std::string graph6_of(int n, const std::vector<std::pair<int, int>>& edges);

// Whether perm maps the set of lines onto itself.
bool preserves_lines(const PointPerm& perm, const std::vector<std::vector<int>>& lines);

// A stabilizer chain for the base b(0), b(1), ... (every point, in the
// order given): level i holds the orbit of b(i) under the stabilizer of
// b(0..i-1), and for each orbit point a an element u with u(b(i)) = a
// that fixes b(0..i-1).
class StabilizerChain {
 public:
  StabilizerChain(int n, const std::vector<PointPerm>& generators, const std::vector<int>& base);

  struct Level {
    int base = 0;
    std::vector<int> orbit;            // orbit[0] = base
    std::vector<PointPerm> transversal;  // parallel to orbit
  };
  const std::vector<Level>& levels() const { return levels_; }
  // The group's order; a SpecError above 2^62 (counts.total would not fit).
  std::uint64_t order() const { return order_; }

  // Symmetry breaking for distinct values (Puget, IJCAI 2005): the
  // pairs (b(i), a) for every a != b(i) in level i's orbit, meaning the
  // value on b(i) is below the value on a.  Exactly one labelling of each
  // orbit meets them all.
  std::vector<std::pair<int, int>> less_than_pairs() const;

  // The lexicographically least of the images v o g (g in the group) of
  // distinct values v by point; the chain's base must be 0, 1, 2, ....
  // Greedy down the chain: at level i the image's entry i is the least v
  // over the level's orbit, and the transversal that brings it there fixes
  // the entries already chosen.
  template <class Values>
  Values least_image(const Values& v) const {
    Values cur = v, next = v;
    for (const Level& l : levels_) {
      if (l.orbit.size() < 2) continue;
      std::size_t best = 0;
      for (std::size_t j = 1; j < l.orbit.size(); ++j)
        if (cur[static_cast<std::size_t>(l.orbit[j])] < cur[static_cast<std::size_t>(l.orbit[best])]) best = j;
      if (best == 0) continue;
      const PointPerm& u = l.transversal[best];
      for (int q = 0; q < n_; ++q) next[static_cast<std::size_t>(q)] = cur[u[static_cast<std::size_t>(q)]];
      cur = next;
    }
    return cur;
  }

 private:
  // Sifts g through the levels from `from`: the residue and the level it
  // stopped at (levels_.size() when it passed every level).
  std::pair<PointPerm, std::size_t> sift(PointPerm g, std::size_t from) const;
  void build_orbit(std::size_t level);

  int n_;
  std::vector<Level> levels_;
  std::vector<std::vector<PointPerm>> gens_;  // generators of each level's group
  std::uint64_t order_ = 1;
};

}  // namespace magic
