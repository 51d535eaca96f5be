# SPDX-License-Identifier: Apache-2.0
# attractor-sim's feedback-system commands (hil/cli/feedback_system_driver.hpp; exit codes
# hil/cli/exit_codes.hpp) on the command line: what one system shows beyond the rules. The rules
# every system keeps (off the constraints -> 5, a bad parameter -> 5, a refused step -> 3, a blow-up
# -> 4, the --json summary's fields) are tested on the typed outcome over every registered system,
# in hil/tests/feedback_rules_test.cpp; the process-level forms of those rules, once each: sim.cmake
# (state_off_sphere, param_negative, json_fields_pendulum, blowup_nonfinite_json) and lie_flows.cmake
# (sleigh_toda_bad_parameter, sleigh_toda_blowup); knife_edge_paper_gains_other_h below (exit 3).

# What the driver pieces these systems needed do (hil/cli/feedback_inputs.hpp, feedback_entry.hpp):
# a list-valued parameter is echoed as a JSON array and each element range-checked
attractor_cli_test(suslov_list_parameter 0 "\"inertia\":\\[2.0,0.3,-0.1,1.5,0.2,1.0\\],\"a\":\\[1.0,0.0,1.0\\]"
  -- ${SIM} suslov --a 1,0,1 --inertia 2,0.3,-0.1,1.5,0.2,1 --T 0.01 --json)
attractor_cli_test(suslov_list_parameter_range 5 "--inertia: element 2 = nan is not finite"
  -- ${SIM} suslov --inertia 1,nan,0,1,0,1)
attractor_cli_test(suslov_list_parameter_count 2 "--a needs exactly 3" -- ${SIM} suslov --a 1,2)
# the general closed form of Π (hil/sim/suslov_exact.hpp) against an accurate RK4 run, any I and a;
# the attitude has none and is left out of exact_error
attractor_cli_test(suslov_exact_general 0 "\"exact_error\":[0-9.]+e-(09|1[0-9])"
  -- ${SIM} suslov --a 0.4,-1,0.7 --inertia 2,0.3,-0.1,1.5,0.2,1 --Pi0 0.5,1,-0.3 --project --method rk4 --h 1e-3 --T 1 --json)
# the default: the paper's run (Euler, gains 1000), which check_step's bound refuses, runs (with a
# note on stderr); the same gains at another step are checked
attractor_cli_test(knife_edge_paper_gains 0 "^knife-edge feedback-euler double h=0.001 steps=500 .*exact error=[0-9.]+e-0[4-9]"
  -- ${SIM} knife-edge --T 0.5)
attractor_cli_test(knife_edge_paper_gains_other_h 3 "step refused by check_step" -- ${SIM} knife-edge --h 2e-3 --T 1)
# a blade that does not turn slides straight down with v' = g sin(alpha) cos(phi0)
attractor_cli_test(knife_edge_not_turning 0 "\"exact_error\":[0-9.]+e-(1[0-9])"
  -- ${SIM} knife-edge --q0 0,0,0.3 --p0 0.2,0,0 --project --method rk4 --T 0.5 --json)
# the paper's method is the default (feedback Euler), per-row default gains
attractor_cli_test(oscillator_paper_defaults 0 "\"gains\":\\[300.0,500.0,300.0\\].*\"method\":\"feedback-euler\"|\"method\":\"feedback-euler\".*\"gains\":\\[300.0,500.0,300.0\\]"
  -- ${SIM} nonholonomic-oscillator --T 0.01 --json)

# paper 001's baselines (hil/sim/nonholonomic_baselines.hpp): nh-verlet keeps the constraint and py
# to rounding and follows the exact motion; dla keeps py; both through the driver's fields
attractor_cli_test(particle_nh_verlet 0 "\"method\":\"nh-verlet\".*\"py\":0.0.*\"constraint_error\":(0.0|[0-9.]+e-1[4-9]).*\"exact_error\":[0-9.]+e-0[4-6].*\"stopped\":null"
  -- ${SIM} nonholonomic-particle --method nh-verlet --h 0.01 --T 10 --json)
attractor_cli_test(particle_dla 0 "\"method\":\"dla\".*\"exact_error\":[0-9.]+e-0[4-6].*\"stopped\":null"
  -- ${SIM} nonholonomic-particle --method dla --h 0.01 --T 10 --json)
attractor_cli_test(oscillator_nh_verlet 0 "\"method\":\"nh-verlet\".*\"exact_error\":[0-9.]+e-0[4-6].*\"stopped\":null"
  -- ${SIM} nonholonomic-oscillator --method nh-verlet --h 0.01 --T 10 --json)
# (exact_error includes p: DLA's post-momentum is first order along the constraint form, 5e-3 here)
attractor_cli_test(knife_edge_dla 0 "\"method\":\"dla\".*\"J2\":0.0.*\"exact_error\":(0.00[0-9]+|[0-9.]+e-0[4-6]).*\"stopped\":null"
  -- ${SIM} knife-edge --method dla --h 0.01 --T 10 --json)
# the sleigh steps in its contact point's coordinates (paper 001 Example 3) and converts back: R stays a rotation
attractor_cli_test(sleigh_nh_verlet 0 "chaplygin-sleigh nh-verlet float .*O11 max=[0-9.]+e-0[6-9]"
  -- ${SIM} chaplygin-sleigh --method nh-verlet --h 0.01 --T 10 --precision float)
# a DLA solve that does not converge in its fixed sweeps stops the run (exit 4)
attractor_cli_test(sleigh_dla_not_converged 4 "STOPPED: dla_not_converged"
  -- ${SIM} chaplygin-sleigh --method dla --h 2 --T 10)
attractor_cli_test(particle_dla_no_gains 2 "--gains" -- ${SIM} nonholonomic-particle --method dla --gains 5)
# both discrete methods run it: nh-verlet keeps the wheel constraints to rounding (eq. (11e)), the
# board snakes ahead (x < -10 after 10 s, |y| < 1), t follows the steps (h = 0.05: 200 steps; x and y
# differ from h = 0.01's by < 0.1)
attractor_cli_test(snakeboard_nh_verlet 0 "\"method\":\"nh-verlet\".*\"constraint_error\":(0.0|[0-9.]+e-1[4-9]).*\"x\":-1[0-9][.][0-9]+,\"y\":-?0[.].*\"t\":(10.0|9.99999|10.00000).*\"stopped\":null"
  -- ${SIM} snakeboard --method nh-verlet --h 0.05 --T 10 --json)
attractor_cli_test(snakeboard_dla 0 "\"method\":\"dla\".*\"x\":-1[0-9][.][0-9]+,\"y\":-?0[.].*\"stopped\":null"
  -- ${SIM} snakeboard --method dla --h 0.05 --T 10 --json)
# the axles across the board (cos phi = 0): the two constraints coincide, refused
attractor_cli_test(snakeboard_axles_across 5 "cos phi = 0" -- ${SIM} snakeboard --q0 0,0,0,0,1.5707963267948966)
# the discrete methods' start (--start, --q1): the process forms of the pair rules, once each
attractor_cli_test(particle_dla_pair_off_constraint 5 "violates the midpoint discrete constraint .*: residual 2.500e-05"
  -- ${SIM} nonholonomic-particle --method dla --start pair --q1 0.01,0.305,0.003 --h 0.01)
attractor_cli_test(particle_start_with_rk4 2 "--start does not apply to --method rk4"
  -- ${SIM} nonholonomic-particle --method rk4 --start remark5)
attractor_cli_test(particle_nh_verlet_pair 0 "\"start\":\"pair\",\"q1\":\\[0.01,0.303,0.003\\].*\"stopped\":null"
  -- ${SIM} nonholonomic-particle --method nh-verlet --start pair --q1 0.01,0.303,0.003 --h 0.01 --T 0.1 --json)
# a system from its model description alone (docs/starter-model, generated at build time): the
# documented case holds both rods in float, its facts' gains the default
attractor_cli_test(double_pendulum_documented 0 "double-pendulum feedback-rk4 float h=0.001 steps=3000 .*rod1 max=[0-9.]+e-0[6-9] .*rod2 max=[0-9.]+e-0[6-9] "
  -- ${SIM} double-pendulum --precision float --T 3)
attractor_cli_test(double_pendulum_off_rods 5 "--x0 is off the constraint rod1" -- ${SIM} double-pendulum --x0 0.5,-0.9,1.3,-1.4,0,0,0,0)
