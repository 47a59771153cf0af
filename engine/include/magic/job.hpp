#pragma once
// A problem made once from its spec, and everything a caller asks of it.
// The registry visits the spec once, in Job::make, and keeps the concrete
// problem behind the engine's erased face; the CLI, reproduce and the
// cluster then ask the Job, never the spec again.
//
//   spec --make--> Job: info (problem, extra), by_key_name,
//                       no_solution_reason, run, result_fields
//
// A run across ranks is the cluster's (magic_cluster): ClusterJob, in
// magic/cluster_spec.hpp, takes a Job.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "magic/run_options.hpp"
#include "magic/spec.hpp"

namespace magic {

class AnyProblem;  // the engine's face of a problem (private)
namespace detail {
struct JobCore;  // the problem, erased (engine/src/include/magic/job_core.hpp)
}

class Job {
 public:
  // Throws SpecError for an unknown or malformed spec.
  static Job make(const nlohmann::json& spec);
  ~Job();
  Job(Job&&) noexcept;
  Job& operator=(Job&&) noexcept;

  const SpecInfo& info() const;
  const nlohmann::json& problem() const { return info().problem; }
  const std::string& by_key_name() const;  // "" if the problem has none
  // The one line that names the problem (magic::echo_line), and how its
  // solutions are drawn: the family's, whichever families made the Job.
  const std::string& echo_line() const;
  Picture picture() const;
  // Why the problem can have no solution whatever the search finds (a
  // completion of a kind with no square of that order), "" when it may.
  const std::string& no_solution_reason() const;

  // In this process, with the spec's defaults (default_limit).
  RunResult run(const RunOptions& ro) const;
  // See magic::result_fields.
  nlohmann::json result_fields(const RunResult& r) const;

  // The registry's (make_job, magic/registry.hpp): a JobCore is private.
  explicit Job(std::unique_ptr<detail::JobCore> core);

 private:
  friend class ClusterJob;  // runs the erased problem across ranks
  RunOptions with_defaults(const RunOptions& ro) const;
  const AnyProblem& problem_face() const;

  std::unique_ptr<detail::JobCore> core_;
};

}  // namespace magic
