// Compiled plans (figure/figure_compiled.hpp): the table of this build's, the
// match against a figure's plan, and the writer of their C++.
#include "figure/figure_compiled.hpp"

#include <algorithm>
#include <sstream>

#include "magic/core/error.hpp"
#include "magic/core/task.hpp"

namespace magic {
namespace {
using Plan = FigureProblem::Plan;
#ifdef MAGIC_NO_COMPILED_PLANS  // cmake -DMAGIC_COMPILED_PLANS=OFF
#define MAGIC_COMPILED_FIGURES(X)
#else
#include "figure_compiled_plans.inc"
#endif
}  // namespace

template <class CP>
bool FigureCompiler::matches(const Plan& p) {
  constexpr const CP& c = kCompiledPlan<CP>;
  const auto eq = [](const auto& v, const auto& a) { return std::ranges::equal(v, a); };
  return p.nmin == CP::nmin && p.nspan == CP::nspan && p.numbers == CP::numbers && p.rnumbers == CP::rnumbers &&
         eq(p.steps, c.steps) && eq(p.places, c.places) && eq(p.lines, c.lines) && eq(p.checks, c.checks) &&
         eq(p.terms, c.terms) && eq(p.congruences, c.congruences) && eq(p.aheads, c.aheads) &&
         eq(p.ahead_places, c.ahead_places) && eq(p.cterms, c.cterms) && eq(p.screens, c.screens) &&
         eq(p.kappas, c.kappas);
}

template <class CP>
void FigureCompiler::walk(const FigureProblem& p, FigureState& s, FigureRunnerMode& m) {
  p.compiled_walk<CP>(s, m);
}

namespace {
#define MAGIC_COMPILED_ENTRY(T, NAME) FigureCompiled{NAME, &FigureCompiler::matches<T>, &FigureCompiler::walk<T>},
// The build's compiled plans, and an end mark (the list may be empty).
const FigureCompiled kCompiled[] = {
    MAGIC_COMPILED_FIGURES(MAGIC_COMPILED_ENTRY) FigureCompiled{nullptr, nullptr, nullptr}};
#undef MAGIC_COMPILED_ENTRY
}  // namespace

std::vector<const FigureCompiled*> FigureCompiler::all() {
  std::vector<const FigureCompiled*> out;
  for (const FigureCompiled& c : kCompiled)
    if (c.name) out.push_back(&c);
  return out;
}

const FigureCompiled* FigureCompiler::find(const FigureProblem& p) {
  if (p.plans_.size() != 1) return nullptr;
  for (const FigureCompiled* c : all())
    if (c->matches(p.plans_[0])) return c;
  return nullptr;
}


const char* FigureProblem::compiled_plan() const { return compiled_ ? compiled_->name : nullptr; }

namespace {

// One value of a compiled plan, as C++.
void put_value(std::ostream& out, bool x) { out << (x ? "true" : "false"); }
void put_value(std::ostream& out, std::uint64_t x) { out << x << "ull"; }
void put_value(std::ostream& out, std::uint8_t x) { out << int{x}; }
void put_value(std::ostream& out, std::int8_t x) { out << int{x}; }
void put_value(std::ostream& out, FigureProblem::Check x) { out << "FigureProblem::Check(" << int{x} << ')'; }
template <class T>
void put_value(std::ostream& out, const T& x) {
  out << x;
}

// An aggregate's initializer: {a,b,...}.
template <class... T>
void braced(std::ostream& out, const T&... xs) {
  const char* sep = "";
  out << '{';
  ((out << sep, put_value(out, xs), sep = ","), ...);
  out << '}';
}

// One array member of a compiled plan: `std::array<T, n> name{{a, b, ...}};`.
template <class V, class F>
void write_array(std::ostream& out, const char* type, const char* name, const V& v, F&& item) {
  out << "  std::array<" << type << ", " << v.size() << "> " << name << "{{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out << ", ";
    item(out, v[i]);
  }
  out << "}};\n";
}

}  // namespace

std::string FigureCompiler::source(const FigureProblem& p, const std::string& type) {
  using FP = FigureProblem;
  if (p.plans_.size() != 1)
    throw SpecError("figure: " + std::to_string(p.plans_.size()) +
                    " plans (some lines may miss the sum); only a figure with one plan compiles");
  const Plan& pl = p.plans_[0];
  std::ostringstream o;
  o << "struct " << type << " {\n";
  o << "  static constexpr int nmin = " << pl.nmin << ", nspan = " << pl.nspan << ";\n";
  o << "  static constexpr std::uint64_t numbers = " << pl.numbers << "ull, rnumbers = " << pl.rnumbers << "ull;\n";
  write_array(o, "FigureProblem::Step", "steps", pl.steps, [](std::ostream& out, const FP::Step& s) {
    braced(out, s.first, s.count, s.free, s.cong0, s.ncong, s.ahead0, s.nahead, s.next0, s.nnext, s.screens_all);
  });
  write_array(o, "FigureProblem::Place", "places", pl.places, [](std::ostream& out, const FP::Place& q) {
    braced(out, q.point, q.unit, q.line, q.line0, q.nline, q.check0, q.ncheck, q.term0, q.nterm, q.d, q.lsum, q.ordered,
           q.above, q.below, q.capped);
  });
  write_array(o, "std::uint8_t", "lines", pl.lines, [](std::ostream& out, std::uint8_t l) { put_value(out, l); });
  write_array(o, "FigureProblem::LineCheck", "checks", pl.checks,
              [](std::ostream& out, const FP::LineCheck& c) { braced(out, c.line, c.left, c.kind); });
  write_array(o, "FigureProblem::Term", "terms", pl.terms,
              [](std::ostream& out, const FP::Term& t) { braced(out, t.line, t.lambda); });
  write_array(o, "FigureProblem::Congruence", "congruences", pl.congruences,
              [](std::ostream& out, const FP::Congruence& c) { braced(out, c.d, c.a, c.term0, c.nterm); });
  write_array(o, "FigureProblem::Lookahead", "aheads", pl.aheads,
              [](std::ostream& out, const FP::Lookahead& a) { braced(out, a.target, a.ordered, a.f0, a.nf); });
  write_array(o, "std::uint16_t", "ahead_places", pl.ahead_places,
              [](std::ostream& out, std::uint16_t a) { put_value(out, a); });
  write_array(o, "std::pair<std::uint8_t, std::int32_t>", "cterms", pl.cterms,
              [](std::ostream& out, const auto& t) { braced(out, t.first, t.second); });
  write_array(o, "FigureProblem::Screen", "screens", pl.screens,
              [](std::ostream& out, const FP::Screen& c) { braced(out, c.place, c.alpha, c.kappa0); });
  write_array(o, "std::int32_t", "kappas", pl.kappas, [](std::ostream& out, std::int32_t k) { put_value(out, k); });
  o << "};\n";
  return o.str();
}

std::string FigureCompiler::file(const std::vector<std::string>& names) {
  std::string out =
      "// The compiled plans (figure/figure_compiled.hpp), written by scripts/figure-plans.sh; do not edit.\n"
      "// FigureCompiled.PlansAreCurrent fails when the search's plans have changed since.\n";
  std::string list = "#define MAGIC_COMPILED_FIGURES(X)";
  for (const std::string& name : names) {
    std::string type = "Compiled_" + name;
    std::replace(type.begin(), type.end(), '-', '_');
    const FigureProblem p(figure_spec_from_json(nlohmann::json{{"builtin", name}}), true);
    out += '\n';
    out += source(p, type);
    list += " X(" + type + ", \"" + name + "\")";
  }
  return out + "\n" + list + "\n";
}

}  // namespace magic
