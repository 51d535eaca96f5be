// SPDX-License-Identifier: Apache-2.0
// The robustness options every controlled plant of attractor-sim shares (skate, spherical robot),
// declared and parsed once so the names and rules are the same for both:
//   --control-rate HZ   the law is sampled every N = 1/(HZ h) plant steps and held in between
//                       (zero-order hold); the plant keeps its own step h
//   --noise SD --seed N seeded Gaussian noise of standard deviation SD added to every component
//                       the law reads, once per control sample (deterministic: mt19937_64 +
//                       Box-Muller, no library-defined distribution)
//   --mismatch K=F,...  the plant's parameter K is the controller model's times (1 + F); the
//                       command-line parameters are the controller's model
// Used by docs/robustness.md (scripts/robustness). Host-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "exit_codes.hpp"
#include "numbers.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace attractor::cli {

struct ClosedLoopOptions {
  double control_rate = 0;  // [Hz], 0 = not given (the law runs at every step)
  int64_t hold = 1;         // plant steps per control sample
  bool sampled = false;     // the law is sampled once per step or slower (ZOH), not at every stage
  double noise = 0;         // sensor noise standard deviation (units of the component)
  uint64_t seed = 1;
  std::vector<std::pair<std::string, double>> mismatch;  // parameter -> relative error of the plant

  // Plant value of a parameter whose controller-model value is `model`.
  double plant(const std::string& key, double model) const {
    for (const auto& kv : mismatch)
      if (kv.first == key) return model * (1 + kv.second);
    return model;
  }
  bool exact_model() const { return mismatch.empty(); }
};

// Declares the options in the spec's current group (the plant's "control" group).
inline void add_closed_loop_options(Spec& s, const std::string& keys) {
  s.number_mode("control-rate", "Hz", "default: every step", positive(),
                "sample the law at this rate and hold it (ZOH; 1/(rate h) whole; with --sigma)")
      .number("noise", "", 0, non_negative(),
              "sensor noise: Gaussian SD added to every state component the law reads (with --sigma)")
      .number("seed", "", 1, between(0, 9007199254740992.0), "noise seed (whole number)")
      .text("mismatch", "K=F,...",
            "plant parameter K = model value x (1 + F), F > -1 (K: " + keys +
                ");\n"
                "                          the options above are the controller's model (with --sigma)");
}

// Parses --mismatch: "K=F[,K=F...]" with K one of `keys`, each at most once, F finite and > -1.
// `shown` is how an error names the value (Args::shown): a value from a config file is named by
// its line, never quoted, like every other option's.
inline std::vector<std::pair<std::string, double>> parse_mismatch(const std::string& text,
                                                                  const std::vector<std::string>& keys,
                                                                  const std::string& shown = std::string()) {
  const bool quote = shown.empty() || shown[0] == '\'';
  const auto q = [&](const std::string& piece) { return quote ? "'" + piece + "'" : shown; };
  std::vector<std::pair<std::string, double>> out;
  std::string known;
  for (const auto& k : keys) known += (known.empty() ? "" : ", ") + k;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, end - pos);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw Failure(exit_usage, "--mismatch: " + q(item) + " is not K=F (e.g. m=0.1,I1=-0.1)");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    bool ok = false;
    for (const auto& k : keys) ok = ok || k == key;
    if (!ok) throw Failure(exit_usage, "--mismatch: unknown parameter " + q(key) + " (one of " + known + ")");
    for (const auto& kv : out)
      if (kv.first == key) throw Failure(exit_usage, "--mismatch: parameter " + q(key) + " given twice");
    double f = 0;
    if (!parse_number(value, f)) throw Failure(exit_usage, "--mismatch: " + q(key + "=" + value) + " is not a number");
    if (!std::isfinite(f) || !(f > -1))
      throw Failure(exit_invalid, "--mismatch: " + key + " = " + exact(f) +
                                      " is outside its range: need -1 < F, finite (plant = model x (1 + F))");
    out.emplace_back(key, f);
    pos = end + 1;
  }
  return out;
}

// Reads the options (only with a controller: `controlled`); h is the plant's step.
inline ClosedLoopOptions parse_closed_loop(const Args& a, bool controlled, double h,
                                           const std::vector<std::string>& keys) {
  ClosedLoopOptions o;
  if (!controlled) {
    for (const char* k : {"control-rate", "noise", "seed", "mismatch"}) a.forbid(k, "without --sigma");
    return o;
  }
  o.sampled = a.flag("zoh");
  if (a.given("control-rate")) {
    o.control_rate = a.num("control-rate", 0);
    const double n = 1 / (o.control_rate * h);
    o.hold = std::isfinite(n) ? static_cast<int64_t>(std::llround(n)) : 0;
    if (o.hold < 1 || std::abs(n - double(o.hold)) > 1e-9 * double(o.hold)) {
      char b[300];
      std::snprintf(b, sizeof b,
                    "--control-rate = %s Hz is not 1/(N h) for a whole N >= 1 with --h = %s (1/(rate h) = %.6g); "
                    "pick a rate that divides 1/h",
                    exact(o.control_rate).c_str(), exact(h).c_str(), n);
      throw Failure(exit_invalid, b);
    }
    o.sampled = true;
  }
  o.noise = a.num("noise");
  if (o.noise > 0) o.sampled = true;  // a noisy sample is held like a firmware's reading
  o.seed = a.whole("seed");
  if (a.given("seed") && !(o.noise > 0)) a.forbid("seed", "without --noise");
  if (a.given("mismatch")) o.mismatch = parse_mismatch(a.text("mismatch"), keys, a.shown("mismatch"));
  return o;
}

// The options as the run used them, in the --json summary (the sweep's collector reads them back).
inline void loop_json(Json& j, const ClosedLoopOptions& o, double h) {
  j["zoh"] = o.sampled;
  j["control_rate"] = o.sampled ? num(o.control_rate > 0 ? o.control_rate : 1 / h) : Json(nullptr);
  j["hold_steps"] = o.sampled ? Json(o.hold) : Json(nullptr);
  j["noise"] = num(o.noise);
  if (o.noise > 0) j["seed"] = o.seed;
  j["mismatch"] = Json::object();
  for (const auto& kv : o.mismatch) j["mismatch"][kv.first] = num(kv.second);
}

// Gaussian sensor noise, reproducible from the seed on any standard library: mt19937_64 is
// specified bit for bit by the standard, Box-Muller is written here.
class SensorNoise {
 public:
  SensorNoise(double sd, uint64_t seed) : sd_(sd), rng_(seed) {}
  template <class V>
  V add(V x) {
    if (!(sd_ > 0)) return x;
    for (int i = 0; i < int(x.size()); ++i) x[i] += typename V::Scalar(sd_ * gaussian());
    return x;
  }

 private:
  double uniform() { return (double(rng_() >> 11) + 0.5) * 0x1.0p-53; }  // (0, 1)
  double gaussian() {
    if (spare_valid_) {
      spare_valid_ = false;
      return spare_;
    }
    const double r = std::sqrt(-2 * std::log(uniform())), t = 2 * M_PI * uniform();
    spare_ = r * std::sin(t), spare_valid_ = true;
    return r * std::cos(t);
  }
  double sd_;
  std::mt19937_64 rng_;
  double spare_ = 0;
  bool spare_valid_ = false;
};

// The closed loops' time grid, read in one order for every plant so that a command's first error
// does not depend on the plant: --h (checked for the precision before anything is counted), the
// loop options (their rates are checked against h), --T, the step count, then --every (a whole
// number, only with --csv). `default_T`: the plant's own default for --T when its spec has none.
struct ClosedLoopGrid {
  double h = 0, T = 0;
  ClosedLoopOptions loop;
  int64_t steps = 0, every = 1;
};

inline ClosedLoopGrid parse_closed_loop_grid(const Args& a, bool controlled, const std::vector<std::string>& keys,
                                             const double* default_T = nullptr) {
  ClosedLoopGrid g;
  g.h = a.num("h");
  check_step_precision(a.choice("precision"), g.h);
  g.loop = parse_closed_loop(a, controlled, g.h, keys);
  g.T = default_T ? a.num("T", *default_T) : a.num("T");
  g.steps = step_count(g.T, g.h, a.flag("force"));
  const double every = a.num("every");
  if (every != std::floor(every)) throw Failure(exit_invalid, "--every = " + exact(every) + " is not a whole number");
  g.every = static_cast<int64_t>(every);
  if (!a.given("csv")) a.forbid("every", "without --csv");
  return g;
}

}  // namespace attractor::cli
