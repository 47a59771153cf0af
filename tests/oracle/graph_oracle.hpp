#pragma once
// Independent oracle for magic labellings of small graphs (at most about 10
// labelled elements): the constraints are written from the definitions, the
// automorphisms come from trying every vertex permutation, and the search is
// a plain backtracking without symmetry breaking, so a labelling counts once
// per orbit only because it is the least of its images.  It shares no code
// with the engine; do not include engine headers here.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace oracle {

enum class GraphLabeling {
  EdgeMagicTotal,
  VertexMagicTotal,
  SuperEdgeMagicTotal,
  SuperVertexMagicTotal,
  VertexMagicEdge,
  EdgeMagicVertex,
  DistanceMagic
};

struct GraphCounts {
  std::uint64_t total = 0;                       // every labelling
  std::uint64_t unique = 0;                      // orbits under Aut(G) acting on the labelled elements
  std::map<std::int64_t, std::uint64_t> by_sum;  // unique labellings by magic constant
  std::uint64_t automorphisms = 0;               // |Aut(G)| as permutations of the vertices
};

// Which elements a kind labels.
inline bool labels_vertices(GraphLabeling kind) { return kind != GraphLabeling::VertexMagicEdge; }
inline bool labels_edges(GraphLabeling kind) {
  return kind != GraphLabeling::EdgeMagicVertex && kind != GraphLabeling::DistanceMagic;
}
inline int labelled_elements(int n, std::size_t edges, GraphLabeling kind) {
  return (labels_vertices(kind) ? n : 0) + (labels_edges(kind) ? static_cast<int>(edges) : 0);
}

// Calls fn(g) for every automorphism g (vertex v goes to g[v]).  The
// permutation is built vertex by vertex and dropped as soon as a pair of
// placed vertices changes adjacency (or a degree differs), so sparse and
// asymmetric graphs on 10 vertices are quick; a graph with a huge group
// (10 isolated vertices: 10! of them) is slow whatever one does.
inline void for_each_automorphism(int n, const std::vector<std::pair<int, int>>& edges,
                                  const std::function<void(const std::vector<int>&)>& fn) {
  std::vector<std::vector<char>> adj(n, std::vector<char>(n, 0));
  std::vector<int> deg(n, 0);
  for (auto [u, v] : edges) {
    adj[u][v] = adj[v][u] = 1;
    ++deg[u], ++deg[v];
  }
  std::vector<int> g(n, -1);
  std::vector<char> taken(n, 0);
  std::function<void(int)> extend = [&](int v) {
    if (v == n) {
      fn(g);
      return;
    }
    for (int w = 0; w < n; ++w) {
      if (taken[w] || deg[w] != deg[v]) continue;
      bool ok = true;
      for (int u = 0; u < v && ok; ++u) ok = adj[u][v] == adj[g[u]][w];
      if (!ok) continue;
      g[v] = w, taken[w] = 1;
      extend(v + 1);
      taken[w] = 0;
    }
    g[v] = -1;
  };
  extend(0);
}

// Vertices 0..n-1, edges as (u, v) pairs, simple graph. numbers: the labels to
// draw from (distinct); empty = 1..m where m is the number of labelled
// elements of the kind.  With more numbers than elements any injective choice
// counts.  A kind with no constraint on the graph counts every labelling under
// k = 0; an empty sum (an isolated vertex's weight) is 0.
inline GraphCounts count_graph_labelings(int n, const std::vector<std::pair<int, int>>& edges, GraphLabeling kind,
                                         std::vector<int> numbers = {}) {
  if (n < 0) throw std::invalid_argument("oracle: negative vertex count");
  const int m = static_cast<int>(edges.size());
  std::map<std::pair<int, int>, int> edge_index;  // by (smaller end, larger end)
  for (int i = 0; i < m; ++i) {
    auto [u, v] = edges[i];
    if (u < 0 || v < 0 || u >= n || v >= n) throw std::invalid_argument("oracle: edge end out of range");
    if (u == v) throw std::invalid_argument("oracle: self-loop");
    if (!edge_index.emplace(std::minmax(u, v), i).second) throw std::invalid_argument("oracle: repeated edge");
  }

  // Elements: vertex v is element v (when vertices are labelled), edge i is
  // element nv + i (when edges are).
  const int nv = labels_vertices(kind) ? n : 0;
  const int count = labelled_elements(n, edges.size(), kind);
  auto edge_el = [&](int i) { return nv + i; };

  // Constraints: sets of elements whose labels must sum to the common k.
  std::vector<std::vector<int>> constraints;
  switch (kind) {
    case GraphLabeling::EdgeMagicTotal:
    case GraphLabeling::SuperEdgeMagicTotal:  // f(u) + f(uv) + f(v)
      for (int i = 0; i < m; ++i) constraints.push_back({edges[i].first, edges[i].second, edge_el(i)});
      break;
    case GraphLabeling::VertexMagicTotal:
    case GraphLabeling::SuperVertexMagicTotal:  // f(v) + its edges
      for (int v = 0; v < n; ++v) {
        std::vector<int> c{v};
        for (int i = 0; i < m; ++i)
          if (edges[i].first == v || edges[i].second == v) c.push_back(edge_el(i));
        constraints.push_back(c);
      }
      break;
    case GraphLabeling::VertexMagicEdge:  // a vertex's edges
      for (int v = 0; v < n; ++v) {
        std::vector<int> c;
        for (int i = 0; i < m; ++i)
          if (edges[i].first == v || edges[i].second == v) c.push_back(edge_el(i));
        constraints.push_back(c);
      }
      break;
    case GraphLabeling::EdgeMagicVertex:  // f(u) + f(v)
      for (int i = 0; i < m; ++i) constraints.push_back({edges[i].first, edges[i].second});
      break;
    case GraphLabeling::DistanceMagic:  // a vertex's neighbours
      for (int v = 0; v < n; ++v) {
        std::vector<int> c;
        for (auto [a, b] : edges) {
          if (a == v) c.push_back(b);
          if (b == v) c.push_back(a);
        }
        constraints.push_back(c);
      }
      break;
  }

  if (numbers.empty())
    for (int x = 1; x <= count; ++x) numbers.push_back(x);
  std::vector<std::int64_t> sorted(numbers.begin(), numbers.end());
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw std::invalid_argument("oracle: repeated number");
  const int nn = static_cast<int>(sorted.size());

  // allowed[e]: indices into `sorted` that element e may take.  A super kind
  // puts the |V| smallest numbers on the vertices and the rest on the edges.
  const bool super = kind == GraphLabeling::SuperEdgeMagicTotal || kind == GraphLabeling::SuperVertexMagicTotal;
  std::vector<std::vector<int>> allowed(count);
  for (int e = 0; e < count; ++e)
    for (int x = 0; x < nn; ++x)
      if (!super || (e < nv) == (x < n)) allowed[e].push_back(x);

  // Aut(G), and the distinct permutations it induces on the labelled elements
  // (an automorphism may act trivially there, e.g. swapping the ends of K_2
  // when only edges are labelled).
  GraphCounts out;
  std::set<std::vector<int>> actions;
  for_each_automorphism(n, edges, [&](const std::vector<int>& g) {
    ++out.automorphisms;
    std::vector<int> p(count);
    for (int v = 0; v < nv; ++v) p[v] = g[v];
    if (labels_edges(kind))
      for (int i = 0; i < m; ++i) p[edge_el(i)] = edge_el(edge_index.at(std::minmax(g[edges[i].first], g[edges[i].second])));
    actions.insert(p);
  });

  // A fixed order: repeatedly the constraint with fewest unplaced elements,
  // its elements in increasing order, then whatever no constraint holds; each
  // constraint is checked at the position of its last element.
  std::vector<int> order, pos(count, -1);
  std::vector<char> done(constraints.size(), 0);
  for (;;) {
    int best = -1, best_open = 0;
    for (std::size_t c = 0; c < constraints.size(); ++c) {
      if (done[c]) continue;
      int open = 0;
      for (int e : constraints[c]) open += pos[e] < 0;
      if (best < 0 || open < best_open) best = static_cast<int>(c), best_open = open;
    }
    if (best < 0) break;
    done[best] = 1;
    std::vector<int> els = constraints[best];
    std::sort(els.begin(), els.end());
    for (int e : els)
      if (pos[e] < 0) pos[e] = static_cast<int>(order.size()), order.push_back(e);
  }
  for (int e = 0; e < count; ++e)
    if (pos[e] < 0) pos[e] = static_cast<int>(order.size()), order.push_back(e);
  std::vector<std::vector<int>> completes(count);  // constraints whose last element is order[i]
  std::optional<std::int64_t> k;                   // set by the first complete constraint
  for (const auto& c : constraints) {
    if (c.empty()) {
      k = 0;  // an empty sum is complete from the start
      continue;
    }
    int last = 0;
    for (int e : c) last = std::max(last, pos[e]);
    completes[last].push_back(static_cast<int>(&c - constraints.data()));
  }

  std::vector<std::int64_t> a(count, 0);  // label by element
  std::vector<char> used(nn, 0);
  // Canonical: no image (b[p[e]] = a[e]) is lexicographically smaller.
  auto is_canonical = [&] {
    std::vector<std::int64_t> b(count);
    for (const auto& p : actions) {
      for (int e = 0; e < count; ++e) b[p[e]] = a[e];
      if (b < a) return false;
    }
    return true;
  };
  std::function<void(int)> dfs = [&](int i) {
    if (i == count) {
      ++out.total;
      if (is_canonical()) ++out.unique, ++out.by_sum[k.value_or(0)];
      return;
    }
    const int e = order[i];
    for (int x : allowed[e]) {
      if (used[x]) continue;
      a[e] = sorted[x];
      const std::optional<std::int64_t> k_before = k;
      bool ok = true;
      for (int c : completes[i]) {
        std::int64_t s = 0;
        for (int f : constraints[c]) s += a[f];
        if (!k) k = s;
        ok = ok && s == *k;
      }
      if (ok) {
        used[x] = 1;
        dfs(i + 1);
        used[x] = 0;
      }
      k = k_before;
    }
    a[e] = 0;
  };
  dfs(0);

  // Labels are distinct, so only the identity action fixes a labelling and
  // every orbit has exactly |actions| members: a check on the orbit count.
  if (out.unique * actions.size() != out.total) throw std::logic_error("oracle: orbits of unequal size");
  return out;
}

struct SmallGraph {
  std::string name;
  int n;
  std::vector<std::pair<int, int>> edges;
};

// Small graphs for the unit test.  path-k has k edges (k + 1 vertices),
// star-k is K_{1,k}, fan-k a hub joined to path-(k-1).  Some are isomorphic on
// purpose, numbered differently (K2 = path-1 = star-1, K3 = cycle-3 = fan-2,
// K2,2 = cycle-4, paw, diamond = fan-3): their counts must agree.  The last
// ones have more than 10 elements for the total kinds and are meant for the
// vertex-only and edge-only kinds.
inline std::vector<SmallGraph> small_graphs() {
  return {
      {"K1", 1, {}},
      {"2K1", 2, {}},
      {"3K1", 3, {}},
      {"4K1", 4, {}},
      {"K2", 2, {{1, 0}}},
      {"K2+K1", 3, {{0, 2}}},
      {"2K2", 4, {{0, 1}, {2, 3}}},
      {"2K2+K1", 5, {{0, 4}, {1, 3}}},
      {"path-0", 1, {}},
      {"path-1", 2, {{0, 1}}},
      {"path-2", 3, {{0, 1}, {1, 2}}},
      {"path-3", 4, {{0, 1}, {1, 2}, {2, 3}}},
      {"path-4", 5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}}},
      {"path-2+K1", 4, {{0, 1}, {1, 2}}},
      {"path-3+K1", 5, {{3, 0}, {0, 1}, {1, 2}}},
      {"path-2+K2", 5, {{0, 1}, {1, 2}, {3, 4}}},
      {"star-1", 2, {{0, 1}}},
      {"star-2", 3, {{0, 1}, {0, 2}}},
      {"star-3", 4, {{0, 1}, {0, 2}, {0, 3}}},
      {"star-4", 5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}}},
      {"star-3+K1", 5, {{4, 1}, {4, 2}, {4, 3}}},
      {"K3", 3, {{2, 0}, {0, 1}, {2, 1}}},
      {"cycle-3", 3, {{0, 1}, {1, 2}, {2, 0}}},
      {"cycle-4", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}},
      {"cycle-5", 5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}},
      {"fan-2", 3, {{0, 1}, {0, 2}, {1, 2}}},
      {"fan-3", 4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}}},
      {"K2,2", 4, {{0, 2}, {0, 3}, {1, 2}, {1, 3}}},
      {"K3+K1", 4, {{1, 2}, {2, 3}, {3, 1}}},
      {"K3+K2", 5, {{0, 1}, {1, 2}, {2, 0}, {3, 4}}},
      {"K4", 4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
      {"paw", 4, {{0, 1}, {1, 2}, {2, 0}, {0, 3}}},           // a triangle with a pendant vertex
      {"diamond", 4, {{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}}},  // K4 less an edge
      {"bull", 5, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 4}}},
      {"chair", 5, {{0, 1}, {0, 2}, {0, 3}, {3, 4}}},  // star-3 with an edge subdivided
      {"cricket", 5, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {0, 4}}},
      {"banner", 5, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}}},  // cycle-4 with a pendant vertex
      {"tadpole-3-2", 5, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {3, 4}}},
      // More than 10 elements for the total kinds.
      {"K2,3", 5, {{0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}}},
      {"cycle-6", 6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}}},
      {"path-9", 10, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}}},
      {"K3,3", 6, {{0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4}, {1, 5}, {2, 3}, {2, 4}, {2, 5}}},
      {"K5", 5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}},
      {"cube", 8, {{0, 1}, {1, 3}, {3, 2}, {2, 0}, {4, 5}, {5, 7}, {7, 6}, {6, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}}},
      {"petersen", 10, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 5}, {1, 6}, {2, 7}, {3, 8}, {4, 9},
                        {5, 7}, {7, 9}, {9, 6}, {6, 8}, {8, 5}}},
  };
}

}  // namespace oracle
