#include "magic/registry.hpp"

#include "magic/result.hpp"
#include "run_family.hpp"

namespace magic {

namespace detail {
extern template SpecRun run_family<SquareFamily>(const nlohmann::json&, const RunOptions&);
extern template SpecRun run_family<StarFamily>(const nlohmann::json&, const RunOptions&);
extern template SpecRun run_family<CircleFamily>(const nlohmann::json&, const RunOptions&);
extern template SpecRun run_family<CompleteFamily>(const nlohmann::json&, const RunOptions&);
extern template SpecInfo describe_family<SquareFamily>(const nlohmann::json&);
extern template SpecInfo describe_family<StarFamily>(const nlohmann::json&);
extern template SpecInfo describe_family<CircleFamily>(const nlohmann::json&);
extern template SpecInfo describe_family<CompleteFamily>(const nlohmann::json&);
}  // namespace detail

std::string by_key_name(const nlohmann::json& problem) {
  std::string out;
  if (!problem.is_object() || !problem.contains("name") || !problem.at("name").is_string()) return out;
  with_family(problem.at("name").get<std::string>(), [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (requires { Fam::by_key_name(problem); }) out = Fam::by_key_name(problem);
    else if constexpr (requires { Fam::kByKey; }) out = Fam::kByKey;
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

namespace {
// f(family) for the family named `name`; SpecError when there is none.
template <class F>
void with_named_family(const std::string& name, F&& f) {
  if (!with_family(name, f)) throw SpecError("unknown problem '" + name + "' (use square, star, circle or complete)");
}
}  // namespace

std::string split_levels(const std::string& family) {
  std::string out;
  with_named_family(family, [&](auto fam) {
    if constexpr (requires { decltype(fam)::levels_help(); }) out = decltype(fam)::levels_help();
  });
  return out;
}

std::string field_values(const std::string& family, const std::string& field) {
  const char* out = nullptr;
  with_named_family(family, [&](auto fam) {
    if constexpr (requires { decltype(fam)::field_values(field); }) out = decltype(fam)::field_values(field);
  });
  return out ? out : "";
}

bool is_field_value(const std::string& family, const std::string& field, const std::string& value) {
  bool out = false;
  with_named_family(family, [&](auto fam) {
    if constexpr (requires { decltype(fam)::is_field_value(field, value); })
      out = decltype(fam)::is_field_value(field, value);
  });
  return out;
}

std::string no_solution_reason(const nlohmann::json& spec) {
  std::string out;
  with_spec_family(spec, [&](auto fam) {
    if constexpr (requires { decltype(fam)::no_solution_reason(spec); }) out = decltype(fam)::no_solution_reason(spec);
  });
  return out;
}

nlohmann::json result_fields(const SpecInfo& info, const RunResult& r) {
  nlohmann::json out{{"counts", counts_json(r, by_key_name(info.problem))},
                     {"exhaustive", r.exhaustive},
                     {"digest", r.digest.hex()},
                     {"run", run_json(r)}};
  if (info.extra.is_object()) out.update(info.extra);
  if (r.interrupted) out["interrupted"] = true;
  return out;
}

SpecInfo describe_spec(const nlohmann::json& spec) {
  return with_spec_family(spec, [&](auto fam) { return detail::describe_family<decltype(fam)>(spec); });
}

SpecRun run_spec(const nlohmann::json& spec, const RunOptions& ro) {
  return with_spec_family(spec, [&](auto fam) { return detail::run_family<decltype(fam)>(spec, ro); });
}

}  // namespace magic
