// A graph's picture: the vertex labels in the circles, the edge labels at
// the edges' midpoints.  From the file's coordinates; without them, in
// layers for a forest (a tree from its centre, a path on a line) and on a
// circle for anything else.
#include <algorithm>
#include <cmath>
#include <queue>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/charts.hpp"  // xml_escape

namespace magic {

namespace {
struct Xy {
  double x, y;
};

bool placed(const nlohmann::json& v) { return v.is_object() && v.contains("x") && v.contains("y"); }
std::string name_of(const nlohmann::json& v) { return v.is_object() ? v.at("name").get<std::string>() : v.is_string() ? v.get<std::string>() : v.dump(); }

using Adjacency = std::vector<std::vector<std::size_t>>;

// Distances from s (n for unreached).
std::vector<std::size_t> distances(const Adjacency& adj, std::size_t s) {
  std::vector<std::size_t> d(adj.size(), adj.size());
  std::queue<std::size_t> q;
  d[s] = 0;
  q.push(s);
  while (!q.empty()) {
    const std::size_t u = q.front();
    q.pop();
    for (std::size_t v : adj[u])
      if (d[v] == adj.size()) d[v] = d[u] + 1, q.push(v);
  }
  return d;
}

// A forest in layers: each tree hangs from its centre (least eccentricity),
// its layers side by side; the trees next to one another.
std::vector<Xy> layers(const Adjacency& adj) {
  const std::size_t n = adj.size();
  std::vector<Xy> out(n);
  std::vector<bool> done(n);
  double x0 = 0;
  for (std::size_t s = 0; s < n; ++s) {
    if (done[s]) continue;
    const std::vector<std::size_t> reach = distances(adj, s);
    std::vector<std::size_t> tree;
    for (std::size_t v = 0; v < n; ++v)
      if (reach[v] < n) tree.push_back(v);
    std::size_t centre = s, best = n;
    for (std::size_t v : tree) {
      const auto d = distances(adj, v);
      std::size_t ecc = 0;
      for (std::size_t u : tree) ecc = std::max(ecc, d[u]);
      if (ecc < best) best = ecc, centre = v;
    }
    const std::vector<std::size_t> depth = distances(adj, centre);
    // A path (every vertex on at most two edges) lies on one line.
    const bool path = std::all_of(tree.begin(), tree.end(), [&](std::size_t v) { return adj[v].size() <= 2; });
    std::vector<double> used(n + 1, 0);
    double width = 1;
    if (path) {
      std::size_t end = centre;
      for (std::size_t v : tree)
        if (adj[v].size() <= 1 && depth[v] >= depth[end]) end = v;
      const std::vector<std::size_t> along = distances(adj, end);
      for (std::size_t v : tree) out[v] = {x0 + static_cast<double>(along[v]), 0}, width = std::max(width, along[v] + 1.0);
    } else {
      for (std::size_t v : tree) out[v] = {x0 + used[depth[v]]++, -static_cast<double>(depth[v])};
      for (double w : used) width = std::max(width, w);
      // Centre each layer under the widest.
      for (std::size_t v : tree) out[v].x += (width - used[depth[v]]) / 2;
    }
    for (std::size_t v : tree) done[v] = true;
    x0 += width + 1;
  }
  return out;
}

std::vector<Xy> layout(const nlohmann::json& vertices, const Adjacency& adj, std::size_t edges) {
  const std::size_t n = vertices.size();
  if (n > 0 && std::all_of(vertices.begin(), vertices.end(), placed)) {
    double m = 0;  // scaled to at most 1 first, as a figure's are
    for (const auto& v : vertices) m = std::max({m, std::fabs(v.at("x").get<double>()), std::fabs(v.at("y").get<double>())});
    const double s = m > 1 ? 1 / m : 1;
    std::vector<Xy> out;
    for (const auto& v : vertices) out.push_back({s * v.at("x").get<double>(), s * v.at("y").get<double>()});
    return out;
  }
  std::size_t components = 0;
  std::vector<bool> seen(n);
  for (std::size_t s = 0; s < n; ++s) {
    if (seen[s]) continue;
    ++components;
    const auto d = distances(adj, s);
    for (std::size_t v = 0; v < n; ++v) seen[v] = seen[v] || d[v] < n;
  }
  if (edges + components == n) return layers(adj);  // a forest
  std::vector<Xy> out;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = 3.14159265358979323846 * (0.5 + 2.0 * static_cast<double>(i) / static_cast<double>(n));
    out.push_back({std::cos(a), std::sin(a)});
  }
  return out;
}
}  // namespace

void draw_graph_panel(std::ostringstream& body, int panel, int panel_size, const nlohmann::json& problem,
                      const nlohmann::json& solution) {
  const nlohmann::json& g = problem.at("graph");
  const nlohmann::json& vs = g.at("vertices");
  std::vector<std::string> names;
  for (const auto& v : vs) names.push_back(name_of(v));
  auto index = [&](const nlohmann::json& name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name_of(name)) - names.begin());
  };
  Adjacency adj(names.size());
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (const auto& e : g.at("edges")) {
    const std::size_t u = index(e[0]), v = index(e[1]);
    if (u >= names.size() || v >= names.size()) continue;
    edges.emplace_back(u, v);
    adj[u].push_back(v);
    adj[v].push_back(u);
  }
  const std::vector<Xy> xy = layout(vs, adj, edges.size());
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const Xy& p : xy) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  const double span = std::max({x1 - x0, y1 - y0, 1e-9});
  const double inner = panel_size * 0.76, left = panel * panel_size + (panel_size - inner) / 2.0,
               top = 30 + (panel_size - inner) / 2.0;
  auto X = [&](const Xy& p) { return left + inner * ((p.x - x0) / span + (1 - (x1 - x0) / span) / 2); };
  auto Y = [&](const Xy& p) { return top + inner * ((y1 - p.y) / span + (1 - (y1 - y0) / span) / 2); };
  const bool labelled = solution.is_object();
  const double dot = std::clamp(110.0 / static_cast<double>(std::max<std::size_t>(names.size(), 1)), 7.0, 13.0);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const Xy a = xy[edges[i].first], b = xy[edges[i].second];
    body << "<line x1=\"" << X(a) << "\" y1=\"" << Y(a) << "\" x2=\"" << X(b) << "\" y2=\"" << Y(b)
         << "\" stroke=\"#557\" stroke-width=\"1.5\"/>\n";
    if (!labelled || !solution.contains("edges")) continue;
    const Xy mid{(a.x + b.x) / 2, (a.y + b.y) / 2};
    body << "<text x=\"" << X(mid) << "\" y=\"" << Y(mid) << "\" font-size=\"" << static_cast<int>(dot * 0.95)
         << "\" fill=\"#a33\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" text-anchor=\"middle\" "
            "dominant-baseline=\"central\">"
         << solution.at("edges").at(i).dump() << "</text>\n";
  }
  for (std::size_t v = 0; v < xy.size(); ++v) {
    body << "<circle cx=\"" << X(xy[v]) << "\" cy=\"" << Y(xy[v]) << "\" r=\"" << dot
         << "\" fill=\"#fff7e0\" stroke=\"#335\" stroke-width=\"1.2\"/>\n";
    std::string label = names[v];
    if (labelled) label = solution.contains("vertices") ? solution.at("vertices").at(v).dump() : "";
    body << "<text x=\"" << X(xy[v]) << "\" y=\"" << Y(xy[v]) << "\" font-size=\"" << static_cast<int>(dot * 1.05)
         << "\" text-anchor=\"middle\" dominant-baseline=\"central\">" << xml_escape(label) << "</text>\n";
  }
  if (labelled && solution.contains("sum"))
    body << "<text x=\"" << panel * panel_size + panel_size / 2.0 << "\" y=\"" << 30 + panel_size - 4
         << "\" font-size=\"12\" text-anchor=\"middle\">magic constant " << solution.at("sum").dump() << "</text>\n";
}

}  // namespace magic
