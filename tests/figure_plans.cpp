// figure-plans [NAME...]: prints figure_compiled_plans.inc for the catalog
// figures named (default: the ones this build compiles).
// scripts/figure-plans.sh writes it into engine/src/.
#include <iostream>

#include "figure/figure_compiled.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> names(argv + 1, argv + argc);
  if (names.empty())
    for (const magic::FigureCompiled* c : magic::FigureCompiler::all()) names.emplace_back(c->name);
  try {
    std::cout << magic::FigureCompiler::file(names);
  } catch (const std::exception& e) {
    std::cerr << "figure-plans: " << e.what() << "\n";
    return 2;
  }
}
