#pragma once
// The ordered merger: the one place that folds task records into the result.
//
// Tasks finish in any order; the merger folds task k only once tasks 0..k-1
// are folded, so the totals, the order of handed-out solutions, the first
// `limit` solutions and the digest are the same for any thread count,
// any scheduler and any resume.  It also appends each whole task to the
// checkpoint journal the moment it finishes, not when it is folded: one long
// task must not hold every later finished one in memory, where a kill would
// lose them.  The journal is keyed by task, so a resume folds its records in
// their place whatever order they lie in.  Tasks run with one of three dedup
// paths:
//
//   generator         the problem emits one member per orbit: count it
//   canonical-filter  it emits every image: count those equal to their canonical form
//   hash-set          deferred pairs go through one set, in task order
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/canonical_set.hpp"
#include "magic/journal.hpp"
#include "magic/core/any_problem.hpp"
#include "magic/core/task.hpp"
#include "magic/run_options.hpp"

namespace magic {

struct MergePolicy {
  bool hash_set = false;
  std::uint64_t solutions = 0;   // how many to hand to on_solution
  std::uint64_t limit = 0;  // 0: exhaustive
  std::size_t dedup_memory = 0;  // bytes, hash set only
  std::function<void(const nlohmann::json&)> on_solution;
  // The window between running and handing out: tasks that finish ahead of
  // the one being folded keep at most this many bytes of solutions in
  // memory; the rest wait in a spill file (SpillFile) until their turn.
  std::size_t hold_bytes = kDefaultHoldBytes;
  std::string spill_directory;  // "": $TMPDIR or /tmp
};

// Solutions of tasks that finished ahead of their turn, on disk.  The file
// is unlinked as soon as it is made, so nothing is left behind, even by a
// kill -9.  Made at the first spill only.
class SpillFile {
 public:
  explicit SpillFile(std::string directory) : directory_(std::move(directory)) {}
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;
  // Appends bytes; returns where they start.  IoError if the disk refuses.
  std::uint64_t write(const std::vector<std::byte>& bytes);
  void read(std::uint64_t at, std::vector<std::byte>& into) const;  // into.size() bytes

 private:
  void open();
  std::string directory_;
  int fd_ = -1;
  std::uint64_t end_ = 0;
};

class OrderedMerger {
 public:
  // Asks `stop` to stop the run at the limit, or when folding fails.
  OrderedMerger(const AnyProblem& p, MergePolicy policy, Journal* checkpoint, Stop& stop);

  // The next tasks to fold, in order: `ids[k]` is the task index of the
  // chunk's k-th task to run; `resumed` (ascending) are the chunk's tasks the
  // checkpoint holds, folded from it in their place among them, so their
  // solutions are handed out in task order.  Every task of the previous
  // chunk must be finished.
  void begin_chunk(std::vector<std::uint64_t> ids, std::vector<std::uint64_t> resumed = {});

  // What each task's context needs to know.
  static EmitPolicy emit_policy(const AnyProblem& p, const MergePolicy& m) {
    return {p.emits(), m.hash_set || m.limit > 0, m.solutions, m.limit};
  }
  EmitPolicy emit_policy() const { return emit_policy(p_, policy_); }

  // Hands over this run's k-th task (null: skipped, never run), run by
  // build `source` (empty: this process's; a cluster's other ranks may
  // differ), and folds every task that can now be folded in order;
  // `after()` then runs under the same lock (progress).  Thread-safe.
  void finish(std::size_t k, std::unique_ptr<TaskCore> ctx, const std::function<void()>& after,
              const std::string& source = {});

  // Runs f under the merger's lock, where folded() and total() hold still (progress).
  void locked(const std::function<void()>& f);

  const TaskRecord& total() const { return total_; }
  std::uint64_t folded() const { return folded_before_ + next_; }
  std::uint64_t tasks_run() const { return tasks_run_; }
  bool exhaustive() const { return exhaustive_; }
  std::uint64_t spilled() const { return spilled_; }  // tasks whose solutions went to the spill file

 private:
  struct Slot {
    std::unique_ptr<TaskCore> ctx;
    bool done = false;
    // Where ctx's solutions wait: in ctx (held_ counts them), or spilled
    // (then ctx->kept and ctx->deferred are empty and only sized here).
    bool spilled = false;
    std::uint64_t spilled_at = 0;
    std::size_t kept_bytes = 0, deferred_bytes = 0;
  };
  bool defer() const { return emit_policy().defer; }
  // A task that ran to its end and counts as one (not deferred, not aborted).
  bool folds_as_a_task(const Slot& s) const { return s.ctx && !defer() && !s.ctx->aborted(); }

  void save(std::uint64_t id, Slot& s, const std::string& source);
  void hold_or_spill(Slot& s);
  void take_back(Slot& s);
  std::vector<nlohmann::json> listed(const TaskCore& c) const;
  void fold(const Slot& s);
  void fold_deferred(const TaskCore& c);
  void add_effort(const TaskRecord& r);
  void hand_out(const nlohmann::json& s);
  bool wants_more() const { return handed_ < policy_.solutions && policy_.on_solution; }
  void resume_below(std::uint64_t id);

  const AnyProblem& p_;
  MergePolicy policy_;
  static constexpr std::uint64_t kNoTask = ~std::uint64_t{0};
  std::vector<std::uint64_t> ids_;
  std::vector<std::uint64_t> resumed_;
  std::size_t next_resumed_ = 0;
  std::vector<Slot> slots_;
  Journal* checkpoint_;
  std::optional<CanonicalSet> set_;
  SpillFile spill_;
  std::size_t held_ = 0;  // bytes of solutions in slots ahead of next_
  std::uint64_t spilled_ = 0;
  std::mutex mu_;
  std::size_t next_ = 0;
  std::uint64_t folded_before_ = 0;  // tasks of earlier chunks
  std::uint64_t handed_ = 0;
  std::uint64_t tasks_run_ = 0;
  bool exhaustive_ = true;
  TaskRecord total_;
  Stop& stop_;
};

}  // namespace magic
