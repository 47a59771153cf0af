#include "magic/core/task.hpp"

#include <ctime>
#include <limits>

namespace magic {

TaskCore::TaskCore(std::size_t solution_size, const EmitPolicy& policy, const Stop& stop, Splitting split)
    : sol_(solution_size),
      policy_(policy),
      // "Keep everything" is a keep of 2^64 - 1: no byte count may wrap.
      keep_bytes_(policy.keep >= std::numeric_limits<std::size_t>::max() / solution_size
                      ? std::numeric_limits<std::size_t>::max()
                      : static_cast<std::size_t>(policy.keep) * solution_size),
      run_stop_(stop),
      split_(std::move(split)) {
  if (split_.policy.enabled && split_.spawn)
    interval_ = static_cast<unsigned>(std::clamp<std::uint64_t>(split_.policy.budget, 1, kPollInterval));
  else
    split_.policy.enabled = false;
  tick_ = interval_;
}

bool TaskCore::sends_away() {
  if (!split_.send_away) return false;
  // Forced splits (tests) send every other piece away, so one task's
  // pieces are solved both here and elsewhere.
  if (split_.policy.always) return pieces_.size() % 2 == 0;
  // Every later piece of a hand-out that went away goes the same way: the
  // idle rank gets the whole untried rest, as an idle thread would.
  if (!sending_away_) sending_away_ = split_.gauge->take_elsewhere();
  return sending_away_;
}

void TaskCore::donate_bytes(const std::byte* state) {
  if (sends_away()) {
    pieces_.push_back({kept.size(), deferred.size(), split_.send_away(state)});
    return;
  }
  pieces_.push_back({kept.size(), deferred.size()});
  split_.spawn(state);
}

void TaskCore::absorb(std::vector<std::unique_ptr<TaskCore>>& done) {
  if (pieces_.empty()) return;
  std::vector<std::byte> k, d;
  std::vector<RemotePiece> away;
  std::size_t ki = 0, di = 0, next = 0;
  const auto take = [](std::vector<std::byte>& to, const std::vector<std::byte>& from, std::size_t a, std::size_t b) {
    to.insert(to.end(), from.begin() + static_cast<std::ptrdiff_t>(a), from.begin() + static_cast<std::ptrdiff_t>(b));
  };
  for (const Piece& piece : pieces_) {
    take(k, kept, ki, piece.kept_at);
    take(d, deferred, di, piece.deferred_at);
    ki = piece.kept_at;
    di = piece.deferred_at;
    if (piece.away) {
      away.push_back({piece.away, k.size()});
      continue;
    }
    const std::unique_ptr<TaskCore>& part = done.at(next++);
    if (!part || part->aborted()) stop();
    if (!part) continue;
    record.merge(part->record);
    for (const RemotePiece& r : part->remote) away.push_back({r.id, k.size() + r.kept_at});
    take(k, part->kept, 0, part->kept.size());
    take(d, part->deferred, 0, part->deferred.size());
  }
  take(k, kept, ki, kept.size());
  take(d, deferred, di, deferred.size());
  // Each part kept its own first `keep`, so the first `keep` of the whole
  // are here; with parts still away, the coordinator cuts once they are in.
  if (away.empty() && k.size() > keep_bytes_) k.resize(keep_bytes_);
  kept = std::move(k);
  deferred = std::move(d);
  remote = std::move(away);
  pieces_.clear();
}

void TaskCore::absorb_remote(std::vector<std::unique_ptr<TaskCore>>& done) {
  pieces_.clear();
  for (const RemotePiece& r : remote) pieces_.push_back({r.kept_at, deferred.size()});
  remote.clear();
  absorb(done);
}

void TaskCore::refresh() {
  tick_ = interval_;
  if (run_stop_.requested() || nodes > node_limit_ || counts_wrapped_) {
    stop();
    return;
  }
  if (split_.policy.enabled && cut_ != kArmed && nodes - nodes_at_split_ >= split_.policy.budget &&
      (split_.policy.always || split_.gauge->hungry())) {
    armed_from_ = cut_;
    cut_ = kArmed;
    nodes_at_split_ = nodes;
    attention_ = true;
  }
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace magic
