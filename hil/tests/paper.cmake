# SPDX-License-Identifier: Apache-2.0
# attractor-paper: help, options and output-directory rules.
set(PAPER $<TARGET_FILE:attractor-paper>)
add_test(NAME tools.paper_help COMMAND attractor-paper --help)
set_tests_properties(tools.paper_help PROPERTIES LABELS host)
attractor_cli_test(paper_unknown_option 2 "not expected: --bogus" -- ${PAPER} skate --bogus)
attractor_cli_test(paper_short_help 0 "usage: attractor-paper skate" --not "fall time" -- ${PAPER} skate -h)
attractor_cli_test(tool_help_exit_table 0 "4  numerical blow-up" -- ${PAPER} --help)
attractor_cli_test(io_out_proc 6 "--out: cannot create" -- ${PAPER} skate --out /proc/x)
attractor_cli_test(io_out_empty 2 "--out: '' is an empty value" -- sh -c "\"$0\" skate --out ''" ${PAPER})
attractor_cli_test(io_out_file 6 "--out: " -- ${PAPER} holonomic --out ${_tmp}/a_file)
# paper 000 §3 at the --quick horizons (docs/tools.md): every bound holds, summary.csv has a row per
# system x method x precision with the error columns
add_test(NAME tools.paper_nonholonomic
  COMMAND sh -c "rm -rf \"$1\" && \"$0\" nonholonomic --quick --out \"$1\" > \"$1.log\" 2>&1; rc=$?; cat \"$1.log\"; [ $rc = 0 ] && head -1 \"$1/summary.csv\" | grep -q '^system,section,method,precision,T,steps,constraint_error,energy_error,momentum_error,group_error,max_invariant_error,exact_error,stopped$' && [ $(grep -c ',feedback-rk4,float,' \"$1/summary.csv\") = 8 ] && [ $(wc -l < \"$1/summary.csv\") = 65 ]"
  ${PAPER} ${_tmp}/nonholonomic)
# COST: CTest starts the highest first (a fresh clone has no timing history to order by), so the
# longest runs (~60 s and ~45 s under ASan+UBSan) start beside the short tests, not last and alone.
set_tests_properties(tools.paper_nonholonomic PROPERTIES LABELS host TIMEOUT 300 COST 60)
# attractor-paper lie-flows: paper 004's systems, every reproduced property holds (exit 0) and
# summary.csv has one row per system × method × precision.
add_test(NAME tools.paper_lie_flows
  COMMAND sh -c "\"$0\" lie-flows --out \"$1\" && test $(wc -l < \"$1\"/summary.csv) -ge 17 && grep -q '^falling-disk,rk4,float,' \"$1\"/summary.csv"
          $<TARGET_FILE:attractor-paper> ${_tmp}/paper_lie_flows)
set_tests_properties(tools.paper_lie_flows PROPERTIES LABELS host TIMEOUT 120 COST 45)  # long: start early
# attractor-paper nonholonomic-baselines at --quick --json (docs/nonholonomic-baselines.md): every
# check holds (the bounds, the measured orders, the momentum maps); summary.csv has one row per
# example x method and start x precision x h at --quick (5 x 7 x 2 x 2, and the pair rows of
# nh-verlet and dla on the four examples but the sleigh, 4 x 2 x 2 x 2) with the error and order
# columns, and the JSON on stdout the same rows value for value (hil/tests/paper_baselines_check.py);
# nh-verlet and dla ran the snakeboard in float at every h from either start.
add_test(NAME tools.paper_nonholonomic_baselines
  COMMAND sh -c "rm -rf \"$1\" && \"$0\" nonholonomic-baselines --quick --json --out \"$1\" > \"$1.json\" 2> \"$1.log\"; rc=$?; cat \"$1.log\"; [ $rc = 0 ] && /usr/bin/python3 \"$2\" \"$1\" \"$1.json\" 172 && [ $(grep -c '^snakeboard,.*,\\(nh-verlet\\|dla\\),\\(consistent\\|pair\\),float,.*,$' \"$1/summary.csv\") = 8 ]"
  ${PAPER} ${_tmp}/nonholonomic_baselines ${CMAKE_CURRENT_SOURCE_DIR}/tests/paper_baselines_check.py)
set_tests_properties(tools.paper_nonholonomic_baselines PROPERTIES LABELS host TIMEOUT 120 COST 30)  # long: start early
