// Fuzzes the graph reader (`magicount graph FILE`): graph6 (checked before
// nauty reads it), edge lists and JSON, then the problem's set-up (nauty's
// automorphisms and canonical form, the labelling's figure and its plans),
// as a run would.  The first byte picks the labelling.  magic::Error is the
// expected way to refuse input; anything else escaping, a crash or a
// sanitizer report is a finding.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "graph/graph.hpp"
#include "magic/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* kinds[] = {"edge-magic-total",  "vertex-magic-total", "super-edge-magic-total",
                                "super-vertex-magic-total", "vertex-magic-edge", "edge-magic-vertex",
                                "distance-magic"};
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const magic::Graph g = magic::graph_from_text(text, "graph");
    // What the reader promises to the problem.
    if (g.n() < 1 || g.n() > magic::kGraphMaxVertices || g.m() > magic::kGraphMaxEdges) std::abort();
    for (const auto& [u, v] : g.edges)
      if (u < 0 || v >= g.n() || u >= v) std::abort();
    const nlohmann::json spec{{"name", "graph"}, {"graph", magic::graph_json(g)}, {"labeling", kinds[data[0] % 7]}};
    const magic::GraphProblem p(magic::graph_spec_from_json(spec));
    if (p.group_order() == 0) std::abort();
  } catch (const magic::Error&) {
  }
  return 0;
}
