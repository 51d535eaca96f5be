# SPDX-License-Identifier: Apache-2.0
# attractor-sim: smoke runs and one test per input rule.
set(SIM $<TARGET_FILE:attractor-sim>)
add_test(NAME tools.sim_help COMMAND attractor-sim --help)
set_tests_properties(tools.sim_help PROPERTIES LABELS host)

# attractor-sim spherical-pendulum / planar-pendulum smoke tests: a run prints its invariant
# deviations (their bad input and refused steps: hil/tests/feedback_rules_test.cpp's rows).
add_test(NAME tools.sim_spherical_json COMMAND attractor-sim spherical-pendulum --json --T 1)
set_tests_properties(tools.sim_spherical_json PROPERTIES
  PASS_REGULAR_EXPRESSION "\"max_abs_dev\":{\"f1\":[0-9]")
add_test(NAME tools.sim_planar_json COMMAND attractor-sim planar-pendulum --json --method rattle --precision float)
set_tests_properties(tools.sim_planar_json PROPERTIES
  PASS_REGULAR_EXPRESSION "\"system\":\"planar-pendulum\".*\"max_abs_dev\":{\"f1\":[0-9]")
set_tests_properties(tools.sim_spherical_json tools.sim_planar_json PROPERTIES LABELS host)

# --measure: a feedback-driver summary measures the system's own field: divergence_integral (a
# Hamiltonian field: 0 up to the differencing error), log_measure_change null without a density
attractor_cli_test(measure_json_fields 0 "\"divergence_integral\":-?[0-9][^,]*e-1[0-9],\"log_measure_change\":null"
  -- ${SIM} spherical-pendulum --json --T 0.5 --measure)

# ---- Input rules: one test per rule.
# a number is the whole token
attractor_cli_test(number_partial 2 "--m: '1.5abc' is not a number" -- ${SIM} skate --m 1.5abc)
attractor_cli_test(number_word 2 "--phi0: 'abc' is not a number" -- ${SIM} skate --phi0 abc)
attractor_cli_test(number_empty 2 "--h: '' is an empty value" -- sh -c "\"$0\" spherical-pendulum --h ''" ${SIM})
attractor_cli_test(list_count 2 "--zeta needs exactly 5" -- ${SIM} skate --zeta 0,0,0,0,1,2)
attractor_cli_test(list_trailing_word 2 "--zeta needs exactly 5" -- ${SIM} skate --zeta 0,0,0,0,1x)
attractor_cli_test(gains_word 2 "--gains: 'fast'" -- ${SIM} spherical-pendulum --gains fast)
# every parameter finite and in its physical range
attractor_cli_test(param_nan 5 "--I1 = nan is outside its range: need 0 < I1" -- ${SIM} skate --I1 nan)
attractor_cli_test(param_overflow 5 "--m = inf is outside its range" -- ${SIM} spherical-pendulum --m 1e309)
attractor_cli_test(param_negative 5 "--l = -1 is outside its range: need 0 < l" -- ${SIM} planar-pendulum --l -1)
attractor_cli_test(param_umax 5 "--umax = -1 is outside its range: need 0 < umax" -- ${SIM} skate --sigma -1e-5 --umax -1)
attractor_cli_test(param_float_range 5 "beyond the range of float" -- ${SIM} spherical-pendulum --precision float --m 1e39)
attractor_cli_test(param_feedback 5 "--feedback = -1 is outside" -- ${SIM} skate --feedback -1)
attractor_cli_test(triangle_warning 0 "triangle inequality" -- ${SIM} skate --I3 2 --T 0.01)
attractor_cli_test(sigma_range_exact 3 "--sigma = 1e-12 refused.*< sigma < 0" -- ${SIM} skate --sigma 1e-12 --T 0.01)
# initial states finite and on the constraint, or --project
attractor_cli_test(state_nan 5 "phi0 = nan is outside" -- ${SIM} skate --phi0 nan)
attractor_cli_test(state_below_ice 5 "phi0 = 2 is outside" -- ${SIM} skate --phi0 2.0)
attractor_cli_test(state_on_ice 5 "Gamma3 = 0 is outside its range: need Gamma3 > 0" -- ${SIM} skate --zeta 0,0,0,1,0)
attractor_cli_test(state_off_constraint 5 "off the constraint" -- ${SIM} skate --zeta 0,0,0,5,5)
attractor_cli_test(state_projected 0 "no fall|fall" -- ${SIM} skate --zeta 0,0,0,5,5 --project --T 0.01)
attractor_cli_test(state_zero_gamma 5 "cannot be projected" -- ${SIM} skate --zeta 0,0,0,0,0 --project)
attractor_cli_test(state_off_sphere 5 "not on the sphere.*use --project" -- ${SIM} spherical-pendulum --q0 0,2,0 --T 0.01)
attractor_cli_test(state_q0_nan 5 "--q0: element 2 = nan is not finite" -- ${SIM} spherical-pendulum --q0 0,nan,0)
# step count in 64 bit, refused when 0 or absurd
attractor_cli_test(steps_zero 5 "0 steps" -- ${SIM} skate --T 1e-9)
attractor_cli_test(steps_absurd 5 "4.295e\\+09 steps.*--force" -- ${SIM} skate --T 4294967.306 --h 0.001)
attractor_cli_test(steps_absurd_pendulum 5 "1e\\+12 steps.*estimated" -- ${SIM} spherical-pendulum --T 1e6 --h 1e-6)
attractor_cli_test(steps_infinite 5 "--T = inf is outside" -- ${SIM} skate --T inf)
attractor_cli_test(every_fraction 5 "--every = 2.7 is not a whole number" -- ${SIM} skate --csv ${_tmp}/e.csv --every 2.7)
attractor_cli_test(every_zero 5 "--every = 0 is outside" -- ${SIM} skate --csv ${_tmp}/e.csv --every 0)
attractor_cli_test(every_huge 0 "no fall" -- ${SIM} skate --csv ${_tmp}/e.csv --every 1e10 --T 0.01)
# options that do not apply to the chosen mode
attractor_cli_test(na_sigma_full 2 "--model does not apply with --sigma" -- ${SIM} skate --sigma -1e-5 --model full)
attractor_cli_test(na_sigma_feedback 2 "--feedback does not apply with --sigma" -- ${SIM} skate --sigma -1e-5 --feedback 10)
attractor_cli_test(na_umax 2 "--umax does not apply without --sigma" -- ${SIM} skate --umax nan)
attractor_cli_test(na_gains_plain 2 "--gains does not apply to --method rk4" -- ${SIM} spherical-pendulum --method rk4 --gains 5)
attractor_cli_test(na_every 2 "--every does not apply without --csv" -- ${SIM} skate --every 5)
# unknown options, repeated options, -h
attractor_cli_test(unknown_option 2 "not expected: --bogus" -- ${SIM} skate --bogus)
attractor_cli_test(repeated_option 2 "--m" -- ${SIM} skate --m 1 --m 2)
attractor_cli_test(unknown_command 2 "unknown command" -- ${SIM} pendulum)
attractor_cli_test(help_exit_table 0 "exit codes.*" -- ${SIM} skate --help)
# numerical blow-up stops with its own code
attractor_cli_test(blowup_drift 4 "invariant_drift_beyond_sanity" -- ${SIM} skate --phi0 1.5707963)
attractor_cli_test(blowup_nonfinite_json 4 "\"stopped\":\"(non_finite_state|invariant_drift_beyond_sanity)\"" --not "inf|nan"
  -- ${SIM} spherical-pendulum --gains 1e7 --unchecked --json --T 1)
# refused as unstable
attractor_cli_test(unstable_skate_feedback 3 "step refused by check_step" -- ${SIM} skate --feedback 1e9)
# I/O errors fail the command
attractor_cli_test(io_dev_full 6 "error writing '/dev/full'" -- ${SIM} skate --csv /dev/full)
attractor_cli_test(io_csv_empty 2 "--csv: '' is an empty value" -- sh -c "\"$0\" skate --csv ''" ${SIM})
attractor_cli_test(io_csv_dir 6 "cannot write" -- ${SIM} spherical-pendulum --csv ${_tmp}/a_file/x.csv --T 0.01)
# config file: same rules as the command line, bounded
attractor_cli_test(config_dev_zero 6 "'/dev/zero' is not a regular file" -- ${SIM} skate --config /dev/zero)
attractor_cli_test(config_missing 6 "cannot read" -- ${SIM} skate --config ${_tmp}/missing.conf)
attractor_cli_test(config_no_equals 2 "line 1: expected key=value" -- ${SIM} skate --config ${_cfg}/no_equals.conf)
attractor_cli_test(config_duplicate 2 "key 'm' repeats line 1" -- ${SIM} skate --config ${_cfg}/duplicate.conf)
attractor_cli_test(config_unknown_key 2 "unknown key 'bogus'" -- ${SIM} skate --config ${_cfg}/unknown_key.conf)
attractor_cli_test(config_bad_bool 2 "line 1: --json: the value is not a boolean" --not "maybe" -- ${SIM} skate --config ${_cfg}/bad_bool.conf)
attractor_cli_test(config_bad_number 2 "--m: the value on --config .*bad_number.conf line [0-9]+ is not a number" --not "1[.]5abc" -- ${SIM} skate --config ${_cfg}/bad_number.conf)
attractor_cli_test(config_json_off 0 "^skate uncontrolled" --not "[{]" -- ${SIM} skate --config ${_cfg}/json_off.conf)
attractor_cli_test(config_json_on 0 "^[{]\"system\":\"skate\"" -- ${SIM} skate --config ${_cfg}/json_on.conf)
attractor_cli_test(flag_value_off 0 "^skate uncontrolled" -- ${SIM} skate --json=0 --T 0.01)
attractor_cli_test(config_command_line_wins 0 "\"t_end\":0.02" -- ${SIM} skate --config ${_cfg}/json_on.conf --T 0.02)
# --gains auto reports what it chose
attractor_cli_test(auto_gains_pendulum 0 "\"gains_auto\":true" -- ${SIM} planar-pendulum --gains auto --json)
attractor_cli_test(auto_gains_skate 0 "feedback rate [0-9.]+ [(]auto[)]" -- ${SIM} skate --gains auto --T 0.5)

# The feedback-system driver (hil/cli/feedback_system_driver.hpp) on the guide's example, and
# the summary fields every simulator shares (hil/cli/run_report.hpp).
attractor_cli_test(oscillator_auto_json 0 "\"gains\":\\[[0-9.]+\\],\"gains_auto\":true.*\"energy_error\":[0-9].*\"exact_error\":[0-9]"
  --not "nan|inf" -- ${SIM} harmonic-oscillator --gains auto --json --T 2)
attractor_cli_test(oscillator_method 0 "^harmonic-oscillator heun float h=0.001 steps=1000 t=1: H max=.* exact error="
  -- ${SIM} harmonic-oscillator --method heun --precision float --T 1)
attractor_cli_test(oscillator_gains_count 2 "--gains: '1,2' is not 'auto', one number or 1 comma-separated"
  -- ${SIM} harmonic-oscillator --gains 1,2)
attractor_cli_test(oscillator_baseline_unknown 2 "--method: 'rattle' is not one of"
  -- ${SIM} harmonic-oscillator --method rattle)
attractor_cli_test(json_fields_skate 0 "\"method\":\"rk4\",.*\"steps\":10,.*\"gains\":null.*\"constraint_error\":[0-9].*\"energy_error\":[0-9].*\"exact_error\":null,.*\"final_state\":[{]\"v1\""
  -- ${SIM} skate --json --T 0.01)
attractor_cli_test(json_fields_robot 0 "\"method\":\"feedback-rk4\".*\"gains\":\\[[0-9.e-]+,.*\"constraint_error\":[0-9].*\"final_state\":[{]\"Omega1\""
  -- ${SIM} spherical-robot --feedback 1 --json --T 0.01)
attractor_cli_test(json_fields_pendulum 0 "\"constraint_error\":[0-9].*\"energy_error\":[0-9].*\"final_state\":[{]\"q1\""
  -- ${SIM} spherical-pendulum --json --T 0.01)
attractor_cli_test(skate_float_state_range 5 "beyond the range of float" -- ${SIM} skate --precision float --Omega1 1e39)


# attractor-sim spherical-robot: the reference runs and one test per input rule.
attractor_cli_test(robot_c1 0 "spherical-robot controlled double rk4 h=0.01 t=10: no fall max tilt=0.10803 .*max[|]u[|]=0.431"
  -- ${SIM} spherical-robot --sigma -1.5e-4 --h 0.01)
attractor_cli_test(robot_u1_falls 0 "uncontrolled .*fall t=1.28[0-9]+ .*J=[0-9.]+e-1[0-9]" -- ${SIM} spherical-robot --T 3)
attractor_cli_test(robot_json 0 "^[{]\"system\":\"spherical-robot\".*\"max_tilt\":0.108" --not "nan|inf"
  -- ${SIM} spherical-robot --sigma -1.5e-4 --json --h 0.01 --precision float)
attractor_cli_test(robot_help 0 "--theta-dot R1,R2" -- ${SIM} spherical-robot --help)
attractor_cli_test(robot_sigma_outside 3 "--sigma = -0.0004.*refused: outside_stability_range.*-0.000294[0-9]* < sigma < 0"
  -- ${SIM} spherical-robot --sigma -4e-4)
attractor_cli_test(robot_sigma_positive 3 "refused: outside_stability_range" -- ${SIM} spherical-robot --sigma 1e-3)
attractor_cli_test(robot_sigma2_outside 3 "--sigma2 = -0.001 refused" -- ${SIM} spherical-robot --sigma -1e-4 --sigma2 -1e-3)
attractor_cli_test(robot_singular_unchecked 4 "STOPPED: singular_closed_loop at t=0.41"
  -- ${SIM} spherical-robot --sigma -4e-4 --unchecked)
attractor_cli_test(robot_bottom_heavy_law 5 "needs a top-heavy robot" -- ${SIM} spherical-robot --l -0.05 --sigma -1e-4)
attractor_cli_test(robot_param_nan 5 "--m = nan is outside its range: need 0 < m" -- ${SIM} spherical-robot --m nan)
attractor_cli_test(robot_param_rotor 5 "J1 < I1" -- ${SIM} spherical-robot --J1 0.2)
attractor_cli_test(robot_param_cm_outside 5 "[|]l[|] < a" -- ${SIM} spherical-robot --l 0.3)
attractor_cli_test(robot_param_float_range 5 "beyond the range of float" -- ${SIM} spherical-robot --precision float --m 1e39)
attractor_cli_test(robot_state_phi0 5 "--phi0 = 1.6 is outside" -- ${SIM} spherical-robot --phi0 1.6)
attractor_cli_test(robot_state_omega_count 2 "--Omega needs exactly 3" -- ${SIM} spherical-robot --Omega 1,2)
attractor_cli_test(robot_state_rotor_nan 5 "--theta-dot: element 2 = nan is not finite" -- ${SIM} spherical-robot --theta-dot 0,nan)
attractor_cli_test(robot_na_umax 2 "--umax does not apply without --sigma" -- ${SIM} spherical-robot --umax 1)
attractor_cli_test(robot_na_sigma2 2 "--sigma2 does not apply without --sigma" -- ${SIM} spherical-robot --sigma2 -1e-4)
attractor_cli_test(robot_na_feedback 2 "--feedback does not apply with --sigma" -- ${SIM} spherical-robot --sigma -1e-4 --feedback 1)
attractor_cli_test(robot_na_unchecked 2 "--unchecked does not apply" -- ${SIM} spherical-robot --unchecked)
attractor_cli_test(robot_steps_zero 5 "0 steps" -- ${SIM} spherical-robot --T 1e-9)
attractor_cli_test(robot_feedback_refused 3 "step refused by check_step" -- ${SIM} spherical-robot --feedback 1e9)
# auto for the robot: the stability rule (RK4 55.71, Euler 40 at h = 1e-3) capped at 4 x the fall
# rate sqrt(mgl/I_P) = 2.4022 (9.609); at h = 0.05 the stability rule binds (1.114)
attractor_cli_test(robot_feedback_auto 0 "feedback rate 9.609 [(]auto[)]" -- ${SIM} spherical-robot --feedback auto --T 2)
attractor_cli_test(robot_gains_auto_euler 0 "feedback rate 9.609 [(]auto[)]" -- ${SIM} spherical-robot --gains auto --scheme euler --T 2)
attractor_cli_test(robot_feedback_auto_step 0 "feedback rate 1.114 [(]auto[)]" -- ${SIM} spherical-robot --feedback auto --h 0.05 --T 2)
# the promise of docs/auto-gains.md through the fall in double RK4: E and |Gamma|^2 drift below 1e-8
# (the robot falls at t = 1.28; the largest drift of T = 5 is reached before t = 2)
attractor_cli_test(robot_feedback_auto_margin 0 "\"drift\":[{]\"E\":[0-9.]+e-(09|1[0-9]),[^}]*\"G\":[0-9.]+e-(09|1[0-9]),"
  -- ${SIM} spherical-robot --feedback auto --T 2 --json)
attractor_cli_test(robot_gains_word 2 "--gains: the spherical robot takes 'auto'" -- ${SIM} spherical-robot --gains fast)
attractor_cli_test(robot_gains_and_feedback 2 "give one" -- ${SIM} spherical-robot --gains auto --feedback 1)
attractor_cli_test(robot_feedback_word 2 "--feedback: 'fast' is not a number or 'auto'" -- ${SIM} spherical-robot --feedback fast)
attractor_cli_test(robot_feedback_negative 5 "--feedback = -1 is outside its range" -- ${SIM} spherical-robot --feedback -1)
attractor_cli_test(robot_na_gains 2 "--gains does not apply with --sigma" -- ${SIM} spherical-robot --sigma -1e-4 --gains auto)
attractor_cli_test(robot_saturated_zoh 0 "controlled .*no fall .*max[|]u[|]=0.3 " -- ${SIM} spherical-robot --sigma -1.5e-4 --umax 0.3 --zoh --T 4)
attractor_cli_test(robot_blowup 4 "STOPPED: (non_finite_state|invariant_drift_beyond_sanity)" -- ${SIM} spherical-robot --h 0.5 --Omega 20,0,0)
attractor_cli_test(robot_io_dev_full 6 "error writing '/dev/full'" -- ${SIM} spherical-robot --csv /dev/full --T 0.1)
attractor_cli_test(robot_csv_columns 0 "no fall" -- sh -c "\"$0\" spherical-robot --sigma -1.5e-4 --T 0.01 --csv ${_tmp}/robot.csv && head -1 ${_tmp}/robot.csv | grep -qx 't,Omega1,Omega2,Omega3,G1,G2,G3,theta_dot1,theta_dot2,u1,u2,tilt,x,y,dE' && test $(wc -l < ${_tmp}/robot.csv) -eq 12" ${SIM})
attractor_cli_test(robot_config 0 "^spherical-robot controlled .*no fall" -- ${SIM} spherical-robot --config ${_cfg}/spherical_robot.conf)

# attractor-sim wheel-pendulum: both laws hold the default start; the law's closed loop conserves
# E~ and pi~ (to rounding at every stage, to the hold's error sampled); sigma is checked first.
attractor_cli_test(wheel_law 0 "^wheel-pendulum lagrangian double rk4 h=0.001 t=10: no fall max tilt=0.10000 .*E~=[0-9.]+e-1[0-9] pi~=[0-9.]+e-1[0-9]"
  -- ${SIM} wheel-pendulum)
attractor_cli_test(wheel_lqr 0 "^wheel-pendulum lqr double rk4 h=0.001 t=10: no fall max tilt=0.0999[0-9] .*max[|]u[|]=0.168"
  -- ${SIM} wheel-pendulum --law lqr)
attractor_cli_test(wheel_json 0 "^[{]\"system\":\"wheel-pendulum\".*\"law\":\"lqr\".*\"lqr_gain\":\\[-1.68[0-9]*,.*\"late_max_tilt\":0.00" --not "nan|inf"
  -- ${SIM} wheel-pendulum --law lqr --json --T 1 --precision float)
# the firmware's controller, sampled at 100 Hz with noise: still upright, E~ no longer conserved
attractor_cli_test(wheel_sampled 0 "lagrangian .*no fall max tilt=0.100[0-9]* .*E~=[0-9.]+e-0[3-5]"
  -- ${SIM} wheel-pendulum --control-rate 100 --noise 0.001)
# a 0.2 N m limit from 0.6 rad: the law holds, LQR falls (docs/reaction-wheel-pendulum.md)
attractor_cli_test(wheel_saturated_law 0 "lagrangian .*no fall max tilt=0.60000 .*max[|]u[|]=0.2 " -- ${SIM} wheel-pendulum --umax 0.2 --phi0 0.6)
attractor_cli_test(wheel_saturated_lqr 0 "lqr .*fall t=0.97[0-9]* .*max[|]u[|]=0.2 " -- ${SIM} wheel-pendulum --law lqr --umax 0.2 --phi0 0.6)
attractor_cli_test(wheel_sigma_outside 3 "--sigma = 1e-05 refused: outside_stability_range [(]-1.8556[0-9]*e-05 < sigma < 0[)]"
  -- ${SIM} wheel-pendulum --sigma 1e-5)
attractor_cli_test(wheel_na_sigma 2 "--sigma does not apply with --law lqr" -- ${SIM} wheel-pendulum --law lqr --sigma -1e-5)
attractor_cli_test(wheel_na_lqr_r 2 "--lqr-r does not apply with --law lagrangian" -- ${SIM} wheel-pendulum --lqr-r 5)
attractor_cli_test(wheel_lqr_q_nan 5 "--lqr-q: element 2 = nan is not finite" -- ${SIM} wheel-pendulum --law lqr --lqr-q 1,nan,1)
attractor_cli_test(wheel_no_upright 5 "need M g > 0" -- ${SIM} wheel-pendulum --m_p 0 --m_w 0)
attractor_cli_test(wheel_mismatch_key 2 "unknown parameter 'm' [(]one of m_p, l, I_p, m_w, l_w, I_w, g[)]"
  -- ${SIM} wheel-pendulum --mismatch m=0.1)
attractor_cli_test(wheel_blowup 4 "STOPPED: invariant_drift_beyond_sanity" -- ${SIM} wheel-pendulum --h 0.5 --Omega 100)
attractor_cli_test(wheel_csv_columns 0 "no fall" -- sh -c "\"$0\" wheel-pendulum --T 0.01 --csv ${_tmp}/wheel.csv && head -1 ${_tmp}/wheel.csv | grep -qx 't,Omega,G1,G2,theta_dot,u,tilt,dE' && test $(wc -l < ${_tmp}/wheel.csv) -eq 12" ${SIM})

# Robustness options of the controlled plants (hil/cli/closed_loop_options.hpp; docs/robustness.md):
# the same names and rules for the skate and the robot.
attractor_cli_test(loop_rate_json 0 "\"zoh\":true,\"control_rate\":100.0,\"hold_steps\":10,"
  -- ${SIM} skate --sigma -1e-5 --h 1e-3 --control-rate 100 --T 0.05 --json)
# the law held over 4 plant steps at 250 Hz: the tilt grows from the continuous law's 0.10803
attractor_cli_test(loop_rate_robot 0 "no fall max tilt=0.111[0-9]* "
  -- ${SIM} spherical-robot --sigma -1.5e-4 --h 1e-3 --control-rate 250 --T 3)
attractor_cli_test(loop_rate_not_divisor 5 "--control-rate = 300 Hz is not 1/[(]N h[)] .*3.33333"
  -- ${SIM} skate --sigma -1e-5 --control-rate 300)
attractor_cli_test(loop_rate_above_step 5 "--control-rate = 2000 Hz is not 1/[(]N h[)]"
  -- ${SIM} spherical-robot --sigma -1.5e-4 --control-rate 2000)
attractor_cli_test(loop_rate_zero 5 "--control-rate = 0 is outside its range: need 0 < control-rate"
  -- ${SIM} spherical-robot --sigma -1.5e-4 --control-rate 0)
attractor_cli_test(loop_na_rate 2 "--control-rate does not apply without --sigma" -- ${SIM} skate --control-rate 100)
attractor_cli_test(loop_na_mismatch 2 "--mismatch does not apply without --sigma" -- ${SIM} spherical-robot --mismatch m=0.1)
attractor_cli_test(loop_na_seed 2 "--seed does not apply without --noise" -- ${SIM} skate --sigma -1e-5 --seed 3)
attractor_cli_test(loop_noise_negative 5 "--noise = -0.1 is outside its range" -- ${SIM} skate --sigma -1e-5 --noise -0.1)
attractor_cli_test(loop_seed_fraction 5 "--seed = 1.5 is not a whole number" -- ${SIM} skate --sigma -1e-5 --noise 0.1 --seed 1.5)
# seeded: the same seed gives the same run, another seed another one
attractor_cli_test(loop_noise_seeded 0 "same" -- sh -c "a=$(\"$0\" spherical-robot --sigma -1.5e-4 --noise 0.05 --seed 7 --T 0.3 --json) && b=$(\"$0\" spherical-robot --sigma -1.5e-4 --noise 0.05 --seed 7 --T 0.3 --json) && c=$(\"$0\" spherical-robot --sigma -1.5e-4 --noise 0.05 --seed 8 --T 0.3 --json) && [ \"$a\" = \"$b\" ] && [ \"$a\" != \"$c\" ] && echo same" ${SIM})
attractor_cli_test(loop_noise_json 0 "\"noise\":0.01,\"seed\":1," -- ${SIM} skate --sigma -1e-5 --noise 0.01 --T 0.05 --json)
attractor_cli_test(loop_mismatch_json 0 "\"mismatch\":[{]\"m\":0.1,\"I1\":-0.1[}]"
  -- ${SIM} spherical-robot --sigma -1.5e-4 --mismatch m=0.1,I1=-0.1 --T 0.05 --json)
# a mismatched plant moves differently from the model (l is the skate's most sensitive parameter)
attractor_cli_test(loop_mismatch_moves 0 "min G3=0.99[0-9]* " --not "min G3=0.99194 "
  -- ${SIM} skate --sigma -1e-5 --mismatch l=-0.1 --T 10)
attractor_cli_test(loop_mismatch_key 2 "--mismatch: unknown parameter 'J3' [(]one of a, m, l, g, I1, I2, I3, J1, J2[)]"
  -- ${SIM} spherical-robot --sigma -1.5e-4 --mismatch J3=0.1)
attractor_cli_test(loop_mismatch_form 2 "--mismatch: 'm' is not K=F" -- ${SIM} skate --sigma -1e-5 --mismatch m)
attractor_cli_test(loop_mismatch_twice 2 "parameter 'm' given twice" -- ${SIM} skate --sigma -1e-5 --mismatch m=0.1,m=0.2)
attractor_cli_test(loop_mismatch_word 2 "--mismatch: 'l=x' is not a number" -- ${SIM} skate --sigma -1e-5 --mismatch l=x)
attractor_cli_test(loop_mismatch_range 5 "--mismatch: m = -1 is outside its range: need -1 < F"
  -- ${SIM} skate --sigma -1e-5 --mismatch m=-1)
attractor_cli_test(loop_mismatch_plant_invalid 5 "--mismatch: the plant's parameters are invalid.*J1 < I1"
  -- ${SIM} spherical-robot --sigma -1.5e-4 --mismatch J1=9)
attractor_cli_test(loop_mismatch_config 0 "\"mismatch\":[{]\"l\":0.05[}]" -- ${SIM} skate --config ${_cfg}/robustness.conf)


# scripts/robustness: a 2-line run list through parallel and the collector gives a table
add_test(NAME tools.robustness_collector
  COMMAND sh -c "rm -rf \"$1\" && \"$0\" --sim \"$2\" --runs \"$3\" --work \"$1/work\" --out \"$1/none.md\" --no-plots"
    ${PROJECT_SOURCE_DIR}/scripts/robustness ${_tmp}/robustness ${SIM} ${CMAKE_CURRENT_SOURCE_DIR}/tests/robustness_runs.txt)
set_tests_properties(tools.robustness_collector PROPERTIES LABELS host TIMEOUT 120
  PASS_REGULAR_EXPRESSION "[|] 1000 [|] 1 [|] yes [|] 0[.]1[0-9]+ [|].*[|] m [|] [+]10% [|] yes [|]")
