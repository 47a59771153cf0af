#include "circle/circle.hpp"
#include "magic/spec_int.hpp"

#include <numeric>
#include <set>

namespace magic {

std::optional<CircleMethod> parse_circle_method(const std::string& s) {
  if (s == "exhaustive") return CircleMethod::Exhaustive;
  if (s == "multiplier") return CircleMethod::Multiplier;
  return std::nullopt;
}

std::string to_string(CircleMethod m) { return m == CircleMethod::Exhaustive ? "exhaustive" : "multiplier"; }

void validate_circle(const CircleSpec& spec) {
  if (spec.n < kCircleMinN || spec.n > kCircleMaxN)
    throw SpecError("circle size n must be in " + std::to_string(kCircleMinN) + ".." +
                                std::to_string(kCircleMaxN) + ", got " + std::to_string(spec.n));
}

CircleSolution circle_canonical(const CircleSolution& s, int n) {
  int at = 0;
  while (at < n && s[at] != 1) ++at;
  if (at == n) return s;  // not a circle; leave it alone
  CircleSolution fwd{}, bwd{};
  for (int i = 0; i < n; ++i) {
    fwd[i] = s[(at + i) % n];
    bwd[i] = s[(at - i + n) % n];
  }
  return fwd[1] < fwd[n - 1] ? fwd : bwd;
}

nlohmann::json circle_to_json(const CircleSolution& s, int n) {
  nlohmann::json a = nlohmann::json::array();
  for (int i = 0; i < n; ++i) a.push_back(s[i]);
  return a;
}

namespace {

std::vector<int> prime_factors(int q) {
  std::vector<int> ps;
  for (int p = 2; p * p <= q; ++p)
    if (q % p == 0) {
      ps.push_back(p);
      while (q % p == 0) q /= p;
    }
  if (q > 1) ps.push_back(q);
  return ps;
}

}  // namespace

CircleOrbits circle_orbits(int n) {
  CircleOrbits o;
  o.v = n * n - n + 1;
  o.multipliers = prime_factors(n - 1);
  std::vector<char> seen(o.v, 0);
  for (int x = 0; x < o.v; ++x) {
    if (seen[x]) continue;
    // Closure of {x} under every multiplier.
    std::vector<int> orbit{x};
    seen[x] = 1;
    for (std::size_t i = 0; i < orbit.size(); ++i)
      for (int p : o.multipliers) {
        const int y = static_cast<int>(static_cast<long long>(orbit[i]) * p % o.v);
        if (!seen[y]) {
          seen[y] = 1;
          orbit.push_back(y);
        }
      }
    std::sort(orbit.begin(), orbit.end());
    o.orbits.push_back(std::move(orbit));
  }
  return o;
}

CircleMultiplierProblem::CircleMultiplierProblem(int n) : n_(n) {
  validate_circle({n, CircleMethod::Multiplier});
  orb_ = circle_orbits(n);
  const int v = orb_.v;
  // Orbits whose own differences repeat can never be part of D.
  std::vector<std::vector<int>> keep;
  for (auto& o : orb_.orbits) {
    if (static_cast<int>(o.size()) > n) continue;
    std::vector<char> d(v, 0);
    bool ok = true;
    for (int x : o)
      for (int y : o)
        if (x != y && d[(x - y + v) % v]++) ok = false;
    if (ok) keep.push_back(o);
  }
  orb_.orbits = std::move(keep);
  const int k = static_cast<int>(orb_.orbits.size());
  words_ = std::max(1, (k + 63) / 64);
  reach_.assign(k + 1, 0);
  reach_[k] = 1;  // nothing left: size 0
  const std::uint64_t mask = (std::uint64_t{1} << (n + 1)) - 1;
  for (int i = k - 1; i >= 0; --i)
    reach_[i] = (reach_[i + 1] | (reach_[i + 1] << orb_.orbits[i].size())) & mask;

  // Pairwise compatibility: the union of two orbits repeats no difference.
  compat_.assign(k, CircleOrbitBits{});
  std::vector<std::vector<char>> own(k, std::vector<char>(v, 0));
  for (int i = 0; i < k; ++i)
    for (int x : orb_.orbits[i])
      for (int y : orb_.orbits[i])
        if (x != y) own[i][(x - y + v) % v] = 1;
  std::vector<char> seen(v);
  for (int i = 0; i < k; ++i)
    for (int j = i + 1; j < k; ++j) {
      std::fill(seen.begin(), seen.end(), 0);
      bool ok = true;
      for (int x : orb_.orbits[i])
        for (int y : orb_.orbits[j]) {
          const int d1 = (x - y + v) % v, d2 = (y - x + v) % v;
          if (own[i][d1] || own[j][d1] || own[i][d2] || own[j][d2] || seen[d1] || seen[d2]) ok = false;
          seen[d1] = seen[d2] = 1;
        }
      if (ok) {
        compat_[i][j >> 6] |= std::uint64_t{1} << (j & 63);
        compat_[j][i >> 6] |= std::uint64_t{1} << (i & 63);
      }
    }
  for (int i = 0; i < k; ++i) {
    const int len = static_cast<int>(orb_.orbits[i].size());
    auto it = std::find(sizes_.begin(), sizes_.end(), len);
    if (it == sizes_.end()) {
      sizes_.push_back(len);
      size_masks_.push_back(CircleOrbitBits{});
      it = sizes_.end() - 1;
    }
    size_masks_[it - sizes_.begin()][i >> 6] |= std::uint64_t{1} << (i & 63);
  }

  inverse_.assign(v, 0);
  for (int x = 1; x < v; ++x)
    for (int y = 1; y < v; ++y)
      if (x * y % v == 1) {
        inverse_[x] = y;
        break;
      }
  // Branch 0: the orbit of 1 is in D, the others are compatible with it.
  // Branch 1: only orbits of non-units.
  for (int i = 0; i < k; ++i) {
    const auto& o = orb_.orbits[i];
    if (std::find(o.begin(), o.end(), 1) != o.end()) {
      State r{};
      r.branch = 0;
      r.cand = compat_[i];
      r.chosen = 1;
      if (take(r, i)) roots_.push_back(r);
    }
  }
  State r{};
  r.branch = 1;
  for (int i = 0; i < k; ++i)
    if (!inverse_[orb_.orbits[i][0] % v] || orb_.orbits[i][0] == 0) r.cand[i >> 6] |= std::uint64_t{1} << (i & 63);
  roots_.push_back(r);
}

std::vector<CircleSolution> CircleMultiplierProblem::circles_from(const State& s) const {
  const int v = orb_.v;
  using Set = std::vector<int>;
  auto times = [&](int t) {
    Set d(n_);
    for (int i = 0; i < n_; ++i) d[i] = static_cast<int>(static_cast<long long>(s.elems[i]) * t % v);
    std::sort(d.begin(), d.end());
    return d;
  };
  std::set<Set> all;
  if (s.branch == 0) {
    // Only the first of the sets y^-1 * D (y a unit of D) expands the family.
    const Set me = times(1);
    for (int i = 0; i < n_; ++i)
      if (inverse_[s.elems[i]] && times(inverse_[s.elems[i]]) < me) return {};
    for (int t = 1; t < v; ++t)
      if (inverse_[t]) all.insert(times(t));
  } else {
    all.insert(times(1));
  }
  std::vector<CircleSolution> out;
  for (const Set& d : all) {
    std::array<std::uint16_t, kCircleMaxN> e{};
    for (int i = 0; i < n_; ++i) e[i] = static_cast<std::uint16_t>(d[i]);
    if (auto c = circle_of(e.data())) out.push_back(*c);
  }
  return out;
}

std::optional<CircleSolution> CircleMultiplierProblem::circle_of(const std::uint16_t* elems) const {
  const int v = orb_.v;
  std::vector<int> d(elems, elems + n_), neg(n_);
  for (int i = 0; i < n_; ++i) neg[i] = (v - d[i]) % v;
  std::sort(d.begin(), d.end());
  std::sort(neg.begin(), neg.end());
  if (neg < d) return std::nullopt;  // -D represents the same circle class
  CircleSolution c{};
  for (int i = 0; i < n_; ++i) c[i] = static_cast<std::uint16_t>(i + 1 < n_ ? d[i + 1] - d[i] : d[0] + v - d[i]);
  return circle_canonical(c, n_);
}

CircleSpec circle_spec_from_json(const nlohmann::json& spec) {
  // "multipliers" and "orbits" are what a multiplier run's problem adds.
  check_spec_fields(spec, "circle", {"name", "n", "solver", "method", "multipliers", "orbits"});
  if (!spec.contains("n") || !spec.at("n").is_number_integer())
    throw SpecError("circle spec needs an integer \"n\": " + spec.dump());
  std::optional<CircleMethod> method;
  try {
    const std::string solver = spec.value("solver", spec.value("method", std::string("exhaustive")));
    if (spec.contains("method") && spec.at("method").get<std::string>() != solver)
      throw SpecError("circle spec gives \"solver\" and its old name \"method\" differently: " + spec.dump());
    method = parse_circle_method(solver);
  } catch (const nlohmann::json::exception&) {
  }
  if (!method) throw SpecError(std::string("unknown circle solver (use ") + kCircleMethodNames + ") in " + spec.dump());
  const CircleSpec s{spec_int(spec.at("n"), "circle n"), *method};
  validate_circle(s);
  return s;
}

void CircleProblem::cut(int depth, SinkRef<State> sink) const {
  with_circle_search(n_, [&](auto& s) {
    using S = std::remove_reference_t<decltype(s)>;
    s.expand(S::root(n_), depth, sink);
  });
}

void CircleMultiplierProblem::cut(int depth, SinkRef<State> sink) const {
  ExpandMode<State> ex{sink, depth};
  for (const State& r : roots_) dfs(r, ex);
}

// The `circle` subcommand (magic/family_command.hpp).
FamilyCommand CircleFamily::command() {
  FamilyCommand c;
  c.summary = "count magic circles (魔円陣): n numbers whose arcs sum to 1..n(n-1) once each";
  c.options = {
      {.field = "n", .flags = "--n,-n", .kind = FieldKind::Int,
       .help = "numbers on the circle, 3..40 (exhaustive: n=17 takes minutes)", .required = true},
      {.field = "solver", .flags = "--solver,--method", .kind = FieldKind::Choice,
       .help = "exhaustive (no number theory) or multiplier (difference sets fixed by the multipliers p | n-1; "
               "reaches n = 40)",
       .default_value = "exhaustive"},
  };
  c.text = SolutionText::Numbers;
  return c;
}

}  // namespace magic
