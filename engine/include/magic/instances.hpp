#pragma once
// The instances the library compiles.  Each problem type's runner and its
// two walks (the search itself, most of the build time) are compiled once,
// in engine/src/run_<family>*.cpp, and declared extern at the end of the
// problem's own header, so that every other file that includes it (the
// cluster, the tests, the benchmarks) uses those instances instead of
// compiling the type again, and a file that does not include it does not
// depend on it.  Only declarations here: the runner is magic/runner.hpp.
#include "magic/core/problem.hpp"
#include "magic/run_options.hpp"

namespace magic {

template <Problem P>
class TaskContext;  // magic/core/task.hpp
template <Problem P>
RunResult run(const P& p, const RunOptions& opt);  // magic/runner.hpp

}  // namespace magic

// PREFIX: empty to instantiate, extern to declare; the problem type is the
// rest (it may hold commas).
#define MAGIC_RUN_AS(PREFIX, ...)                                                           \
  PREFIX template RunResult run<__VA_ARGS__>(const __VA_ARGS__&, const RunOptions&);        \
  PREFIX template void __VA_ARGS__::solve<TaskContext<__VA_ARGS__>>(const __VA_ARGS__::State&, \
                                                                    TaskContext<__VA_ARGS__>&) const;
#define MAGIC_CUT_AS(PREFIX, ...) PREFIX template void __VA_ARGS__::cut(int, SinkRef<__VA_ARGS__::State>) const;
#define MAGIC_SEARCH_AS(PREFIX, ...) MAGIC_RUN_AS(PREFIX, __VA_ARGS__) MAGIC_CUT_AS(PREFIX, __VA_ARGS__)
