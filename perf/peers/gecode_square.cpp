// The peer a user would reach for: Gecode's standard magic-square model on
// a partly filled grid (issue 47's baseline).  All-different over the
// cells, one linear equation per sum group of the kind, the givens as
// equalities; branch on the smallest domain, splitting it at its middle
// (the model of Gecode's own magic-square example, plus the givens).
//
//   peer-gecode-square [--kind K] [--seconds S] FILE
//
// FILE: one row of whitespace-separated numbers per line, 0 = blank (the
// battery's format).  The last line of stdout is JSON:
//   {"status": "found" | "none" | "timeout", "seconds": T, "nodes": N, "grid": [...]}
// "none" is Gecode's proof (the search tree exhausted); "timeout": the
// time limit stopped it first.  Exit 2 on bad arguments or input.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

namespace {

using Group = std::vector<int>;  // cells (row-major) whose values share one sum

// The kind's sum groups and their targets (the same definitions as the
// engine's docs/cli.md, written here again: the peer uses nothing of ours).
std::vector<std::pair<Group, int>> groups(int n, const std::string& kind) {
  const int line = n * (n * n + 1) / 2, pair = n * n + 1;
  auto at = [n](int r, int c) { return ((r % n + n) % n) * n + (c % n + n) % n; };
  std::vector<std::pair<Group, int>> g;
  for (int i = 0; i < n; ++i) {
    Group row, col;
    for (int j = 0; j < n; ++j) {
      row.push_back(at(i, j));
      col.push_back(at(j, i));
    }
    g.push_back({row, line});
    g.push_back({col, line});
  }
  if (kind == "semi") return g;
  const bool broken = kind == "pandiagonal" || kind == "most-perfect";
  for (int k = 0; k < (broken ? n : 1); ++k) {
    Group d, a;
    for (int i = 0; i < n; ++i) {
      d.push_back(at(i, i + k));
      a.push_back(at(i, n - 1 - i - k));
    }
    g.push_back({d, line});
    g.push_back({a, line});
  }
  if (kind == "associative") {  // cells opposite through the centre; an odd order's centre is pair / 2
    for (int c = 0; c < (n * n) / 2; ++c) g.push_back({{c, n * n - 1 - c}, pair});
    if (n % 2) g.push_back({{n * n / 2}, pair / 2});
  }
  if (kind == "most-perfect")
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        g.push_back({{at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)}, 2 * pair});
        if (r < n / 2) g.push_back({{at(r, c), at(r + n / 2, c + n / 2)}, pair});
      }
  return g;
}

class Square : public Gecode::Space {
 public:
  Gecode::IntVarArray x;

  Square(int n, const std::vector<int>& givens, const std::string& kind) : x(*this, n * n, 1, n * n) {
    Gecode::distinct(*this, x);
    for (const auto& [cells, target] : groups(n, kind)) {
      Gecode::IntVarArgs v;
      for (int c : cells) v << x[c];
      Gecode::linear(*this, v, Gecode::IRT_EQ, target);
    }
    for (int c = 0; c < n * n; ++c)
      if (givens[static_cast<std::size_t>(c)]) Gecode::rel(*this, x[c], Gecode::IRT_EQ, givens[static_cast<std::size_t>(c)]);
    Gecode::branch(*this, x, Gecode::INT_VAR_SIZE_MIN(), Gecode::INT_VAL_SPLIT_MIN());
  }
  Square(Square& s) : Gecode::Space(s) { x.update(*this, s.x); }
  Gecode::Space* copy() override { return new Square(*this); }
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "peer-gecode-square: " << why << "\nusage: peer-gecode-square [--kind K] [--seconds S] FILE\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string kind = "magic", file;
  double seconds = 60;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--kind" && i + 1 < argc) kind = argv[++i];
    else if (a == "--seconds" && i + 1 < argc) seconds = std::atof(argv[++i]);
    else if (!a.empty() && a[0] != '-' && file.empty()) file = a;
    else usage("unexpected argument '" + a + "'");
  }
  if (file.empty()) usage("no grid FILE");
  if (kind != "magic" && kind != "semi" && kind != "pandiagonal" && kind != "associative" && kind != "most-perfect")
    usage("unknown kind '" + kind + "'");
  if (!(seconds > 0)) usage("--seconds must be positive");
  std::ifstream in(file);
  if (!in) usage("cannot read " + file);
  std::vector<int> cells;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line.substr(0, line.find('#')));
    int count = 0;
    for (int v; ls >> v; ++count) cells.push_back(v);
    if (count) ++n;
  }
  if (n < 3 || static_cast<int>(cells.size()) != n * n) usage(file + ": not a square grid");
  for (int v : cells)
    if (v < 0 || v > n * n) usage(file + ": a number out of 0.." + std::to_string(n * n));

  const auto t0 = std::chrono::steady_clock::now();
  auto root = std::make_unique<Square>(n, cells, kind);
  Gecode::Search::TimeStop stop(static_cast<unsigned long int>(seconds * 1000));
  Gecode::Search::Options o;
  o.stop = &stop;
  o.threads = 1;
  Gecode::DFS<Square> engine(root.get(), o);
  std::unique_ptr<Square> sol(engine.next());
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const char* status = sol ? "found" : engine.stopped() ? "timeout" : "none";
  std::printf("{\"status\": \"%s\", \"seconds\": %.6f, \"nodes\": %lu, \"grid\": [", status, t,
              static_cast<unsigned long>(engine.statistics().node));
  if (sol)
    for (int c = 0; c < n * n; ++c) std::printf("%s%d", c ? ", " : "", sol->x[c].val());
  std::printf("]}\n");
  return 0;
}
