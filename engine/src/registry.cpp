#include "magic/registry.hpp"

#include "magic/job.hpp"
#include "magic/result.hpp"
#include "magic/runner.hpp"
#include "magic/job_core.hpp"

namespace magic {

namespace detail {
MAGIC_JOB_FAMILY_AS(extern, SquareFamily)
MAGIC_JOB_FAMILY_AS(extern, StarFamily)
MAGIC_JOB_FAMILY_AS(extern, CircleFamily)
MAGIC_JOB_FAMILY_AS(extern, CompleteFamily)
MAGIC_JOB_FAMILY_AS(extern, FigureFamily)
MAGIC_JOB_FAMILY_AS(extern, GraphFamily)
}  // namespace detail

std::string by_key_name(const nlohmann::json& problem) {
  std::string out;
  if (!problem.is_object() || !problem.contains("name") || !problem.at("name").is_string()) return out;
  with_family(problem.at("name").get<std::string>(),
              [&](auto fam) { out = detail::family_by_key_name<decltype(fam)>(problem); });
  return out;
}

Picture picture_of(const std::string& problem_name) {
  Picture p{};
  if (!with_family(problem_name, [&](auto fam) { p = detail::family_picture<decltype(fam)>(); }))
    throw SpecError("no picture for problem '" + problem_name + "'");
  return p;
}

std::vector<std::string> family_names() {
  return std::apply([](auto... fam) { return std::vector<std::string>{decltype(fam)::kName...}; }, Families{});
}

std::vector<FamilyCommand> family_commands() { return detail::family_commands<Families>(); }

std::string echo_line(const nlohmann::json& problem) {
  std::string out;
  const std::string name = problem.is_object() ? problem.value("name", "") : "";
  if (with_family(name, [&](auto fam) { out = detail::family_echo<decltype(fam)>(problem); })) return out;
  return name.empty() ? "?" : name;
}

std::uint64_t default_limit(const nlohmann::json& spec) {
  std::uint64_t n = 0;
  with_family(spec.value("name", ""), [&](auto fam) { n = detail::family_limit<decltype(fam)>(spec); });
  return n;
}

namespace {
nlohmann::json fields_of(const SpecInfo& info, const RunResult& r, const std::string& by_key) {
  nlohmann::json out{{"counts", counts_json(r, by_key)},
                     {"exhaustive", r.exhaustive},
                     {"digest", r.digest.hex()},
                     {"digest_kind", r.digest_kind},
                     {"run", run_json(r)}};
  if (r.has_additive) out["additive_digest"] = r.additive.hex();
  if (info.extra.is_object()) out.update(info.extra);
  if (r.interrupted) out["interrupted"] = true;
  return out;
}
}  // namespace

nlohmann::json result_fields(const SpecInfo& info, const RunResult& r) {
  return fields_of(info, r, by_key_name(info.problem));
}

Job Job::make(const nlohmann::json& spec) { return detail::make_job<Families>(spec); }

Job::Job(std::unique_ptr<detail::JobCore> core) : core_(std::move(core)) {}
Job::~Job() = default;
Job::Job(Job&&) noexcept = default;
Job& Job::operator=(Job&&) noexcept = default;

const SpecInfo& Job::info() const { return core_->info; }
const std::string& Job::by_key_name() const { return core_->by_key_name; }
const std::string& Job::echo_line() const { return core_->echo; }
Picture Job::picture() const { return core_->picture; }
const std::string& Job::no_solution_reason() const { return core_->no_solution_reason; }

RunResult Job::run(const RunOptions& ro) const { return magic::run(core_->problem(), with_defaults(ro)); }

RunOptions Job::with_defaults(const RunOptions& ro) const {
  // A search that would run for days is refused whole; a part of it runs.
  if (!core_->too_long.empty() && ro.limit == 0 && ro.shard_count == 1)
    throw SpecError(core_->too_long + ": run a part of it, with a limit or a shard");
  RunOptions o = ro;
  if (o.limit == 0) o.limit = core_->limit;
  return o;
}

const AnyProblem& Job::problem_face() const { return core_->problem(); }

nlohmann::json Job::result_fields(const RunResult& r) const {
  return fields_of(info(), r, core_->by_key_name);
}

SpecInfo describe_spec(const nlohmann::json& spec) { return Job::make(spec).info(); }

SpecRun run_spec(const nlohmann::json& spec, const RunOptions& ro) {
  const Job job = Job::make(spec);
  return SpecRun{job.problem(), job.run(ro)};
}

}  // namespace magic
