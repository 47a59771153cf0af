#pragma once
// The instances the library compiles.  Each problem type's erased face (the
// engine's view of it, core/any_problem.hpp) and its two walks (the search
// itself, most of the build time) are compiled once, in
// engine/src/run_<family>*.cpp, and declared extern at the end of the
// problem's own header, so that every other file that includes it (the
// cluster, the tests, the benchmarks) uses those instances instead of
// compiling the type again.  The engine around them is compiled once for
// every type (engine/src/runner.cpp).
#include "magic/core/any_problem.hpp"
#include "magic/core/problem.hpp"
#include "magic/core/task.hpp"

// PREFIX: empty to instantiate, extern to declare; the problem type is the
// rest (it may hold commas).
#define MAGIC_RUN_AS(PREFIX, ...)                                                               \
  PREFIX template class Erased<__VA_ARGS__>;                                                    \
  PREFIX template void __VA_ARGS__::solve<TaskContext<__VA_ARGS__>>(const __VA_ARGS__::State&, \
                                                                    TaskContext<__VA_ARGS__>&) const;
#define MAGIC_CUT_AS(PREFIX, ...) PREFIX template void __VA_ARGS__::cut(int, SinkRef<__VA_ARGS__::State>) const;
#define MAGIC_SEARCH_AS(PREFIX, ...) MAGIC_RUN_AS(PREFIX, __VA_ARGS__) MAGIC_CUT_AS(PREFIX, __VA_ARGS__)
