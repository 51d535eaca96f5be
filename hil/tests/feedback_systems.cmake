# SPDX-License-Identifier: Apache-2.0
# The CLI rules every feedback-system command of attractor-sim keeps (hil/cli/feedback_system_driver.hpp;
# exit codes hil/cli/exit_codes.hpp), one test per rule per command:
#   attractor_feedback_system_tests(COMMAND
#     OFF_CONSTRAINT args..   an initial state off the constraints, no --project   -> exit 5
#     BAD_PARAMETER args..    a parameter outside its range or refused by the system (a
#                             system without parameters: a non-finite initial value) -> exit 5
#     STEP_REFUSED args..     a feedback step check_step refuses                    -> exit 3
#     BLOWUP args..           a run that blows up (non-finite or insane drift)      -> exit 4
#     JSON args..             a short run whose --json summary must have the driver's fields
#     [EXACT])                the system has an exact solution: exact_error is a number
# Tests: tools.cli.<command>_off_constraint, _bad_parameter, _step_refused, _blowup, _json.
set(_fs_fields "\"invariants0\":[{].*\"max_abs_dev\":[{].*\"constraint_error\":[0-9].*\"energy_error\":[0-9]")
function(attractor_feedback_system_tests cmd)
  cmake_parse_arguments(PARSE_ARGV 1 F "EXACT" "" "OFF_CONSTRAINT;BAD_PARAMETER;STEP_REFUSED;BLOWUP;JSON")
  set(sim $<TARGET_FILE:attractor-sim>)
  attractor_cli_test(${cmd}_off_constraint 5 "use --project" -- ${sim} ${cmd} ${F_OFF_CONSTRAINT})
  attractor_cli_test(${cmd}_bad_parameter 5 "outside its range|refused|not finite" -- ${sim} ${cmd} ${F_BAD_PARAMETER})
  attractor_cli_test(${cmd}_step_refused 3 "step refused by check_step" -- ${sim} ${cmd} ${F_STEP_REFUSED})
  attractor_cli_test(${cmd}_blowup 4 "STOPPED: (non_finite_state|invariant_drift_beyond_sanity)"
    -- ${sim} ${cmd} ${F_BLOWUP})
  if(F_EXACT)
    set(exact "\"exact_error\":[0-9]")
  else()
    set(exact "\"exact_error\":null")
  endif()
  attractor_cli_test(${cmd}_json 0 "^[{]\"system\":\"${cmd}\".*\"gains\":\\[[0-9].*${_fs_fields}.*${exact}.*\"final_state\":[{].*\"stopped\":null"
    --not "nan|inf" -- ${sim} ${cmd} --json ${F_JSON})
endfunction()

# paper 000 §3.1: the constraint vector and the inertia are list-valued parameters (--a, --inertia)
attractor_feedback_system_tests(suslov EXACT
  OFF_CONSTRAINT --Pi0 0,1,0
  BAD_PARAMETER --a 0,0,0
  STEP_REFUSED --gains 1e4 --T 0.01
  BLOWUP --gains 1e7 --unchecked --T 0.1
  JSON --T 0.1)
# paper 000 §3.2
attractor_feedback_system_tests(knife-edge EXACT
  OFF_CONSTRAINT --p0 0,1,0.5
  BAD_PARAMETER --m -1
  STEP_REFUSED --gains 1e5 --T 0.01
  BLOWUP --gains 1e7 --unchecked --T 0.1
  JSON --T 1)
# paper 000 §3.3, with the pose and reduced
attractor_feedback_system_tests(chaplygin-sleigh
  OFF_CONSTRAINT --Pi0 1,1,0
  BAD_PARAMETER --I 0
  STEP_REFUSED --gains 1e5 --T 0.01
  BLOWUP --gains 1e7 --unchecked --T 0.1
  JSON --T 0.1)
attractor_feedback_system_tests(chaplygin-sleigh-reduced
  OFF_CONSTRAINT --Pi0 1,1,0
  BAD_PARAMETER --a nan
  STEP_REFUSED --gains 1e5 --T 0.01
  BLOWUP --gains 1e7 --unchecked --T 0.1
  JSON --T 0.1)
# paper 000 §3.6 (no parameters: a non-finite initial value)
attractor_feedback_system_tests(heisenberg EXACT
  OFF_CONSTRAINT --p0 0.4,0.7,0
  BAD_PARAMETER --q0 0,nan,0
  STEP_REFUSED --gains 1e4 --T 0.01
  BLOWUP --gains 1e7 --unchecked --T 0.1
  JSON --T 1)
# paper 000 §3.7 (no parameters: a non-finite initial value)
attractor_feedback_system_tests(nonholonomic-oscillator EXACT
  OFF_CONSTRAINT --p0 1,0,0
  BAD_PARAMETER --p0 nan,0,0
  STEP_REFUSED --gains 1e4 --T 0.01
  BLOWUP --gains 1e7 --unchecked --T 0.1
  JSON --T 0.5)

# What the driver pieces these systems needed do (hil/cli/feedback_inputs.hpp, feedback_entry.hpp):
# a list-valued parameter is echoed as a JSON array and each element range-checked
attractor_cli_test(suslov_list_parameter 0 "\"a\":\\[1.0,0.0,1.0\\].*\"inertia\":\\[2.0,0.3,-0.1,1.5,0.2,1.0\\]"
  -- ${SIM} suslov --a 1,0,1 --inertia 2,0.3,-0.1,1.5,0.2,1 --T 0.01 --json)
attractor_cli_test(suslov_list_parameter_range 5 "--inertia: element 2 = nan is not finite"
  -- ${SIM} suslov --inertia 1,nan,0,1,0,1)
attractor_cli_test(suslov_list_parameter_count 2 "--a needs exactly 3" -- ${SIM} suslov --a 1,2)
# the general closed form of Π (hil/sim/suslov_exact.hpp) against an accurate RK4 run, any I and a;
# the attitude has none and is left out of exact_error
attractor_cli_test(suslov_exact_general 0 "\"exact_error\":[0-9.]+e-(09|1[0-9])"
  -- ${SIM} suslov --a 0.4,-1,0.7 --inertia 2,0.3,-0.1,1.5,0.2,1 --Pi0 0.5,1,-0.3 --project --method rk4 --h 1e-3 --T 3 --json)
# the default: the paper's run (Euler, gains 1000), which check_step's bound refuses, runs with a note
attractor_cli_test(knife_edge_paper_gains 0 "note: check_step refuses the default gains.*knife-edge feedback-euler double .*exact error=[0-9.]+e-0[4-9]"
  -- ${SIM} knife-edge --T 2)
attractor_cli_test(knife_edge_paper_gains_other_h 3 "step refused by check_step" -- ${SIM} knife-edge --h 2e-3 --T 1)
# a blade that does not turn slides straight down with v' = g sin(alpha) cos(phi0)
attractor_cli_test(knife_edge_not_turning 0 "\"exact_error\":[0-9.]+e-(1[0-9])"
  -- ${SIM} knife-edge --q0 0,0,0.3 --p0 0.2,0,0 --project --method rk4 --T 2 --json)
# the paper's method is the default (feedback Euler), per-row default gains
attractor_cli_test(oscillator_paper_defaults 0 "\"gains\":\\[300.0,500.0,300.0\\].*\"method\":\"feedback-euler\"|\"method\":\"feedback-euler\".*\"gains\":\\[300.0,500.0,300.0\\]"
  -- ${SIM} nonholonomic-oscillator --T 0.01 --json)
