#include "magic/core/planner.hpp"

namespace magic {

std::uint64_t count_tasks(const AnyProblem& p, int depth) {
  std::uint64_t n = 0;
  auto each = [&](const std::byte*, bool) { ++n; };
  p.cut(depth, each);
  return n;
}

int split_depth_for_tasks(const AnyProblem& p, std::uint64_t target) {
  struct Enough {};
  for (int depth = 0; depth < kMaxSplitDepth; ++depth) {
    std::uint64_t n = 0;
    bool cut = false;  // some task could be cut deeper
    auto each = [&](const std::byte*, bool leaf) {
      cut = cut || !leaf;
      if (++n >= target) throw Enough{};
    };
    try {
      p.cut(depth, each);
    } catch (const Enough&) {
      return depth;
    }
    if (!cut) return depth;
  }
  return kMaxSplitDepth;
}

TaskStream::TaskStream(const AnyProblem& p, int depth, std::size_t chunk, std::uint64_t tasks)
    : chunk_(chunk ? chunk : 1), stride_(p.state_size()) {
  inline_ = tasks <= chunk_;
  if (inline_) produce(p, depth);
  else producer_ = std::thread([this, &p, depth] { produce(p, depth); });
}

TaskStream::~TaskStream() {
  {
    std::lock_guard lk(mu_);
    cancelled_ = true;
  }
  cv_.notify_all();
  if (producer_.joinable()) producer_.join();
}

bool TaskStream::next(TaskChunk& out) {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return !ready_.empty() || finished_; });
  if (ready_.empty()) {
    if (failure_) std::rethrow_exception(failure_);
    return false;
  }
  out = std::move(ready_.front());
  ready_.pop_front();
  cv_.notify_all();
  return true;
}

std::size_t TaskStream::peak_states() const {
  std::lock_guard lk(mu_);
  return peak_;
}

void TaskStream::produce(const AnyProblem& p, int depth) {
  TaskChunk cur{0, stride_, {}};
  try {
    auto each = [&](const std::byte* s, bool) {
      cur.bytes.insert(cur.bytes.end(), s, s + stride_);
      if (cur.size() == chunk_) hand_over(cur);
    };
    p.cut(depth, each);
    if (cur.size()) hand_over(cur);
  } catch (const Cancelled&) {
  } catch (...) {
    std::lock_guard lk(mu_);
    failure_ = std::current_exception();
  }
  std::lock_guard lk(mu_);
  finished_ = true;
  cv_.notify_all();
}

void TaskStream::hand_over(TaskChunk& cur) {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return inline_ || ready_.size() < kReadyChunks || cancelled_; });
  if (cancelled_) throw Cancelled{};
  const std::uint64_t next_first = cur.first + cur.size();
  ready_.push_back(std::move(cur));
  // The states alive: the ready chunks, plus one being consumed.
  peak_ = std::max(peak_, (ready_.size() + 1) * chunk_);
  cur = TaskChunk{next_first, stride_, {}};
  cur.bytes.reserve(chunk_ * stride_);
  cv_.notify_all();
}

}  // namespace magic
