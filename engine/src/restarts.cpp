#include "magic/core/restarts.hpp"

#include "magic/core/scheduler.hpp"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#ifdef __linux__
#include <sched.h>
#endif

#include <algorithm>
#include <chrono>
#include <exception>
#include <stdexcept>

namespace magic {

Walk plan_walk(const RestartShape& shape, std::uint32_t index, int first, std::uint64_t planned) {
  double budget = shape.first;  // x grow a walk
  for (std::uint32_t i = 0; i < index; ++i) budget = std::min(budget * shape.grow, 1e18);
  Walk w;
  w.index = index;
  w.first = w.end = first;
  w.phases = shape.phases;
  for (int p = first; p < shape.phases; ++p) {
    // A phase's budget, cut to what the whole search has left: none left, no phase.
    if (shape.total && planned >= shape.total) return w;
    const std::uint64_t left = shape.total ? shape.total - planned : ~std::uint64_t{0};
    const std::uint64_t b = std::min(static_cast<std::uint64_t>(budget), left);
    const std::uint64_t weight = shape.weight[static_cast<std::size_t>(p)];
    w.nodes[static_cast<std::size_t>(p)] = b > left / weight ? left : b * weight;  // (no wrap past 2^64)
    planned += w.nodes[static_cast<std::size_t>(p)];
    ++w.end;
  }
  w.planned_after = planned;
  return w;
}

// ---- SideLanes --------------------------------------------------------------
//
// A round posts side k in slot k; a lane (or round() itself, once it waits)
// takes a posted slot, runs it and marks it done:
//
//   idle -> posted (round) -> taken (a lane or round) -> done -> idle (round)
struct SideLanes::Impl {
  enum State : int { kIdle, kPosted, kTaken, kDone };
  struct Slot {
    std::atomic<int> state{kIdle};
    const std::function<void(std::size_t)>* side = nullptr;
    std::exception_ptr error;
  };
  explicit Impl(std::size_t lanes) : slots(lanes) {}

  // A lane that starts on the search's own core moves off it once, within
  // the process's affinity (and stays off by itself, being busy): a woken
  // worker is queued there (see SideLanes), and the kernel took
  // milliseconds to move it, as long as a whole round of a grid solved in
  // milliseconds.  Not pinned: the process's own mask is put back at once.
  static void move_off(int cpu) {
#ifdef __linux__
    cpu_set_t allowed, others;
    if (cpu < 0 || sched_getcpu() != cpu || sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    others = allowed;
    CPU_CLR(cpu, &others);
    if (CPU_COUNT(&others) == 0) return;
    sched_setaffinity(0, sizeof others, &others);
    sched_setaffinity(0, sizeof allowed, &allowed);
#else
    (void)cpu;
#endif
  }
  // Waiting: a pause a spin, then yields, then short sleeps.  A thread
  // woken by its own timer wakes on its own core, not on the waker's.
  static void relax(unsigned spins) {
#if defined(__x86_64__) || defined(__i386__)
    if (spins < 64) return __builtin_ia32_pause();
#endif
    if (spins < 256) return std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  // Takes slot k if it is posted; false when another thread has it.
  bool take(std::size_t k) {
    int posted = kPosted;
    return slots[k].state.load(std::memory_order_relaxed) == kPosted &&
           slots[k].state.compare_exchange_strong(posted, kTaken, std::memory_order_acquire);
  }
  void run(std::size_t k) {
    try {
      (*slots[k].side)(k);
    } catch (...) {
      slots[k].error = std::current_exception();
    }
    slots[k].state.store(kDone, std::memory_order_release);
  }
  void lane() {
    hand_off.in_task();
    move_off(home);
    for (unsigned spins = 0; !quit.load(std::memory_order_acquire);) {
      bool ran = false;
      for (std::size_t k = 0; k < slots.size() && !ran; ++k)
        if (take(k)) {
          run(k);
          ran = true;
        }
      spins = ran ? 0 : spins + 1;
      if (!ran) relax(spins);
    }
    hand_off.task_done();
  }

  std::vector<Slot> slots;
#ifdef __linux__
  const int home = sched_getcpu();  // the search's core
#else
  const int home = -1;
#endif
  std::atomic<bool> quit{false};
  HandOff hand_off;  // what ThreadSanitizer cannot see through oneTBB (core/scheduler.hpp)
  tbb::task_group group;
};

SideLanes::SideLanes(std::size_t lanes) : impl_(std::make_unique<Impl>(lanes)) {
  // Enqueued, not spawned: a spawned task may wait in this thread's pool
  // until this thread waits on the group, which it does only at the end.
  // The lane is handed the Impl itself, not this object's pointer to it:
  // ThreadSanitizer sees the hand-off only from lane()'s first line on.
  impl_->hand_off.to_tasks();
  Impl* const im = impl_.get();
  for (std::size_t k = 0; k < lanes; ++k) tbb::this_task_arena::enqueue(im->group.defer([im] { im->lane(); }));
}

SideLanes::~SideLanes() {
  impl_->quit.store(true, std::memory_order_release);
  impl_->group.wait();  // a lane no worker started runs here, and ends at once
  impl_->hand_off.back_to_caller();
}

void SideLanes::round(std::size_t n, const std::function<void(std::size_t)>& side, const std::function<bool()>& first,
                      const std::function<bool()>& stopped, const std::function<void()>& cancel) {
  Impl& im = *impl_;
  if (n > im.slots.size()) throw std::logic_error("SideLanes: more sides than lanes");
  for (std::size_t k = 0; k < n; ++k) {
    im.slots[k].side = &side;
    im.slots[k].error = nullptr;
    im.slots[k].state.store(Impl::kPosted, std::memory_order_release);
  }
  bool needed = true;
  std::exception_ptr error;
  try {
    needed = !first();
  } catch (...) {
    error = std::current_exception();
    needed = false;
  }
  if (!needed) cancel();
  for (std::size_t k = 0; k < n; ++k) {
    for (unsigned spins = 0; im.slots[k].state.load(std::memory_order_acquire) != Impl::kDone; ++spins) {
      if (needed && stopped()) {  // a stop of the run, passed on to the sides
        needed = false;
        cancel();
      }
      if (im.take(k)) {
        if (needed) im.run(k);
        else im.slots[k].state.store(Impl::kDone, std::memory_order_release);
        continue;
      }
      Impl::relax(spins);
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (!error) error = im.slots[k].error;
    im.slots[k].state.store(Impl::kIdle, std::memory_order_relaxed);
  }
  if (error) std::rethrow_exception(error);
}


}  // namespace magic
