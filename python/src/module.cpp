// magicount._core: the engine for Python (pybind11).  The Python package
// (magicount/__init__.py) holds the face; this holds what must be C++:
//
//   run(spec, options)      one search, the GIL released, Ctrl-C honoured;
//                           returns the result as --json writes it
//   Stream(spec, options)   the same search in a thread of its own, its
//                           solutions handed over through a bounded queue
//   render_svg(problem, solutions)   the picture --svg draws
//
// JSON crosses as Python objects (dict, list, str, int, float, bool, None),
// converted here, not through text.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>

#include "magic/core/error.hpp"
#include "magic/core/shard.hpp"
#include "magic/job.hpp"
#include "magic/result.hpp"
#include "report/svg.hpp"

namespace py = pybind11;
using nlohmann::json;

namespace {

// ---- JSON <-> Python ----------------------------------------------------

py::object to_py(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return py::none();
    case json::value_t::boolean: return py::bool_(j.get<bool>());
    case json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float: return py::float_(j.get<double>());
    case json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case json::value_t::array: {
      py::list l(j.size());
      for (std::size_t i = 0; i < j.size(); ++i) l[i] = to_py(j[i]);
      return l;
    }
    case json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = to_py(v);
      return d;
    }
    default: throw py::value_error("a JSON value Python cannot hold");
  }
}

// Nested as deep as the engine's JSON reader takes (magic/io.hpp), and no
// deeper: recursion without a bound would overflow the stack.
constexpr int kMaxDepth = 64;

// A Python int as JSON: signed up to 2^63 - 1, unsigned up to 2^64 - 1.
json int_from_py(py::handle h) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (!overflow) {
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    return v;
  }
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) return u;
    PyErr_Clear();
  }
  throw py::value_error("the integer " + py::repr(h).cast<std::string>().substr(0, 40) +
                        " is outside -2^63 .. 2^64 - 1");
}

json from_py(py::handle h, int depth = 0) {
  if (depth > kMaxDepth) throw py::value_error("a value nested deeper than " + std::to_string(kMaxDepth) + " levels");
  if (h.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(h)) return h.cast<bool>();
  if (py::isinstance<py::int_>(h)) return int_from_py(h);
  if (py::isinstance<py::float_>(h)) return h.cast<double>();
  if (py::isinstance<py::str>(h)) return h.cast<std::string>();
  if (py::isinstance<py::dict>(h)) {
    json o = json::object();
    for (const auto& [k, v] : h.cast<py::dict>()) {
      if (!py::isinstance<py::str>(k)) throw py::value_error("a spec's keys are strings, got " + py::repr(k).cast<std::string>());
      o[k.cast<std::string>()] = from_py(v, depth + 1);
    }
    return o;
  }
  if (py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h)) {
    json a = json::array();
    for (const auto& v : h) a.push_back(from_py(v, depth + 1));
    return a;
  }
  throw py::value_error("cannot pass " + py::repr(h).cast<std::string>() + " to the engine (JSON values only)");
}

// Becomes OSError in Python (registered in the module below).
struct OsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The engine's errors as Python's: bad input is a ValueError with the
// message the CLI prints; a file the system refuses is an OSError.  Only
// C++ exceptions here: this runs without the GIL too.
template <class F>
auto translating(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const magic::SpecError& e) {
    throw py::value_error(e.what());
  } catch (const magic::MemoryLimitError& e) {
    throw py::value_error(std::string(e.what()) + " (raise dedup_memory)");
  } catch (const magic::Error& e) {  // checkpoint, I/O
    throw OsError(e.what());
  }
}

// A keyword the family does not take is the engine's SpecError too.
magic::Job make_job(const py::dict& spec) {
  const json s = from_py(spec);
  return translating([&] { return magic::Job::make(s); });
}

// The result as --json writes it (apps/cli_run.cpp: problem, then the
// library's fields).
py::dict result_dict(const magic::Job& job, const magic::RunResult& r) {
  json out = {{"problem", job.problem()}};
  out.update(job.result_fields(r));
  return to_py(out);
}

// ---- Ctrl-C ---------------------------------------------------------------

// While a search runs with the GIL released, Python cannot run its SIGINT
// handler, so this one sets the search's stop flag and passes the signal
// on to Python's C handler, which records it; once the search has stopped
// (its checkpoint saved), PyErr_CheckSignals raises KeyboardInterrupt.
// Only the main thread gets Python's signals; elsewhere nothing changes.
// With SIGINT ignored or left to its default (signal.signal(SIGINT,
// SIG_DFL): Ctrl-C kills), nothing is taken over either.
std::atomic<std::atomic<bool>*> g_stop{nullptr};  // the running search's flag (main thread only)
unsigned long g_main_thread = 0;                  // threading.main_thread().ident, read at import
struct sigaction g_python_handler {};

extern "C" void on_sigint(int sig) {
  if (std::atomic<bool>* stop = g_stop.load()) stop->store(true);
  if (g_python_handler.sa_flags & SA_SIGINFO) g_python_handler.sa_sigaction(sig, nullptr, nullptr);
  else g_python_handler.sa_handler(sig);
}

class SigintScope {
 public:
  explicit SigintScope(std::atomic<bool>& stop) : active_(PyGILState_Check() && is_main_thread() && python_handles()) {
    if (!active_) return;
    g_stop.store(&stop);
    struct sigaction ours {};
    ours.sa_handler = on_sigint;
    sigemptyset(&ours.sa_mask);
    ::sigaction(SIGINT, &ours, &g_python_handler);
  }
  ~SigintScope() {
    if (!active_) return;
    ::sigaction(SIGINT, &g_python_handler, nullptr);
    g_stop.store(nullptr);
  }
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;

 private:
  static bool is_main_thread() { return PyThread_get_thread_ident() == g_main_thread; }
  // SIGINT has a handler (Python's), not SIG_DFL or SIG_IGN.
  static bool python_handles() {
    struct sigaction now {};
    if (::sigaction(SIGINT, nullptr, &now) != 0) return false;
    if (now.sa_flags & SA_SIGINFO) return now.sa_sigaction != nullptr;
    return now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN && now.sa_handler != nullptr;
  }
  bool active_;
};

// The run options by their Python names: the engine's reader, so the
// checks and their messages are the library's (magic/run_options.hpp).
magic::RunOptions run_options(const py::dict& o) {
  const json j = from_py(o);
  return translating([&] { return magic::run_options_from_json(j); });
}

// ---- run --------------------------------------------------------------------

py::dict run(const py::dict& spec, const py::dict& options) {
  const magic::Job job = make_job(spec);
  magic::RunOptions ro = run_options(options);
  std::atomic<bool> stop{false};
  ro.interrupt = &stop;
  magic::RunResult r;
  {
    const SigintScope sigint(stop);
    py::gil_scoped_release nogil;
    r = translating([&] { return job.run(ro); });
  }
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  return result_dict(job, r);
}

// ---- Stream -------------------------------------------------------------

// One search in a thread of its own; its solutions wait in a queue of at
// most kCapacity, so a slow reader holds the search back instead of
// memory filling up.
class Stream {
 public:
  static constexpr std::size_t kCapacity = 4096;

  Stream(const py::dict& spec, const py::dict& options) : job_(make_job(spec)) {
    magic::RunOptions ro = run_options(options);
    ro.solutions = std::numeric_limits<std::uint64_t>::max();
    ro.interrupt = &stop_;
    ro.on_solution = [this](const json& s) { push(s); };
    problem_ = to_py(job_.problem());
    worker_ = std::thread([this, ro] { work(ro); });
  }
  ~Stream() { close(); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  py::object problem() const { return problem_; }

  // The next solutions, up to `most` at a time; an empty list at the end.
  py::list next_batch(std::size_t most) {
    std::vector<json> got;
    {
      const SigintScope sigint(stop_);
      py::gil_scoped_release nogil;
      std::unique_lock lock(mutex_);
      while (queue_.empty() && !finished_ && !stop_.load())
        ready_.wait_for(lock, std::chrono::milliseconds(100));
      while (!queue_.empty() && got.size() < most) {
        got.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      room_.notify_all();
    }
    if (PyErr_CheckSignals() != 0) {
      close();
      throw py::error_already_set();
    }
    py::list out(got.size());
    for (std::size_t i = 0; i < got.size(); ++i) out[i] = to_py(got[i]);
    if (got.empty()) finish();
    return out;
  }

  // The run's result once the stream has ended (None before).
  py::object result() const { return result_; }

  // Stops the search (its checkpoint, if any, is saved) and waits for it.
  void close() {
    stop_.store(true);
    room_.notify_all();
    if (worker_.joinable()) {
      py::gil_scoped_release nogil;
      worker_.join();
    }
  }

 private:
  void push(const json& s) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return queue_.size() < kCapacity || stop_.load(); });
    if (stop_.load()) return;
    queue_.push_back(s);
    ready_.notify_one();
  }

  void work(const magic::RunOptions& ro) {
    try {
      run_ = job_.run(ro);
    } catch (...) {
      error_ = std::current_exception();
    }
    const std::lock_guard lock(mutex_);
    finished_ = true;
    ready_.notify_all();
  }

  // At the end: the thread joined, its error raised or its result kept.
  void finish() {
    close();
    if (error_) {
      const std::exception_ptr e = std::exchange(error_, nullptr);
      translating([&] { std::rethrow_exception(e); });
    }
    if (result_.is_none()) result_ = result_dict(job_, run_);
  }

  magic::Job job_;
  py::object problem_;
  py::object result_ = py::none();
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<json> queue_;
  bool finished_ = false;
  magic::RunResult run_;
  std::exception_ptr error_;
  std::thread worker_;
};

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "magicount's engine (use the magicount package, not this module)";
  g_main_thread = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const OsError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    }
  });
  m.def("run", &run, py::arg("spec"), py::arg("options"));
  py::class_<Stream>(m, "Stream")
      .def(py::init<const py::dict&, const py::dict&>())
      .def_property_readonly("problem", &Stream::problem)
      .def("next_batch", &Stream::next_batch, py::arg("most") = 256)
      .def_property_readonly("result", &Stream::result)
      .def("close", &Stream::close);
  m.def("render_svg", [](const py::dict& problem, const py::list& solutions) {
    std::vector<json> sols;
    for (const auto& s : solutions) sols.push_back(from_py(s));
    const json p = from_py(problem);
    return translating([&] { return magic::render_svg(p, sols); });
  });
  m.def("family_names", [] { return magic::family_names(); });
  // The options table's rows that Python has (magic/run_options.hpp).
  m.def("run_option_names", [] {
    py::list names;
    for (const magic::OptionRow& row : magic::kOptions)
      if (!row.not_in_python) names.append(row.name);
    return names;
  });
  m.def("build_info", [] {
    return py::dict(py::arg("version") = magic::BuildInfo::version(), py::arg("source") = magic::BuildInfo::source(),
                    py::arg("compiler") = magic::BuildInfo::compiler());
  });
}
