// apps/skate-rotor: the pendulum skate kept upright by its internal rotor (paper 003 §6–7,
// law (56) as corrected in lib/include/attractor/control/skate_rotor_law.hpp), in float, at
// 1 kHz in the board's tick. Software-in-the-loop: the plant runs on the target too.
// Runs 10 s of (virtual) time, prints the runtime report and the outcome, and exits 0 when the
// skate stayed upright with the controller never dropping to the safe state.
#include "attractor/board/board.hpp"
#include "attractor/core/text.hpp"
#include "attractor/rt/tick.hpp"
#include "skate_rotor_app.hpp"

using namespace attractor;
using Board = board::Board;

namespace {

constexpr std::uint32_t kRateHz = 1000;
constexpr std::uint32_t kTicks = 10000;    // 10 s at 1 kHz
constexpr float kUprightGamma3 = 0.95f;    // "upright": tilt below ~18 degrees throughout

void line(const char* label, float v) {
  Text<96> t;
  t << "skate: " << label << " ";
  t.scientific(static_cast<double>(v), 6);
  t << "\n";
  Board::write(t.c_str());
}

}  // namespace

int main() {
  Board::initialize();
  SkateRotorAppConfig<float> cfg;
  auto app = SkateRotorApp<float>::make(cfg, 1.0f / static_cast<float>(kRateHz));
  if (!app) {
    Text<96> t;
    t << "skate: configuration refused: " << to_string(app.error()) << "\n";
    Board::write(t.c_str());
    return 2;
  }
  {
    Text<160> t;
    t << "skate-rotor on " << Board::name() << ": SIL, float, " << kRateHz << " Hz, "
      << kTicks << " ticks, sigma ";
    t.scientific(static_cast<double>(cfg.sigma), 3);
    t << " (stable range lower bound ";
    t.scientific(static_cast<double>(skate_rotor_stability_range(cfg.params).lower), 4);
    t << ")\n";
    Board::write(t.c_str());
  }

  rt::Config rc = rt::rate_hz(kRateHz);
  rc.max_ticks = kTicks;
  const rt::Report r = rt::run<Board>(*app, rc);
  rt::write_report(r, [](const char* s) { Board::write(s); });

  const auto& o = app->outcome();
  line("min Gamma3 (plant)        ", o.min_gamma3);
  line("max tilt [rad]            ", std::acos(o.min_gamma3 < 1.0f ? o.min_gamma3 : 1.0f));
  line("max |u| [N m]             ", o.max_abs_torque);
  line("max |Gamma_hat - Gamma|   ", o.max_gamma_error);
  line("max |Gamma|^2-1, |Gamma1| ", o.max_constraint);
  line("final Gamma3 (plant)      ", app->plant_state()[4]);

  const bool upright = o.min_gamma3 > kUprightGamma3 && r.mode == rt::Mode::running &&
                       r.steps == kTicks;
  Board::write(upright ? "skate: UPRIGHT for 10 s (controller never left running mode)\n"
                       : "skate: FELL or tripped to the safe state\n");
  return upright ? 0 : 1;
}
