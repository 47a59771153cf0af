// The built-in figures (magic/figure_catalog.hpp), one table.  Each builds
// its figure file; data/figures/ holds the same files and their pictures
// (a test compares them).
#include "magic/figure_catalog.hpp"

#include <cmath>
#include <functional>
#include <numbers>
#include <string>

#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "magic/star_labels.hpp"

namespace magic {
namespace {

using nlohmann::json;

json point(const std::string& name, double x, double y) { return {{"name", name}, {"x", x}, {"y", y}}; }
double round6(double v) { return std::round(v * 1e6) / 1e6; }

// ---- stars {n/k} ------------------------------------------------------------
//
// Tips V0..V(n-1) counterclockwise from the top; the valley C(i) is where
// the edges V(i)V(i+k) and V(i+1)V(i+1-k) cross.  Line i runs along the
// edge V(i)V(i+k) of the outline:
//
//     V(i) -- C(i) -- C(i+k-1) -- V(i+k)
//
// so every point is on two lines.  k = 2 is the star family's {n/2} with
// its labels (V(i) = i, C(i) = n + i), except that the pentagram keeps the
// documents' numbering (see star_geometry.hpp).  The symmetry is the
// drawing's: the rotation V(i) -> V(i+1), C(i) -> C(i+1) and the mirror
// V(i) -> V(-i), C(i) -> C(-i-1); for n = 5 and 6 the incidence graph has
// more automorphisms than the drawing, and the published counts are up to
// the drawing's.
json star_figure(int n, int k, bool documents_labels, const std::string& name) {
  auto mod = [n](int x) { return ((x % n) + n) % n; };
  std::vector<std::pair<double, double>> tip(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const double a = std::numbers::pi / 2 + 2 * std::numbers::pi * i / n;
    tip[static_cast<std::size_t>(i)] = {std::cos(a), std::sin(a)};
  }
  // The crossing of segments p1p2 and p3p4.
  auto cross = [](std::pair<double, double> p1, std::pair<double, double> p2, std::pair<double, double> p3,
                  std::pair<double, double> p4) {
    const double d = (p1.first - p2.first) * (p3.second - p4.second) - (p1.second - p2.second) * (p3.first - p4.first);
    const double a = p1.first * p2.second - p1.second * p2.first, b = p3.first * p4.second - p3.second * p4.first;
    return std::pair<double, double>{(a * (p3.first - p4.first) - (p1.first - p2.first) * b) / d,
                                     (a * (p3.second - p4.second) - (p1.second - p2.second) * b) / d};
  };
  // Internal point: V(i) = i, C(i) = n + i; its label.
  auto label = [&](int p) { return documents_labels ? star_label(n, p) : p; };
  // Built up: "V" + to_string(i) makes GCC 12 warn falsely (PR 105651).
  auto point_name = [](char kind, int i) { return std::string(1, kind).append(std::to_string(i)); };
  auto vname = [&](int i) { return point_name('V', i); };
  auto cname = [&](int i) { return point_name('C', i); };
  std::vector<json> pts(static_cast<std::size_t>(2 * n));
  std::vector<std::string> names(static_cast<std::size_t>(2 * n));
  for (int i = 0; i < n; ++i) {
    const auto v = tip[static_cast<std::size_t>(i)];
    const auto c = cross(tip[static_cast<std::size_t>(i)], tip[static_cast<std::size_t>(mod(i + k))],
                         tip[static_cast<std::size_t>(mod(i + 1))], tip[static_cast<std::size_t>(mod(i + 1 - k))]);
    names[static_cast<std::size_t>(label(i))] = vname(i);
    names[static_cast<std::size_t>(label(n + i))] = cname(i);
    pts[static_cast<std::size_t>(label(i))] = point(vname(i), round6(v.first), round6(v.second));
    pts[static_cast<std::size_t>(label(n + i))] = point(cname(i), round6(c.first), round6(c.second));
  }
  json lines = json::array();
  for (int i = 0; i < n; ++i)
    lines.push_back({vname(i), cname(i), cname(mod(i + k - 1)), vname(mod(i + k))});
  // Generators as image lists in label order: image of the point at label q.
  auto generator = [&](auto map_v, auto map_c) {
    std::vector<std::string> img(static_cast<std::size_t>(2 * n));
    for (int i = 0; i < n; ++i) {
      img[static_cast<std::size_t>(label(i))] = vname(map_v(i));
      img[static_cast<std::size_t>(label(n + i))] = cname(map_c(i));
    }
    return img;
  };
  const json gens = {generator([&](int i) { return mod(i + 1); }, [&](int i) { return mod(i + 1); }),
                     generator([&](int i) { return mod(-i); }, [&](int i) { return mod(-i - 1); })};
  return {{"name", name},
          {"description", "the star {" + std::to_string(n) + "/" + std::to_string(k) +
                              "}: tips and valleys of its outline, lines along its edges, up to the drawing's " +
                              std::to_string(2 * n) + " symmetries"},
          {"points", pts},
          {"lines", lines},
          {"numbers", "1.." + std::to_string(2 * n)},
          {"symmetry", {{"generators", gens}}}};
}

// ---- squares ------------------------------------------------------------------
// Cells r0c0..r(n-1)c(n-1) row by row (the square family's order); rows,
// columns and the two diagonals.
json square_figure(int n, bool drawing_group) {
  auto cell = [](int r, int c) { return "r" + std::to_string(r) + "c" + std::to_string(c); };
  json pts = json::array(), lines = json::array();
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) pts.push_back(point(cell(r, c), c, -r));
  json diag = json::array(), anti = json::array();
  for (int i = 0; i < n; ++i) {
    json row = json::array(), col = json::array();
    for (int j = 0; j < n; ++j) row.push_back(cell(i, j)), col.push_back(cell(j, i));
    lines.push_back(row);
    lines.push_back(col);
    diag.push_back(cell(i, i));
    anti.push_back(cell(i, n - 1 - i));
  }
  lines.push_back(diag);
  lines.push_back(anti);
  json f{{"name", "square-" + std::to_string(n)},
         {"points", pts},
         {"lines", lines},
         {"numbers", "1.." + std::to_string(n * n)},
         {"sum", n * (n * n + 1) / 2}};
  if (drawing_group) {
    // The square's rotation (r, c) -> (c, n-1-r) and transpose; the rows,
    // columns and diagonals alone have more automorphisms at n = 4.
    json rot = json::array(), tr = json::array();
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) rot.push_back(cell(c, n - 1 - r)), tr.push_back(cell(c, r));
    f["symmetry"] = {{"generators", {rot, tr}}};
    f["description"] = "the " + std::to_string(n) + "x" + std::to_string(n) +
                       " magic square as a figure, up to its 8 rotations and reflections";
  } else {
    f["description"] = "the " + std::to_string(n) + "x" + std::to_string(n) + " magic square as a figure";
  }
  return f;
}

// ---- the magic hexagon of order 3 -------------------------------------------
// 19 cells in rows of 3, 4, 5, 4, 3 (named a..s row by row), and the 15
// lines along its three directions:
//
//        a b c
//       d e f g
//      h i j k l
//       m n o p
//        q r s
json hexagon_figure() {
  json pts = json::array(), lines = json::array();
  std::vector<std::array<int, 2>> qr;  // axial coordinates of each cell
  for (int r = -2; r <= 2; ++r)
    for (int q = -2; q <= 2; ++q)
      if (std::abs(q + r) <= 2) qr.push_back({q, r});
  auto name = [](std::size_t i) { return std::string(1, static_cast<char>('a' + i)); };
  for (std::size_t i = 0; i < qr.size(); ++i)
    pts.push_back(point(name(i), round6(qr[i][0] + qr[i][1] / 2.0), round6(-qr[i][1] * std::sqrt(3.0) / 2)));
  // Lines of constant r, q and s = -q-r; cells along a line in their order.
  for (int axis = 0; axis < 3; ++axis)
    for (int v = -2; v <= 2; ++v) {
      json line = json::array();
      for (std::size_t i = 0; i < qr.size(); ++i) {
        const int q = qr[i][0], r = qr[i][1];
        const int coord = axis == 0 ? r : axis == 1 ? q : -q - r;
        if (coord == v) line.push_back(name(i));
      }
      lines.push_back(line);
    }
  return {{"name", "hexagon-3"},
          {"description", "the magic hexagon of order 3: 19 cells, 15 lines of 3, 4 and 5 cells, each summing to 38"},
          {"points", pts},
          {"lines", lines},
          {"numbers", "1..19"},
          {"sum", 38}};
}

// ---- perimeter magic triangles ----------------------------------------------
// Corners A (top), B, C and n-2 points inside each side; each side is a line.
json triangle_figure(int n) {
  const std::array<std::pair<double, double>, 3> corner = {
      std::pair{0.0, std::sqrt(3.0) / 2}, std::pair{-0.5, 0.0}, std::pair{0.5, 0.0}};
  const char* cn[] = {"A", "B", "C"};
  json pts = json::array(), lines = json::array();
  for (int s = 0; s < 3; ++s) pts.push_back(point(cn[s], round6(corner[s].first), round6(corner[s].second)));
  for (int s = 0; s < 3; ++s) {
    const int e = (s + 1) % 3;
    json line = json::array({cn[s]});
    for (int j = 1; j <= n - 2; ++j) {
      const std::string nm = std::string(cn[s]) + cn[e] + std::to_string(j);
      const double t = static_cast<double>(j) / (n - 1);
      pts.push_back(point(nm, round6(corner[s].first + t * (corner[e].first - corner[s].first)),
                          round6(corner[s].second + t * (corner[e].second - corner[s].second))));
      line.push_back(nm);
    }
    line.push_back(cn[e]);
    lines.push_back(line);
  }
  return {{"name", "triangle-" + std::to_string(n)},
          {"description", "the perimeter magic triangle of order " + std::to_string(n) + ": " +
                              std::to_string(3 * (n - 1)) + " numbers on the sides of a triangle, each side of " +
                              std::to_string(n) + " with one sum"},
          {"points", pts},
          {"lines", lines},
          {"numbers", "1.." + std::to_string(3 * (n - 1))}};
}

// ---- the 3x3x3 magic cube -----------------------------------------------------
// Cells "xyz" (digits 0..2), the 27 rows, columns and pillars and the 4
// space diagonals, each summing to 42.
json cube_figure() {
  auto name = [](int x, int y, int z) { return std::to_string(x) + std::to_string(y) + std::to_string(z); };
  json pts = json::array(), lines = json::array();
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) pts.push_back({{"name", name(x, y, z)}, {"x", x}, {"y", y}, {"z", z}});
  for (int axis = 0; axis < 3; ++axis)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        json line = json::array();
        for (int t = 0; t < 3; ++t)
          line.push_back(axis == 0 ? name(t, a, b) : axis == 1 ? name(a, t, b) : name(a, b, t));
        lines.push_back(line);
      }
  for (int dx : {1, -1})
    for (int dy : {1, -1}) {
      json line = json::array();
      for (int t = 0; t < 3; ++t) line.push_back(name(dx > 0 ? t : 2 - t, dy > 0 ? t : 2 - t, t));
      lines.push_back(line);
    }
  return {{"name", "cube-3"},
          {"description", "the 3x3x3 magic cube: 27 cells, its 27 rows, columns and pillars and 4 space diagonals"},
          {"points", pts},
          {"lines", lines},
          {"numbers", "1..27"},
          {"sum", 42}};
}

struct Entry {
  const char* name;
  std::function<json()> build;
};

const std::vector<Entry>& fixed_entries() {
  static const std::vector<Entry> entries = {
      {"pentagram", [] { return star_figure(5, 2, true, "pentagram"); }},
      {"hexagram", [] { return star_figure(6, 2, false, "hexagram"); }},
      {"square-3", [] { return square_figure(3, false); }},
      {"square-4", [] { return square_figure(4, true); }},
      {"hexagon-3", hexagon_figure},
      {"triangle-3", [] { return triangle_figure(3); }},
      {"triangle-4", [] { return triangle_figure(4); }},
      {"cube-3", cube_figure},
  };
  return entries;
}

// "star-N-K" -> (N, K), or (0, 0).
std::pair<int, int> star_name(const std::string& name) {
  int n = 0, k = 0;
  char tail = 0;
  if (std::sscanf(name.c_str(), "star-%d-%d%c", &n, &k, &tail) != 2) return {0, 0};
  if (name != "star-" + std::to_string(n) + "-" + std::to_string(k)) return {0, 0};
  if (n < kStarMinN || n > kStarMaxN || k < 2 || 2 * k > n - 1) return {0, 0};
  return {n, k};
}

}  // namespace

std::vector<std::string> figure_builtin_names() {
  std::vector<std::string> out;
  for (const auto& e : fixed_entries()) out.push_back(e.name);
  for (int n = kStarMinN; n <= kStarMaxN; ++n)
    for (int k = 2; 2 * k <= n - 1; ++k) out.push_back("star-" + std::to_string(n) + "-" + std::to_string(k));
  return out;
}

json builtin_figure(const std::string& name) {
  for (const auto& e : fixed_entries())
    if (name == e.name) return e.build();
  if (const auto [n, k] = star_name(name); n) return star_figure(n, k, false, name);
  throw SpecError("unknown built-in figure '" + utf8_prefix(name, 40) +
                  "' (see `magicount figure --list`: pentagram, hexagram, square-3, square-4, hexagon-3, "
                  "triangle-3, triangle-4, cube-3, star-N-K)");
}

std::string builtin_figure_summary(const std::string& name) {
  const json f = builtin_figure(name);
  std::string s = std::to_string(f.at("points").size()) + " points, " + std::to_string(f.at("lines").size()) +
                  " lines, numbers " + f.at("numbers").get<std::string>();
  if (f.contains("sum")) s += ", sum " + std::to_string(f.at("sum").get<int>());
  if (f.contains("description")) s += ": " + f.at("description").get<std::string>();
  return s;
}

}  // namespace magic
