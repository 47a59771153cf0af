#include "report/records.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <tbb/info.h>

#include "checker/checker.hpp"
#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "magic/journal.hpp"
#include "report/process.hpp"
#include "magic/result_file.hpp"
#include "magic/task_record.hpp"

extern char** environ;

namespace magic {
namespace fs = std::filesystem;
namespace {

// What a journal adds up to.
struct JournalSum {
  TaskRecord sum;
  std::uint64_t tasks = 0;     // records held
  std::uint64_t expected = 0;  // the header's task count
  std::string failure;         // "" when every line is intact
  std::map<std::string, std::uint64_t> sources;  // tasks per build that ran them
};

// The run's own reader: what it would resume from, refused where it would refuse.
JournalSum sum_journal(const fs::path& path) {
  JournalSum js;
  try {
    const std::optional<JournalContents> c = read_journal(path.string());
    if (!c) return js;  // nothing reached the disk yet: no tasks of none
    js.expected = c->header.at("tasks").get<std::uint64_t>();
    for (const auto& entry : c->done) js.sum.merge(entry.second);
    js.sources = count_by_build(c->sources, c->done);
    js.tasks = c->done.size();
  } catch (const CheckpointError& e) {
    js.failure = e.what();
  }
  return js;
}

// "" when the figures are the result's, else the first that is not.  The
// node count is left out for a rerun: it belongs to the search that made the
// record, and a faster search since must only give the same counts and digest.
std::string differences(const ShardResult& r, const TaskRecord& got, bool with_nodes = true) {
  auto num = [](std::uint64_t v) { return std::to_string(v); };
  if (got.unique != r.unique) return "unique " + num(got.unique) + ", the result says " + num(r.unique);
  if (r.has_total && got.total != r.total) return "total " + num(got.total) + ", the result says " + num(r.total);
  if (!r.by_key_name.empty() && got.by_key != r.by_key) return r.by_key_name + " differs";
  if (!(got.digest == r.digest)) return "digest " + got.digest.hex() + ", the result says " + r.digest.hex();
  if (with_nodes && got.nodes != r.nodes) return "nodes " + num(got.nodes) + ", the result says " + num(r.nodes);
  return "";
}

TaskRecord figures_of(const ShardResult& r) {
  TaskRecord t;
  t.unique = r.unique;
  t.total = r.total;
  t.by_key = r.by_key;
  t.digest = r.digest;
  t.nodes = r.nodes;
  return t;
}

// The record's command as a fresh run: no journal, no outputs of its own,
// the JSON into `json`.
std::vector<std::string> rerun_args(const std::vector<std::string>& cmd, const std::string& self,
                                    const std::string& json, unsigned threads) {
  static const std::set<std::string> with_value{"--checkpoint", "--checkpoint-interval", "--json", "--solutions",
                                                "--solutions-file", "--svg", "--threads", "-t"};
  std::vector<std::string> out{self};
  for (std::size_t i = 1; i < cmd.size(); ++i) {
    const std::string& a = cmd[i];
    if (with_value.count(a)) {
      ++i;
      continue;
    }
    const auto eq = a.find('=');
    if ((eq != std::string::npos && with_value.count(a.substr(0, eq))) || a == "-q" || a == "--quiet") continue;
    out.push_back(a);
  }
  if (threads) out.insert(out.end(), {"--threads", std::to_string(threads)});
  out.insert(out.end(), {"--json", json, "-q"});
  return out;
}

std::string seconds_text(double s) {
  std::ostringstream o;
  o.precision(s < 10 ? 2 : 0);
  o << std::fixed << s << " s";
  return o.str();
}

// A CROSSCHECK file: "record NAME" (another folder here) or a magicount
// command, with '#' comments, as in COMMAND.
struct CrossCheck {
  std::string record;
  std::vector<std::string> command;
};

CrossCheck read_cross_check(const fs::path& path) {
  const std::string text = read_file(path.string());
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string first, name, extra;
    if (!(words >> first) || first[0] == '#') continue;
    if (first != "record") break;
    if (!(words >> name) || (words >> extra) || name.find('/') != std::string::npos || name == "." || name == "..")
      throw SpecError(path.string() + ": write \"record NAME\" with NAME a folder beside it, got: " + line);
    return {name, {}};
  }
  try {
    return {"", record_command(text)};
  } catch (const SpecError& e) {
    throw SpecError(path.string() + ": " + e.what());
  }
}

std::string describe(const CrossCheck& cc) {
  if (!cc.record.empty()) return "the record " + cc.record;
  std::string text = "magicount";
  for (std::size_t i = 1; i < cc.command.size(); ++i) text += " " + cc.command[i];
  return "`" + text + "`";
}

class Checker {
 public:
  Checker(const RecordsOptions& opt, const fs::path& folder) : opt_(opt), folder_(folder) {
    c_.name = folder.filename().string();
  }

  RecordCheck run() {
    const fs::path result = folder_ / "result.json", journal = folder_ / "journal.jsonl";
    if (!fs::exists(result)) {
      running(journal);
      return ended("running");
    }
    const ShardResult r = read_result(result.string());
    if (!r.exhaustive && fs::exists(journal)) {  // a stretch stopped by an interrupt wrote it
      running(journal);
      c_.checks.push_back("result.json is that of a stretch that was stopped (not exhaustive)");
      return ended("running");
    }
    if (fs::exists(journal)) check_journal(journal, r);
    check_solutions(result);
    if (fs::exists(folder_ / "COMMAND")) rerun(r);
    else c_.checks.push_back("rerun: no COMMAND file");
    if (const auto cc = cross_check_file()) cross_check(r, *cc);
    return ended("agrees");
  }

 private:
  // A record still running fails too when a check of it failed (a broken
  // journal or CROSSCHECK).
  RecordCheck ended(const char* status) {
    c_.status = ok_ ? status : "differs";
    return c_;
  }

  void fail(const std::string& what) {
    ok_ = false;
    c_.checks.push_back("DIFFERS: " + what);
  }

  void running(const fs::path& journal) {
    if (!fs::exists(journal)) {
      c_.checks.push_back("no result.json and no journal: nothing to check");
      return;
    }
    const JournalSum js = sum_journal(journal);
    if (!js.failure.empty()) return fail(js.failure);
    std::string by;
    for (const auto& [source, tasks] : js.sources) by += (by.empty() ? "" : ", ") + source + ": " + std::to_string(tasks);
    c_.checks.push_back("not finished: " + std::to_string(js.tasks) + " of " + std::to_string(js.expected) +
                        " tasks journalled" + (by.empty() ? "" : " (tasks per build: " + by + ")") +
                        " (rerun its COMMAND to go on)");
    if (const auto cc = cross_check_file()) c_.checks.push_back("cross-check when it is done: " + describe(*cc));
  }

  // The folder's CROSSCHECK, if it has one; a file that cannot be read fails the record.
  std::optional<CrossCheck> cross_check_file() {
    const fs::path path = folder_ / "CROSSCHECK";
    if (!fs::exists(path)) return std::nullopt;
    try {
      return read_cross_check(path);
    } catch (const SpecError& e) {
      fail(std::string("cross-check: ") + e.what());
      return std::nullopt;
    }
  }

  void check_journal(const fs::path& journal, const ShardResult& r) {
    const JournalSum js = sum_journal(journal);
    if (!js.failure.empty()) return fail(js.failure);
    if (js.tasks != js.expected || js.expected != r.tasks)
      return fail("the journal holds " + std::to_string(js.tasks) + " of " + std::to_string(js.expected) +
                  " tasks; the result has " + std::to_string(r.tasks));
    const std::string diff = differences(r, js.sum);
    if (!diff.empty()) return fail("journal: " + diff);
    c_.checks.push_back("journal: its " + std::to_string(js.tasks) +
                        " task records (checksums intact) add up to the result's counts, digest and nodes");
  }

  void check_solutions(const fs::path& result) {
    const nlohmann::json doc = parse_json(read_file(result.string()), result.string());
    if (!doc.contains("solutions")) return;
    const checker::VerifyReport v = checker::verify({result.string(), "", false});
    if (!v.ok) return fail("verify: " + v.line);
    c_.checks.push_back("verify: " + v.line);
  }

  void rerun(const ShardResult& r) {
    const unsigned threads =
        opt_.threads ? opt_.threads : static_cast<unsigned>(std::max(1, tbb::info::default_concurrency()));
    const double estimate = r.cpu_seconds / threads;
    if (estimate > opt_.rerun_seconds) {
      c_.checks.push_back("rerun: skipped, about " + seconds_text(estimate) + " on " + std::to_string(threads) +
                          " threads here (over " + seconds_text(opt_.rerun_seconds) + ")");
      return;
    }
    const std::vector<std::string> cmd = record_command(read_file((folder_ / "COMMAND").string()));
    if (opt_.on_step) opt_.on_step("rerunning " + c_.name + " (about " + seconds_text(estimate) + ")");
    const auto t0 = std::chrono::steady_clock::now();
    const std::optional<ShardResult> fresh = run_fresh(cmd, "", "rerun");
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!fresh) return;
    const TaskRecord got = figures_of(*fresh);
    const std::string diff = differences(r, got, false);
    if (!diff.empty()) return fail("rerun: " + diff);
    const std::uint64_t nodes = got.nodes;
    if (nodes == r.nodes)
      c_.checks.push_back("rerun: the same counts, digest and nodes in " + seconds_text(took) + " (" + fresh->path +
                          ")");
    else
      c_.checks.push_back("rerun: the same counts and digest in " + seconds_text(took) + " (" + fresh->path + "); " +
                          std::to_string(nodes) + " nodes against the record's " + std::to_string(r.nodes) +
                          ": the search has changed since");
  }

  // Runs a magicount command afresh (no journal; its JSON and log go to
  // out_dir as <folder><suffix>.json and .log).  Its result, or none after
  // failing the record as `what` exited badly.
  std::optional<ShardResult> run_fresh(const std::vector<std::string>& cmd, const std::string& suffix,
                                       const std::string& what) {
    const fs::path stem = fs::path(opt_.out_dir) / (c_.name + suffix);
    const std::string json = stem.string() + ".json", log = stem.string() + ".log";
    const int code = run_process(rerun_args(cmd, opt_.self, json, opt_.threads), {log, true}).code;
    if (code != 0) {
      fail(what + " exited with " + std::to_string(code) + " (see " + log + ")");
      return std::nullopt;
    }
    return read_result(json);
  }

  // The record against an independent computation of the same count: another
  // record (a second run, with another split depth or thread count), or a
  // command that shares no search code (the circles' multiplier method).
  void cross_check(const ShardResult& r, const CrossCheck& cc) {
    const std::string what = describe(cc);
    ShardResult other;
    std::string how;
    if (!cc.record.empty()) {
      const fs::path result = folder_.parent_path() / cc.record / "result.json";
      if (!fs::exists(result)) return fail("cross-check: " + what + " has no result.json");
      other = read_result(result.string());
      if (!other.exhaustive) return fail("cross-check: " + what + " is not finished");
      const int threads = r.run.value("threads", 0), other_threads = other.run.value("threads", 0);
      // Another family's search is independent by itself; a second run of
      // the same search must at least cut the work otherwise.
      if (r.problem.value("name", "") == other.problem.value("name", "") && other.split_depth == r.split_depth &&
          other_threads == threads)
        return fail("cross-check: " + what + " ran with the same split depth and threads: not a second run");
      how = " (split depth " + std::to_string(r.split_depth) + " against " + std::to_string(other.split_depth) +
            ", threads " + std::to_string(threads) + " against " + std::to_string(other_threads) + ", nodes " +
            std::to_string(r.nodes) + " against " + std::to_string(other.nodes) + ")";
    } else {
      if (opt_.self.empty()) {
        c_.checks.push_back("cross-check: not run here (no magicount to run): " + what);
        return;
      }
      const fs::path command = folder_ / "COMMAND";
      if (fs::exists(command) &&
          rerun_args(cc.command, "", "", 0) == rerun_args(record_command(read_file(command.string())), "", "", 0))
        return fail("cross-check: it is the record's own command");
      if (opt_.on_step) opt_.on_step("cross-checking " + c_.name);
      const std::optional<ShardResult> fresh = run_fresh(cc.command, ".crosscheck", "cross-check");
      if (!fresh) return;
      other = *fresh;
      how = " (" + other.path + ")";
    }
    if (!same_problem(comparable(r.problem), comparable(other.problem)))
      return fail("cross-check: " + what + " counts another problem: " + other.problem.dump());
    const std::string diff = differences(r, figures_of(other), false);
    if (!diff.empty()) return fail("cross-check: " + what + ": " + diff);
    c_.checks.push_back("cross-check: " + what + " gives the same counts and digest" + how);
  }
  // The problem as a cross-check compares it.  The figure solver's built-in
  // {n/2} star (n >= 6) with every line equal and the numbers 1..2n is the
  // star family's problem: the figure keeps the family's numbering of the
  // points, so counts, by_sum and digest are the family's (test_figure,
  // StarsAgreeWithTheStarFamily*).  At n = 5 the family keeps the
  // documents' labels, another digest.
  static nlohmann::json comparable(const nlohmann::json& p) {
    const auto text = [](const nlohmann::json& j, const char* key) {
      return j.is_object() && j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : std::string();
    };
    const std::string builtin = text(p, "builtin");
    if (text(p, "name") != "figure" || builtin.rfind("star-", 0) != 0) return p;
    int n = 0;  // "star-N-2"; anything else (or an N out of range) is left as it is
    std::from_chars(builtin.data() + 5, builtin.data() + builtin.size(), n);
    const nlohmann::json f = p.contains("figure") ? p.at("figure") : nlohmann::json();
    const nlohmann::json lines = p.contains("equal_lines") ? p.at("equal_lines") : nlohmann::json();
    if (n < 6 || builtin != "star-" + std::to_string(n) + "-2" || !f.is_object() || lines != n || p.contains("sum") ||
        f.contains("sum") || text(f, "numbers") != "1.." + std::to_string(2 * n) || !is_star_outline(f, n))
      return p;
    return {{"name", "star"}, {"n", n}, {"equal_lines", n}, {"numbers", "1.." + std::to_string(2 * n)}};
  }
  // Points V0..V(n-1), C0..C(n-1) in this order, and line i through
  // V(i), C(i), C(i+1), V(i+2): the star family's drawing of {n/2}.
  static bool is_star_outline(const nlohmann::json& f, int n) {
    const auto name = [](char c, int i) { return std::string(1, c) + std::to_string(i); };
    const nlohmann::json points = f.contains("points") ? f.at("points") : nlohmann::json();
    const nlohmann::json lines = f.contains("lines") ? f.at("lines") : nlohmann::json();
    const auto count = static_cast<std::size_t>(n);
    if (!points.is_array() || !lines.is_array() || points.size() != 2 * count || lines.size() != count) return false;
    for (int i = 0; i < 2 * n; ++i) {
      const nlohmann::json& point = points[static_cast<std::size_t>(i)];
      if (!point.is_object() || !point.contains("name") || point.at("name") != name(i < n ? 'V' : 'C', i % n))
        return false;
    }
    for (int i = 0; i < n; ++i)
      if (lines[i] != nlohmann::json{name('V', i), name('C', i), name('C', (i + 1) % n), name('V', (i + 2) % n)})
        return false;
    return true;
  }
  // Same name, and every parameter both give is the same, save how each is
  // searched (a method may add its own figures, as the multipliers).
  static bool same_problem(const nlohmann::json& a, const nlohmann::json& b) {
    if (!a.contains("name") || !b.contains("name")) return false;
    for (const auto& [key, value] : a.items())
      if (key != "method" && key != "solver" && b.contains(key) && b.at(key) != value) return false;
    return true;
  }

  const RecordsOptions& opt_;
  fs::path folder_;
  RecordCheck c_;
  bool ok_ = true;
};

}  // namespace

std::vector<std::string> record_command(const std::string& text) {
  std::string joined;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (!line.empty() && line.back() == '\\') line.pop_back();
    joined += line + " ";
  }
  std::vector<std::string> words;
  std::istringstream w(joined);
  for (std::string s; w >> s;) words.push_back(s);
  // magic-enum: the program's name until 0.1.0, in record folders made then.
  const std::string program = words.empty() ? "" : fs::path(words[0]).filename().string();
  if (words.size() < 2 || (program != "magicount" && program != "magic-enum"))
    throw SpecError("a record's COMMAND must run magicount, got: " + joined);
  return words;
}

std::vector<RecordCheck> check_records(const RecordsOptions& opt) {
  if (!fs::is_directory(opt.dir)) throw SpecError("no records directory " + opt.dir);
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(opt.dir))
    if (e.is_directory()) folders.push_back(e.path());
  std::sort(folders.begin(), folders.end());
  std::vector<RecordCheck> out;
  for (const auto& f : folders) {
    if (opt.on_step) opt.on_step("checking " + f.filename().string());
    out.push_back(Checker(opt, f).run());
  }
  return out;
}

}  // namespace magic
