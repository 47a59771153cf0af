#pragma once
// A problem as the engine sees it: one interface, so the runner, the
// merger, the planner's stream, the journal and the cluster are compiled
// once for every problem instead of once per problem type.  States and
// solutions cross it as bytes (both are trivially copyable); a call crosses
// it once per task, per handed-out task and per deferred solution, never
// per node: the walks stay templates of their problem (P::solve is
// instantiated with TaskContext<P>, core/task.hpp).
#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "magic/core/task.hpp"
#include "magic/task_record.hpp"

namespace magic {

// cut()'s sink: the bytes of one state, and whether it is a leaf.
using ByteSink = SinkRef<const std::byte*>;

class AnyProblem {
 public:
  virtual ~AnyProblem() = default;
  virtual nlohmann::json describe() const = 0;
  virtual const char* describe_levels() const = 0;
  virtual const char* search() const = 0;  // P::kSearch
  virtual Emits emits() const = 0;
  virtual bool has_group() const = 0;
  virtual std::string kernel() const = 0;  // "" unless the problem names its kernel
  // "solutions", or "additive" for a problem that counts without
  // enumerating (its records' digest is the additive one).
  virtual const char* digest_kind() const = 0;
  // Whether an enumeration also sums the additive digest (P::additive).
  virtual bool has_additive() const = 0;
  virtual std::size_t state_size() const = 0;
  virtual std::size_t solution_size() const = 0;

  virtual void cut(int depth, ByteSink sink) const = 0;
  // A context for one task of this problem; solve() takes only those.
  virtual std::unique_ptr<TaskCore> context(const EmitPolicy& policy, const Stop& stop,
                                            TaskCore::Splitting split = {}) const = 0;
  virtual void solve(const std::byte* state, TaskCore& ctx) const = 0;

  virtual nlohmann::json to_json(const std::byte* solution) const = 0;
  // count_solution() of a canonical solution.
  virtual void count(const std::byte* canonical, TaskRecord& rec) const = 0;
};

// The engine's view of a P it does not own: build it where the P lives.
// Each problem type's instance is compiled once, in engine/src/run_*.cpp,
// and declared extern in the problem's header (magic/instances.hpp).
template <Problem P>
class Erased final : public AnyProblem {
 public:
  using State = typename P::State;
  using Solution = typename P::Solution;

  explicit Erased(const P& p) : p_(p) {}

  nlohmann::json describe() const override { return p_.describe(); }
  const char* describe_levels() const override { return p_.describe_levels(); }
  const char* search() const override { return P::kSearch; }
  Emits emits() const override { return p_.emits(); }
  bool has_group() const override { return p_.has_group(); }
  std::string kernel() const override {
    if constexpr (requires { std::string(p_.kernel()); }) return p_.kernel();
    else return {};
  }
  const char* digest_kind() const override {
    if constexpr (Counts<P>) return "additive";
    else return "solutions";
  }
  bool has_additive() const override { return HasAdditive<P>; }
  std::size_t state_size() const override { return sizeof(State); }
  std::size_t solution_size() const override { return sizeof(Solution); }

  void cut(int depth, ByteSink sink) const override {
    auto each = [&sink](const State& s, bool leaf) { sink(reinterpret_cast<const std::byte*>(&s), leaf); };
    p_.cut(depth, each);
  }
  std::unique_ptr<TaskCore> context(const EmitPolicy& policy, const Stop& stop,
                                    TaskCore::Splitting split = {}) const override {
    return std::make_unique<TaskContext<P>>(p_, policy, stop, std::move(split));
  }
  void solve(const std::byte* state, TaskCore& ctx) const override {
    p_.solve(load<State>(state), static_cast<TaskContext<P>&>(ctx));
  }
  nlohmann::json to_json(const std::byte* solution) const override { return p_.to_json(load<Solution>(solution)); }
  void count(const std::byte* canonical, TaskRecord& rec) const override {
    // (An unchecked addition of at most kOrbitBound wraps at most once.)
    const std::uint64_t before = rec.total;
    if (!count_solution(p_, load<Solution>(canonical), rec) || rec.total < before) count_overflow("total counts");
  }

 private:
  // The bytes may sit anywhere in a buffer: copied, never cast.
  template <class T>
  static T load(const std::byte* b) {
    T v;
    std::memcpy(static_cast<void*>(&v), b, sizeof v);
    return v;
  }

  const P& p_;
};

}  // namespace magic
