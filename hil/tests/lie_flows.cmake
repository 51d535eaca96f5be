# SPDX-License-Identifier: Apache-2.0
# attractor-sim commands of paper 004's systems (sleigh-toda, falling-disk, suslov --a, ...): a
# reference run each. Their exit-code rules are tested over every feedback system on the typed
# outcome (hil/tests/feedback_rules_test.cpp); the sleigh-toda's bad parameter and blow-up here are
# those rules' process-level form (the exit status, the "run stopped" line on stderr).

# sleigh-toda: the defaults are the slides' normalized sleigh from the Toda start (v0 = 0): the
# exact flow to rounding, the energy kept, ∫ div X dt = log(w(T)/w0) < 0 (area contracts).
attractor_cli_test(sleigh_toda_defaults 0
  "\"energy_error\":[0-9.]+e-1[0-9],.*(\"exact_error\":[0-9.]+e-1[0-9],.*\"divergence_integral\":-[0-9]|\"divergence_integral\":-[0-9].*\"exact_error\":[0-9.]+e-1[0-9],)"
  -- ${SIM} sleigh-toda --json --measure)
attractor_cli_test(sleigh_toda_bad_parameter 5 "--m = -1 is outside its range" -- ${SIM} sleigh-toda --m -1)
attractor_cli_test(sleigh_toda_blowup 4 "run stopped" -- ${SIM} sleigh-toda --method euler --h 1 --v0 3 --w0 3 --T 100)

# falling-disk: the defaults keep the rolling constraints and the energy, and the reduced volume
# (divergence_integral at the differencing level, log_measure_change with the constant density).
attractor_cli_test(falling_disk_defaults 0
  "\"constraint_error\":[0-9.]+e-(09|1[0-9]),\"energy_error\":[0-9.]+e-(09|1[0-9]),.*\"divergence_integral\":-?[0-9.]+e-1[0-9],\"log_measure_change\":-?[0-9.]+e-1[0-9]"
  -- ${SIM} falling-disk --json --T 4 --measure)
attractor_cli_test(falling_disk_project 0 "^falling-disk feedback-rk4 double h=0.001 steps=1000 t=1: c1 max=[0-9.]+e-(09|1[0-9])"
  -- ${SIM} falling-disk --v0 1,0 --project --T 1)
attractor_cli_test(falling_disk_flat 5 "the disk must not lie flat" -- ${SIM} falling-disk --tilt0 1.6,0 --project)

# suslov --a (paper 004 Theorem 0.6): a along an eigenvector of the inertia keeps the volume,
# divergence_integral at the integration-error level (< 1e-8; exactly 0 here, every motion being a
# steady rotation); a generic a contracts it: the threshold is |divergence_integral| > 0.1
# (measured −4.8 over T = 10).
attractor_cli_test(suslov_a_eigenvector 0 "\"divergence_integral\":(-?[0-9.]+e-(09|1[0-9])|-?0[.]0)[,}]"
  -- ${SIM} suslov --inertia 2,0.5,0,1,0,3 --a 0,0,1 --Pi0 1,1,0 --method feedback-rk4 --gains 10 --h 0.005 --T 10 --json --measure)
attractor_cli_test(suslov_a_generic 0 "\"divergence_integral\":-([1-9]|0[.][1-9])"
  -- ${SIM} suslov --inertia 2,0.5,0,1,0,3 --a 1,1,1 --Pi0 1,1,-2 --project --method feedback-rk4 --gains 10 --h 0.005 --T 10 --json --measure)

# chaplygin-sphere: the defaults (to t = 2 of their T = 20, which takes ~20 s under ASan at -O0) keep
# |Γ|², H, K, |M|² and Chaplygin's measure (log_measure_change at the integration level), while the
# plain volume changes (divergence_integral -4.9e-3 at t = 2).
attractor_cli_test(chaplygin_sphere_defaults 0
  "\"constraint_error\":[0-9.]+e-(09|1[0-9]),\"energy_error\":[0-9.]+e-(09|1[0-9]),.*\"divergence_integral\":-0[.]00?[1-9][0-9]*,\"log_measure_change\":-?[0-9.]+e-(0[89]|1[0-9])"
  -- ${SIM} chaplygin-sphere --json --T 2 --measure)
attractor_cli_test(chaplygin_sphere_auto_gains 0 "auto gains" -- ${SIM} chaplygin-sphere --gains auto --precision float --T 2)
attractor_cli_test(chaplygin_sphere_project 0 "^chaplygin-sphere feedback-rk4 double h=0.001 steps=1000 t=1: G max=[0-9.]+e-1[0-9]"
  -- ${SIM} chaplygin-sphere --gamma0 0,0,2 --project --T 1)
attractor_cli_test(chaplygin_sphere_zero_vertical 5 "Gamma0 = 0 cannot be normalized" -- ${SIM} chaplygin-sphere --gamma0 0,0,0 --project)
# chaplygin-sphere-pose: R0 defaults to the default Gamma0's attitude, so another --gamma0 alone is
# refused (exit 5) and --project sets R0 from it.
attractor_cli_test(chaplygin_sphere_pose_attitude_mismatch 5 "R0.T e3 is not Gamma0"
  -- ${SIM} chaplygin-sphere-pose --gamma0 0,0,1)
attractor_cli_test(chaplygin_sphere_pose_project 0 "^chaplygin-sphere-pose feedback-rk4 double h=0.001 steps=1000 t=1: G max="
  -- ${SIM} chaplygin-sphere-pose --gamma0 0,0,1 --project --T 1)

# sleigh-oscillating-mass (no constraint row: Ω⁶ = 0 is built into the state; constraint_error
# null): the defaults (to t = 2 of their T = 20) keep the energy and the volume dr dṙ d⁵p.
attractor_cli_test(sleigh_oscillating_mass_defaults 0
  "\"energy_error\":[0-9.]+e-1[0-9],.*\"divergence_integral\":-?[0-9.]+e-1[0-9],\"log_measure_change\":-?[0-9.]+e-1[0-9]"
  -- ${SIM} sleigh-oscillating-mass --json --T 2 --measure)
attractor_cli_test(sleigh_oscillating_mass_auto_gains 0 "auto gains" -- ${SIM} sleigh-oscillating-mass --gains auto --precision float --T 2)
# Without a spring (k = 0, the facts' range k >= 0, the library's) the mass slides: the step check's
# region grows with the run's duration, and the energy is kept.
attractor_cli_test(sleigh_oscillating_mass_no_spring 0 "\"k\":0[.]0,.*\"energy_error\":[0-9.]+e-1[0-9]"
  -- ${SIM} sleigh-oscillating-mass --k 0 --json --T 2)

# Principal moments (the facts' principal_moments): a triple that violates the triangle inequality
# runs with a warning on stderr, as the skate's and the robot's do; a real body's runs without one.
attractor_cli_test(sphere_triangle_warning 0
  "chaplygin-sphere: warning: I1, I2, I3 = .0[.]3, 0[.]4, 2. violate the triangle inequality"
  -- ${SIM} chaplygin-sphere --I3 2 --T 0.01)
attractor_cli_test(sphere_no_triangle_warning 0 "^chaplygin-sphere feedback-rk4" --not "triangle"
  -- ${SIM} chaplygin-sphere --T 0.01)
attractor_cli_test(sleigh_mass_triangle_warning 0
  "sleigh-oscillating-mass: warning: I1, I2, I3 = .1, 1[.]5, 3. violate the triangle inequality"
  -- ${SIM} sleigh-oscillating-mass --I3 3 --T 0.01)
attractor_cli_test(sleigh_mass_no_triangle_warning 0 "^sleigh-oscillating-mass feedback-rk4" --not "triangle"
  -- ${SIM} sleigh-oscillating-mass --T 0.01)
