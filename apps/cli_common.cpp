#include "cli_common.hpp"

#include "commands.hpp"
#include "magic/io.hpp"
#include "report/svg.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cli {

std::vector<Command>& command_registry() {
  static std::vector<Command> all;
  return all;
}

std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

namespace {
std::atomic<int> g_signal{0};         // the first stop signal received
std::atomic<bool> g_holding{false};   // a result is being written (FinalWrite)
std::atomic<int> g_held{0};           // a second signal that came meanwhile
}

// The first signal asks the run to stop cleanly (the runner polls the flag);
// a second one means "now": exit at once.  The journal on disk stays valid
// because a torn last line is ignored on resume.  While the result is being
// written, "now" waits for the write's end, so stdout never holds half a
// document.  (A flag, not a signal mask: the handler may run on any thread.)
extern "C" void magic_on_signal(int sig) {
  int none = 0;
  if (!g_signal.compare_exchange_strong(none, sig)) {
    if (!g_holding.load()) ::_exit(128 + sig);
    g_held.store(sig);
    return;
  }
  interrupt_flag().store(true);
}

FinalWrite::FinalWrite() { g_holding.store(true); }

FinalWrite::~FinalWrite() {
  g_holding.store(false);
  if (const int sig = g_held.exchange(0)) {
    std::fflush(nullptr);
    ::_exit(128 + sig);
  }
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = magic_on_signal;
  sa.sa_flags = SA_RESTART;  // a slow write or read goes on after the flag is set
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

int interrupt_exit_code() {
  const int sig = g_signal.load();
  return sig ? 128 + sig : 128 + SIGINT;
}

// Whole numbers are taken as written: decimal digits only, no sign, no
// exponent, and no silent wrap (CLI11 alone reads "-1" into an unsigned as
// 2^64-1).  The text is handed on without its leading zeros, since CLI11
// reads "010" as octal 8.
const CLI::Validator& whole_number() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        std::uint64_t n = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (s.empty() || s[0] == '+' || ec != std::errc() || end != s.data() + s.size())
          return "expected a whole number >= 0, got '" + s + "'";
        s = std::to_string(n);
        return "";
      },
      "UINT");
  return v;
}

// Seconds: a finite number in [0, 3600] (CLI::Range lets "nan" through).
const CLI::Validator& seconds_up_to_an_hour() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        double x = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(x) || x < 0 || x > magic::run_limits::kMaxCheckpointInterval)
          return "expected seconds from 0 to 3600, got '" + s + "'";
        return "";
      },
      "SECONDS");
  return v;
}

// An output or checkpoint path: "" is a mistake, not "no file".
const CLI::Validator& file_name() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string { return s.empty() ? "needs a file name, got ''" : ""; }, "FILE");
  return v;
}

namespace {
// A row of the options table (magic/run_options.hpp): flags, help, range.
const magic::OptionRow& row(const char* name) {
  const magic::OptionRow* r = magic::option_row(name);
  if (!r) throw std::logic_error(std::string("no options-table row '") + name + "'");
  return *r;
}
// kNoBound: any value of T (a count up to 2^64 - 1, as the JSON reader takes).
template <class T>
CLI::Range range_of(const magic::OptionRow& r) {
  return CLI::Range(static_cast<T>(r.lo), r.hi == magic::kNoBound ? std::numeric_limits<T>::max() : static_cast<T>(r.hi));
}
// An option of the table bound to `value`.
template <class T>
CLI::Option* add_row(CLI::App* app, const char* name, T& value, const std::string& more = "") {
  const magic::OptionRow& r = row(name);
  return app->add_option(r.flags, value, r.help + more);
}
CLI::Option* add_flag_row(CLI::App* app, const char* name, bool& value) {
  const magic::OptionRow& r = row(name);
  return app->add_flag(r.flags, value, r.help);
}
}  // namespace

void add_common(CLI::App* app, Common& c, const std::string& levels) {
  add_row(app, "threads", c.threads)->transform(whole_number() & range_of<unsigned>(row("threads")));
  add_row(app, "split_depth", c.split_depth,
          "; " + levels + " (default: 0 for a search of at most " + std::to_string(magic::kProbeNodes) +
              " nodes, else the first depth with " + std::to_string(magic::kTargetTasks) + " tasks)")
      ->transform(whole_number() & range_of<int>(row("split_depth")));
  add_row(app, "split_nodes", c.split_nodes)
      ->transform(whole_number() & range_of<std::uint64_t>(row("split_nodes")))
      ->capture_default_str();
  add_flag_row(app, "adaptive", c.no_adaptive);
  add_row(app, "json", c.json)->check(file_name());
  add_row(app, "solutions", c.solutions)->capture_default_str();
  add_row(app, "solutions_file", c.solutions_file)->check(file_name());
  add_row(app, "limit", c.limit)->transform(whole_number());
  add_row(app, "shard", c.shard)->capture_default_str();
  add_row(app, "checkpoint", c.checkpoint)->check(file_name());
  add_row(app, "checkpoint_interval", c.checkpoint_interval)->check(seconds_up_to_an_hour())->capture_default_str();
  add_row(app, "dedup", c.dedup)->check(CLI::IsMember({"auto", "hash-set"}))->capture_default_str();
  add_row(app, "dedup_memory", c.dedup_memory_mib)
      ->transform(whole_number() & range_of<std::size_t>(row("dedup_memory")))
      ->capture_default_str();
  add_flag_row(app, "quiet", c.quiet);
}

void add_svg_option(CLI::App* app, Common& c) { add_row(app, "svg", c.svg)->check(file_name()); }

namespace {

struct Output {
  const char* flag;
  const std::string& path;
};

// The files a run may write, by their flags.
std::vector<Output> outputs_of(const Common& c) {
  return {{"--json", c.json}, {"--solutions-file", c.solutions_file}, {"--svg", c.svg}, {"--checkpoint", c.checkpoint}};
}

}  // namespace

static bool stdout_open_for_writing() {
  const int flags = ::fcntl(STDOUT_FILENO, F_GETFL);
  return flags != -1 && (flags & O_ACCMODE) != O_RDONLY;
}

void check_not_input(const char* flag, const std::string& output, const std::string& input) {
  if (output.empty() || output == "-" || input.empty() || input == "-") return;
  if (magic::same_file(output, input))
    throw UsageError(std::string(flag) + " " + output + " is the input " + input +
                     "; it would be replaced: write the result to another file");
}

void check_not_input(const Common& c, const std::string& input) {
  for (const Output& o : outputs_of(c)) check_not_input(o.flag, o.path, input);
}

// "-", or a path that is this process's stdout under another name
// (/dev/stdout, /dev/fd/1, a link to either, or the very file or pipe
// stdout was redirected to).
static bool names_stdout(const std::string& path) {
  if (path == "-") return true;
  if (path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1") return true;
  struct stat out {}, st {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && (S_ISREG(out.st_mode) || S_ISFIFO(out.st_mode)) &&
         ::stat(path.c_str(), &st) == 0 &&
         st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

bool summary_on_stdout(const Common& c) {
  return !c.quiet && c.json != "-" && c.solutions_file != "-" && c.svg != "-";
}

void check_outputs(const Common& c) {
  if (!c.checkpoint.empty()) {
    if (names_stdout(c.checkpoint)) throw UsageError("--checkpoint needs a file, not stdout");
    if (c.limit) throw UsageError("--checkpoint cannot be combined with --limit (a stopped search is not a set of whole tasks)");
  }
  const std::vector<Output> outs = outputs_of(c);
  const Output* on_stdout = nullptr;
  for (std::size_t a = 0; a < outs.size(); ++a) {
    if (outs[a].path.empty()) continue;
    if (names_stdout(outs[a].path)) {
      if (on_stdout)
        throw UsageError(std::string(on_stdout->flag) + " and " + outs[a].flag +
                         " both write to stdout; give one of them a file");
      // The summary steps aside for "-" alone: another name would mix the two.
      if (outs[a].path != "-" && summary_on_stdout(c))
        throw UsageError(std::string(outs[a].flag) + " " + outs[a].path +
                         " is standard output, where the summary goes; write " + outs[a].flag + " - or give -q");
      on_stdout = &outs[a];
      continue;
    }
    if (std::filesystem::is_directory(outs[a].path))
      throw UsageError(std::string(outs[a].flag) + " " + outs[a].path + " is a directory");
    check_writable(outs[a].path);
    for (std::size_t b = 0; b < a; ++b)
      if (!outs[b].path.empty() && outs[b].path != "-" && magic::same_file(outs[a].path, outs[b].path))
        throw UsageError(std::string(outs[b].flag) + " and " + outs[a].flag + " name the same file " + outs[a].path);
  }
  // Found before the search, not after hours of it.
  if ((on_stdout || summary_on_stdout(c)) && !stdout_open_for_writing())
    throw UsageError(std::string("standard output is closed or read-only, and ") +
                     (on_stdout ? on_stdout->flag + std::string(" -") : std::string("the summary")) +
                     " would be written there; redirect it, or give -q and files");
}

void check_writable(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::absolute(path).parent_path();
  if (!std::filesystem::is_directory(dir)) throw UsageError("cannot write " + path + ": no directory " + dir.string());
  // A file the user could not write in place is not replaced either (the
  // temp-and-rename write needs only the directory), as cp refuses it.
  if (::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0)
    throw UsageError("cannot write " + path + ": " + std::strerror(errno) + " (it is read-only, or not yours)");
}

void write_svg(const std::string& path, magic::Picture picture, const nlohmann::json& problem,
               const std::vector<nlohmann::json>& sols) {
  magic::AtomicFile f(path);
  f.write(magic::render_svg(picture, problem, sols));
  f.commit();
}

std::uint64_t solutions_wanted(const Common& c) {
  if (c.solutions == "none") return c.solutions_file.empty() ? 0 : std::numeric_limits<std::uint64_t>::max();
  if (c.solutions == "all") return std::numeric_limits<std::uint64_t>::max();
  std::size_t pos = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(c.solutions, &pos);
  } catch (...) {
    pos = 0;
  }
  if (pos != c.solutions.size() || c.solutions.empty() || c.solutions[0] == '-')
    throw UsageError("--solutions must be none, all or a number, got '" + c.solutions + "'");
  return n;
}

magic::Shard parse_shard(const std::string& text) {
  const std::optional<magic::Shard> s = magic::parse_shard(text);
  if (!s) throw UsageError("--shard must be i/m with 0 <= i < m < 2^32, got '" + text + "'");
  return *s;
}

namespace {
// Solutions that finish ahead of their turn wait next to the output they
// go to (it has room for them); beside a device or stdout, in $TMPDIR.
std::string spill_directory(const Common& c) {
  for (const std::string& out : {c.solutions_file, c.json}) {
    if (out.empty() || out == "-") continue;
    std::error_code ec;
    const auto st = std::filesystem::status(out, ec);
    if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) return "";
    const std::filesystem::path dir = std::filesystem::path(out).parent_path();
    return dir.empty() ? "." : dir.string();
  }
  return "";
}
}  // namespace

magic::RunOptions run_options(const Common& c, std::uint64_t want) {
  magic::RunOptions ro;
  ro.spill_directory = spill_directory(c);
  ro.threads = c.threads;
  ro.split_depth = c.split_depth;
  ro.solutions = want;
  ro.limit = c.limit;
  const magic::Shard shard = parse_shard(c.shard);
  ro.shard_index = shard.index;
  ro.shard_count = shard.count;
  ro.dedup = magic::parse_dedup(c.dedup).value_or(magic::DedupMode::Auto);  // IsMember checked it
  ro.dedup_memory = c.dedup_memory_mib << 20;
  ro.interrupt = &interrupt_flag();
  ro.checkpoint = c.checkpoint;
  ro.checkpoint_interval = c.checkpoint_interval;
  ro.adaptive = !c.no_adaptive;
  ro.split_nodes = c.split_nodes;
  return ro;
}

void print_grid(std::ostream& os, const nlohmann::json& rows) {
  for (const auto& row : rows) {
    for (const auto& v : row) {
      const int x = v.get<int>();
      os << (x < 10 ? "  " : " ") << x;
    }
    os << "\n";
  }
  os << "\n";
}

void print_points_and_sums(std::ostream& os, const nlohmann::json& s) {
  os << "[";
  bool first = true;
  for (const auto& v : s.at("points")) {
    os << (first ? "" : " ") << (v.get<int>() < 10 ? " " : "") << v.get<int>();
    first = false;
  }
  os << "]  sum " << s.at("sum").get<int>() << "  lines";
  for (const auto& v : s.at("line_sums")) os << " " << v.get<int>();
  os << "\n";
}

void print_numbers(std::ostream& os, const nlohmann::json& solution) {
  os << "[";
  for (const auto& v : solution) os << " " << v.get<int>();
  os << " ]\n";
}

void print_labels(std::ostream& os, const nlohmann::json& solution) {
  const char* sep = "";
  for (const char* part : {"vertices", "edges"}) {
    if (!solution.contains(part)) continue;
    os << sep << part << " [";
    for (const auto& v : solution.at(part)) os << " " << v.get<int>();
    os << " ]";
    sep = "  ";
  }
  os << "  sum " << solution.at("sum").get<long long>() << "\n";
}

void print_summary(std::ostream& os, const std::string& echo, const magic::RunResult& r,
                   const std::string& by_key_name) {
  os << ">> " << echo << "  threads=" << r.threads << " split-depth=" << r.split_depth
     << " shard=" << magic::to_string(magic::Shard{r.shard_index, r.shard_count}) << " tasks=" << r.tasks;
  if (r.adaptive) os << " pieces=" << r.pieces;
  if (r.cluster) os << " ranks=" << r.cluster->ranks.size();
  if (!r.kernel.empty()) os << " kernel=" << r.kernel;
  os << "\n";
  os << "unique " << r.unique;
  if (r.has_total) os << "  total " << r.total;
  if (!r.exhaustive) os << "  (stopped early: not exhaustive)";
  os << "\n";
  if (!by_key_name.empty())
    for (const auto& [k, v] : r.by_key) os << "  " << by_key_name << " " << k << ": " << v << "\n";
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %s  nodes %llu  wall %.3fs  cpu %.3fs\n",
                r.digest_kind == "additive" ? "additive digest" : "digest", r.digest.hex().c_str(),
                static_cast<unsigned long long>(r.nodes), r.wall_seconds, r.cpu_seconds);
  os << buf;
  if (!r.tables.empty()) {
    std::snprintf(buf, sizeof buf, "tables: %llu filled, the largest %llu keys in %.1f MiB; %llu lookups, %llu hits\n",
                  static_cast<unsigned long long>(r.tables.passes), static_cast<unsigned long long>(r.tables.max_entries),
                  static_cast<double>(r.tables.max_bytes) / (1 << 20), static_cast<unsigned long long>(r.tables.lookups),
                  static_cast<unsigned long long>(r.tables.hits));
    os << buf;
  }
}

}  // namespace cli

namespace cli {

bool live_progress() {
  const char* no_color = std::getenv("NO_COLOR");  // no-color.org: set and not empty
  return ::isatty(STDERR_FILENO) == 1 && !(no_color && *no_color);
}

void print_progress(const magic::Progress& p) {
  // Shown only after a few seconds, so short runs stay silent.
  if (p.elapsed < 3.0 || p.tasks_total == 0) return;
  // A split task is done when its pieces are, so pieces count as work units of their own.
  const double frac = static_cast<double>(p.tasks_done + p.pieces_done) /
                      static_cast<double>(p.tasks_total + p.pieces);
  const double eta = frac > 0 ? p.elapsed * (1 - frac) / frac : 0;
  char pieces[64] = "";
  if (p.pieces)
    std::snprintf(pieces, sizeof pieces, " + pieces %llu/%llu", static_cast<unsigned long long>(p.pieces_done),
                  static_cast<unsigned long long>(p.pieces));
  std::fprintf(stderr, "\r  tasks %llu/%llu%s (%.1f%%)  %.3g nodes/s  elapsed %.0fs  ETA %.0fs   ",
               static_cast<unsigned long long>(p.tasks_done), static_cast<unsigned long long>(p.tasks_total),
               pieces, 100 * frac, static_cast<double>(p.nodes) / std::max(p.elapsed, 1e-9), p.elapsed, eta);
  std::fflush(stderr);
}

void end_progress() { std::fputs("\r\033[K", stderr); }

}  // namespace cli
