// A program of its own linking the installed engine: the {8/2} stars.
#include <iostream>

#include "magic/job.hpp"

int main() {
  const magic::Job job = magic::Job::make({{"name", "star"}, {"n", 8}});
  const magic::RunResult r = job.run(magic::RunOptions{});
  std::cout << "{8/2} stars: " << r.unique << " (up to symmetry), " << r.total << " in all\n";
}
