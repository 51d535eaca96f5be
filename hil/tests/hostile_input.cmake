# SPDX-License-Identifier: Apache-2.0
# Hostile input to attractor-sim / attractor-paper (included by hil/CMakeLists.txt after sim.cmake
# and paper.cmake, whose attractor_cli_test(), SIM, PAPER, _cfg and _tmp it uses): one test per
# class of malformed input, each with the documented exit code of hil/cli/exit_codes.hpp.

# An option's value never swallows the next option; an empty value is a usage error (one rule
# for every kind, command line and config file alike).
attractor_cli_test(value_not_an_option 2 "--csv needs a value, got the option '--json'" -- ${SIM} skate --csv --json)
attractor_cli_test(value_missing_at_end 2 "--csv needs a value" -- ${SIM} skate --T 0.01 --csv)
attractor_cli_test(value_empty_eq 2 "--csv: '' is an empty value" -- ${SIM} skate --csv= --json)
attractor_cli_test(config_value_not_an_option 2 "--config needs a value" -- ${SIM} skate --config --json)
attractor_cli_test(number_empty_eq 2 "--sigma: '' is an empty value" -- ${SIM} skate --sigma= --T 0.01)
attractor_cli_test(paper_value_not_an_option 2 "--out needs a value, got the option '--bogus'" -- ${PAPER} skate --out --bogus)
# a flag's value: the same parse_bool on the command line and in the config; empty is no boolean
attractor_cli_test(flag_empty_value 2 "--json: '' is not a boolean" -- ${SIM} skate --json= --T 0.01)
attractor_cli_test(config_flag_empty 2 "line 1: --json: the value is not a boolean" -- ${SIM} skate --config ${_cfg}/json_empty.conf)
attractor_cli_test(config_value_empty 2 "line 2: --feedback: '' is an empty value" -- ${SIM} skate --config ${_cfg}/text_empty.conf)
# A config file is data: it names no file to write or read and no program (give those on the
# command line); the line is refused before anything is opened.
attractor_cli_test(config_names_output 2 "line 1: --csv names a file or a program: a config file is data"
  -- sh -c "echo \"csv=$1\" > \"$1.conf\" && exec \"$0\" skate --config \"$1.conf\"" ${SIM} ${_tmp}/config_names_output)
attractor_cli_test(paper_config_names_out 2 "line 1: --out names a file or a program"
  -- sh -c "echo \"out=$1\" > \"$1.conf\" && exec \"$0\" skate --config \"$1.conf\"" ${PAPER} ${_tmp}/paper_out_dir)

# A config error names the file, the line number and (when it is an option name) the key; it
# never prints the line (--config /etc/shadow must not show a hash).
attractor_cli_test(config_line_not_quoted 2 "secret_no_equals.conf line 1: expected key=value" --not "s3cr3t"
  -- ${SIM} skate --config ${_cfg}/secret_no_equals.conf)
attractor_cli_test(config_key_not_quoted 2 "line 1: unknown key [(]not an option name[)]" --not "s3cr3t"
  -- ${SIM} skate --config ${_cfg}/secret_key.conf)
attractor_cli_test(config_value_not_quoted 2 "--m: the value on --config .*secret_value.conf line 2 is not a number" --not "s3cr3t"
  -- ${SIM} skate --config ${_cfg}/secret_value.conf)

# Step bookkeeping with --force and > 3.07e18 steps: no int64 overflow (UBSan), the run stops at
# once (blow-up, exit 4).
attractor_cli_test(steps_forced_huge 4 "invariant_drift_beyond_sanity"
  -- ${SIM} skate --T 4e15 --h 1e-3 --force --phi0 1.5707963)
attractor_cli_test(robot_steps_forced_huge 4 "STOPPED: (non_finite_state|invariant_drift_beyond_sanity)"
  -- ${SIM} spherical-robot --T 2e18 --h 0.5 --force --Omega 20,0,0)

# Values a float run cannot hold, sigma = 0, seeds, rigid-body moments.
attractor_cli_test(state_float_range 5 "[(]1e[+]39[)] is beyond the range of float" -- ${SIM} skate --precision float --Omega1 1e39)
attractor_cli_test(zeta_float_range 5 "beyond the range of float" -- ${SIM} skate --precision float --zeta 1e39,0,0,0,1)
attractor_cli_test(sigma_zero_unchecked 5 "sigma = 0 in this precision is no law" --not "--unchecked to"
  -- ${SIM} skate --sigma 0 --unchecked)
attractor_cli_test(sigma_float_underflow 5 "sigma = 0 in this precision is no law" --not "--unchecked to"
  -- ${SIM} skate --sigma -1e-50 --precision float)
attractor_cli_test(robot_sigma_zero 5 "sigma = 0 in this precision is no law" --not "--unchecked to"
  -- ${SIM} spherical-robot --sigma -1e-4 --sigma2 0 --unchecked)
attractor_cli_test(loop_seed_above_2_53 5 "--seed = 9007199254740993 is outside its range"
  -- ${SIM} skate --sigma -1e-5 --noise 0.1 --seed 9007199254740993)
attractor_cli_test(loop_seed_huge 5 "--seed = 123456789012345678901234567890 is outside"
  -- ${SIM} skate --sigma -1e-5 --noise 0.1 --seed 123456789012345678901234567890)
attractor_cli_test(loop_seed_not_exact 5 "--seed = 9.0071992547409933e[+]15 is not exact as a double|outside"
  -- ${SIM} skate --sigma -1e-5 --noise 0.1 --seed 9.0071992547409933e15)
attractor_cli_test(loop_seed_max 0 "\"seed\":9007199254740992" -- ${SIM} skate --sigma -1e-5 --noise 0.01 --seed 9007199254740992 --T 0.01 --json)
attractor_cli_test(robot_triangle_warning 0 "spherical-robot: warning: I1, I2, I3 = [(]0.1, 0.1, 5[)] violate the triangle"
  -- ${SIM} spherical-robot --I3 5 --T 0.01)

# A step the run's precision cannot hold as a normal number is invalid input (exit 5, naming
# --h and the precision), never "unstable, lower --h" (a step of 0 passes every stability check):
# rounded to 0, subnormal, for the feedback systems and both model simulators, before the step
# count; the smallest normal float itself runs. A held step whose T/h is no step count is exit 5.
attractor_cli_test(h_float_rounds_to_zero 5 "--h = 1e-50 rounds to 0 in float [(]the smallest normal float is 1.17549435[0-9]*e-38[)]"
  --not "lower --h" -- ${SIM} harmonic-oscillator --precision float --h 1e-50 --T 1e-46)
attractor_cli_test(h_float_zero_default_T 5 "--h = 1e-50 rounds to 0 in float" --not "step count"
  -- ${SIM} chaplygin-sphere --precision float --h 1e-50)
attractor_cli_test(h_float_subnormal 5 "--h = 1e-40 is subnormal in float.*raise --h or run --precision double"
  -- ${SIM} chaplygin-sphere --precision float --h 1e-40 --T 1e-36)
attractor_cli_test(h_double_subnormal 5 "--h = 9.99989e-321 is subnormal in double [(]the smallest normal double is 2.2250738585072014e-308[)]. raise --h$"
  -- ${SIM} harmonic-oscillator --h 1e-320 --T 1e-316)
attractor_cli_test(h_float_smallest_normal 0 "harmonic-oscillator feedback-rk4 float h=1.17549e-38 steps=100 "
  -- ${SIM} harmonic-oscillator --precision float --h 1.1754943508222875e-38 --T 1.1754943508222875e-36)
attractor_cli_test(skate_h_float_rounds_to_zero 5 "--h = 1e-50 rounds to 0 in float" --not "step count"
  -- ${SIM} skate --precision float --h 1e-50)
attractor_cli_test(skate_h_float_subnormal 5 "--h = 1e-40 is subnormal in float" -- ${SIM} skate --sigma -1e-5 --precision float --h 1e-40 --T 1e-36)
attractor_cli_test(robot_h_float_rounds_to_zero 5 "--h = 1e-50 rounds to 0 in float" -- ${SIM} spherical-robot --precision float --h 1e-50 --T 1e-46)
attractor_cli_test(robot_h_double_subnormal 5 "--h = 1e-310 is subnormal in double" -- ${SIM} spherical-robot --h 1e-310 --T 1e-306)
attractor_cli_test(h_float_steps_overflow 5 "--T/--h = 1e[+]300/1.5e-38 is not a usable step count"
  -- ${SIM} sleigh-toda --precision float --h 1.5e-38 --T 1e300)
attractor_cli_test(skate_h_steps_overflow 5 "--T/--h = 1e[+]300/1e-300 is not a usable step count" -- ${SIM} skate --h 1e-300 --T 1e300)

# Streams: stdout into a closed pipe is an output error (exit 6 with a message, not SIGPIPE);
# with stderr closed, the CSV does not become fd 2 (no progress or error line in it); a config
# that is not a regular file (a FIFO nobody writes) is refused at once; an output naming the
# config file just read is refused and the file survives.
set(_closed /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/closed_stdout.py)
attractor_cli_test(io_stdout_closed_pipe 6 "attractor-sim: error writing standard output" -- ${_closed} ${SIM} skate --T 0.01)
attractor_cli_test(paper_stdout_closed_pipe 6 "attractor-paper: error writing standard output" -- ${_closed} ${PAPER} --help)
attractor_cli_test(io_stdout_full 6 "error writing standard output" -- sh -c "\"$0\" skate --T 0.01 --json > /dev/full" ${SIM})
attractor_cli_test(paper_stdout_full 6 "error writing standard output" -- sh -c "\"$0\" skate --help > /dev/full" ${PAPER})
attractor_cli_test(io_stderr_closed 0 "exit 4, CSV clean"
  -- sh -c "r=$(\"$0\" skate --csv \"$1\" --T 1e4 --phi0 1.5707963 2>&- >/dev/null || echo $?) && ! grep -q '[a-z]:' \"$1\" && echo \"exit $r, CSV clean\""
     ${SIM} ${_tmp}/stderr_closed.csv)
attractor_cli_test(config_fifo 6 "--config: '.*cfg.fifo' is not a regular file"
  -- sh -c "rm -f \"$1\" && mkfifo \"$1\" && exec \"$0\" skate --config \"$1\"" ${SIM} ${_tmp}/cfg.fifo)
attractor_cli_test(csv_names_config 0 "--csv '.*' is the file of --config .* exit 2 kept"
  -- sh -c "printf 'T=0.01\\n' > \"$1\" && r=$(\"$0\" skate --config \"$1\" --csv \"$1\" 2>&1 >/dev/null || echo exit $?) && grep -qx 'T=0.01' \"$1\" && echo $r kept"
     ${SIM} ${_tmp}/csv_is_config.conf)

# Every script refuses bad arguments and settings (exit 2, its usage text) before it builds,
# creates or deletes anything: a file in the folder given as --work/--out/OUT/PLOTS survives;
# -h prints each script's own usage.
add_test(NAME tools.scripts_bad_usage
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/scripts_usage.sh ${PROJECT_SOURCE_DIR} ${SIM} ${_tmp}/scripts_usage)
set_tests_properties(tools.scripts_bad_usage PROPERTIES LABELS host TIMEOUT 300)

# Hostile files, streams and children (tests/hostile_files.sh, one test per class; each case
# checks its exit code and message and that the folder of inputs and named files is unchanged):
# a recording sets only its recorded keys (never a file, a program, --timeout), --replay opens
# only a regular file within 1 GiB and checks its header before reading on; an output naming an
# input, another output or standard output's file by any name; standard output closed (exit 6,
# nothing run); QEMU's early exit noticed while a frame is awaited (exit 9 with QEMU's message),
# a wrapper's children killed with it, stderr closed keeping QEMU's lines out of the CSV.
set(_hostile ${CMAKE_CURRENT_SOURCE_DIR}/tests/hostile_files.sh)
add_test(NAME tools.hostile.recording COMMAND ${_hostile} recording ${_tmp}/hostile_recording $<TARGET_FILE:attractor-hil>)
add_test(NAME tools.hostile.outputs
         COMMAND ${_hostile} outputs ${_tmp}/hostile_outputs $<TARGET_FILE:attractor-hil> ${SIM} ${PAPER})
add_test(NAME tools.hostile.closed_stdout
         COMMAND ${_hostile} streams ${_tmp}/hostile_streams $<TARGET_FILE:attractor-hil> ${SIM} ${PAPER})
set_tests_properties(tools.hostile.recording tools.hostile.outputs tools.hostile.closed_stdout
                     PROPERTIES LABELS "host;cli" TIMEOUT 300)
# The same images as hil.cmake's (declared there too; the first declaration sets the cache).
set(ATTRACTOR_HIL_ELF ${PROJECT_SOURCE_DIR}/build/fw-m4f/apps/skate-rotor-hil/skate-rotor-hil.mps2-an386.elf
    CACHE FILEPATH "firmware image the HIL tests run in QEMU")
set(ATTRACTOR_HIL_NETDUINO_ELF
    ${PROJECT_SOURCE_DIR}/build/fw-m4f/apps/skate-rotor-hil/skate-rotor-hil.netduinoplus2.elf
    CACHE FILEPATH "skate HIL image for netduinoplus2 the HIL tests run in QEMU")
add_test(NAME hil.hostile_qemu_exit
         COMMAND ${_hostile} qemu ${_tmp}/hostile_qemu $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF}
                 ${ATTRACTOR_HIL_NETDUINO_ELF})
set_tests_properties(hil.hostile_qemu_exit PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77
                     RESOURCE_LOCK qemu_hil)
