#pragma once
// The JSON result contract and its streaming writer.
//
//   { "problem":   {...name and parameters...},
//     "solutions": [...]                       (only when asked for),
//     "counts":    {"unique": U, "total": T, "by_key"...},
//     "exhaustive": true,
//     "digest":    "<32 hex>",
//     "run":       {"threads", "split_depth", "split_level", "tasks", "nodes", "wall_seconds",
//                   "cpu_seconds", "version", "source", "compiler", "flags", ...} }
//
// Solutions are streamed into the file as they are merged, so a run that
// prints every solution never holds them all in memory.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "magic/io.hpp"
#include "magic/run_options.hpp"

namespace magic {

struct BuildInfo {
  static const char* version();
  static const char* compiler();
  static const char* flags();
  // The git commit the binary was built from ("<12 hex>", "-dirty" with
  // uncommitted code changes, "unknown" outside git).
  static const char* source();
};

// `by_key_name` names counts.by_key in the output (e.g. "by_sum"); empty omits it.
nlohmann::json counts_json(const RunResult& r, const std::string& by_key_name = "");
nlohmann::json run_json(const RunResult& r);

class ResultWriter {
 public:
  // json_path / jsonl_path may be empty (not written) or "-" (stdout).
  ResultWriter(const std::string& json_path, const std::string& jsonl_path, bool solutions_in_json);
  void begin(const nlohmann::json& problem);
  void solution(const nlohmann::json& s);
  // `rest` holds every top-level field except problem and solutions.
  void finish(const nlohmann::json& rest);

 private:
  std::unique_ptr<AtomicFile> json_;
  std::unique_ptr<AtomicFile> jsonl_;
  bool in_json_;
  std::uint64_t n_ = 0;
};

}  // namespace magic
