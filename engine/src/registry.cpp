#include "magic/registry.hpp"

namespace magic {

std::string by_key_name(const std::string& problem_name) {
  std::string out;
  with_family(problem_name, [&](auto fam) {
    if constexpr (requires { decltype(fam)::kByKey; }) out = decltype(fam)::kByKey;
  });
  return out;
}

Picture picture_of(const std::string& problem_name) {
  Picture p{};
  if (!with_family(problem_name, [&](auto fam) { p = decltype(fam)::kPicture; }))
    throw SpecError("no picture for problem '" + problem_name + "'");
  return p;
}

std::uint64_t default_stop_after(const nlohmann::json& spec) {
  std::uint64_t n = 0;
  with_family(spec.value("name", ""), [&](auto fam) {
    if constexpr (requires { decltype(fam)::default_stop_after(spec); }) n = decltype(fam)::default_stop_after(spec);
  });
  return n;
}

SpecRun run_spec(const nlohmann::json& spec, const RunOptions& ro) {
  return visit_problem(spec, [&](const auto& p) {
    RunOptions o = ro;
    if (o.stop_after == 0) o.stop_after = default_stop_after(spec);
    return SpecRun{p.describe(), run(p, o)};
  });
}

}  // namespace magic
