# SPDX-License-Identifier: Apache-2.0
# attractor-sim commands of paper 004's systems (sleigh-toda, falling-disk, suslov --a, ...):
# a reference run each and one test per exit-code rule (hil/cli/exit_codes.hpp).

# sleigh-toda: the defaults are the slides' normalized sleigh from the Toda start (v0 = 0): the
# exact flow to rounding, the energy kept, ∫ div X dt = log(w(T)/w0) < 0 (area contracts).
attractor_cli_test(sleigh_toda_defaults 0
  "\"energy_error\":[0-9.]+e-1[0-9],\"exact_error\":[0-9.]+e-1[0-9],\"divergence_integral\":-[0-9]"
  -- ${SIM} sleigh-toda --json)
attractor_cli_test(sleigh_toda_bad_parameter 5 "--m = -1 is outside its range" -- ${SIM} sleigh-toda --m -1)
attractor_cli_test(sleigh_toda_refused_combination 5 "parameters refused" -- ${SIM} sleigh-toda --I 0 --a 0)
attractor_cli_test(sleigh_toda_step_refused 3 "step refused by check_step" -- ${SIM} sleigh-toda --method feedback-euler --gains 1e4)
attractor_cli_test(sleigh_toda_blowup 4 "run stopped" -- ${SIM} sleigh-toda --method euler --h 1 --v0 3 --w0 3 --T 100)
