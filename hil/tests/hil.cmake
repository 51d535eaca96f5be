# SPDX-License-Identifier: Apache-2.0
# attractor-hil: help, option rules and the HIL runs in QEMU.
add_test(NAME tools.hil_help COMMAND attractor-hil --help)
set_tests_properties(tools.hil_help PROPERTIES LABELS host)
# docs/hil.md "QEMU command line": each documented block is what --print-qemu-command prints.
find_program(ATTRACTOR_HIL_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH REQUIRED)
add_test(NAME tools.hil_qemu_command_documented
         COMMAND ${ATTRACTOR_HIL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tests/qemu_command_doc.py
                 $<TARGET_FILE:attractor-hil> ${PROJECT_SOURCE_DIR}/docs/hil.md)
set_tests_properties(tools.hil_qemu_command_documented PROPERTIES LABELS "host;docs" TIMEOUT 60)
# A second host from the documentation alone (hil/tests/wire_client.py: docs/wire.json and the
# documented QEMU command line) against the skate image: every frame and the delimiter rule.
add_test(NAME hil.wire_client_from_docs
         COMMAND ${ATTRACTOR_HIL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tests/wire_client.py
                 $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} ${PROJECT_SOURCE_DIR}/docs/wire.json 50)
set_tests_properties(hil.wire_client_from_docs PROPERTIES LABELS "host;hil;qemu;docs" TIMEOUT 120
                     SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil)
# HIL in QEMU (needs the fw-m4f image; skipped, exit 77, without it). Labels: host, hil, qemu.
# A HIL run is two processes in lockstep that take turns (about one core): they hold the lock
# qemu_hil against each other but run beside the other tests; COST starts the long ones first.
set(ATTRACTOR_HIL_ELF ${PROJECT_SOURCE_DIR}/build/fw-m4f/apps/skate-rotor-hil/skate-rotor-hil.mps2-an386.elf
    CACHE FILEPATH "firmware image the HIL tests run in QEMU")
set(_hilq ${CMAKE_CURRENT_SOURCE_DIR}/tests/hil_qemu.sh)
# A stuck-sensor run over QEMU's UART: 40 ticks, one stuck fault from tick 25, exit CODE, REGEX in the output.
function(attractor_hil_stuck_test class code regex)
  add_test(NAME hil.skate_qemu_${class}
           COMMAND ${_hilq} expect $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} ${code} "${regex}"
                   --ticks 40 --fault-every 25 --faults ${class} --timeout 20)
  set_tests_properties(hil.skate_qemu_${class} PROPERTIES LABELS "host;hil;qemu" TIMEOUT 120 SKIP_RETURN_CODE 77
                       RESOURCE_LOCK qemu_hil)
endfunction()
# 2 s of simulated time, a fault every 25 ticks, every class in turn (corrupt, nan, out_of_range,
# drop, duplicate, reorder, delayed, bias, reset: about 9 each, 8 firmware resets with
# resynchronisation): all detected, skate upright (the runner's exit 0); the round-trip latency
# line sane and agreeing with the CSV's round_trip_us column (hil_qemu.sh latency).
# The unrequested_reset class among them: five resets nobody asked for (QEMU's system_reset),
# each resynchronised and counted, the CSV's resets column agreeing with the firmware's boots.
add_test(NAME hil.skate_qemu_faults
         COMMAND ${CMAKE_COMMAND} -E env HIL_EXPECT_UNREQUESTED=1
                 ${_hilq} latency $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --ticks 2000 --fault-every 25 --timeout 20)
# The wire budget as documented (docs/hil.md "Wire budget"): a clean 2000-tick run's measured bytes
# per tick, 53.0 to the firmware and 30.0 back over the UART (the status frames' and the session
# frames' share included), no byte more (a doubled delimiter would be 31.0).
add_test(NAME hil.skate_qemu_wire_budget
         COMMAND ${_hilq} budget $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} 53.0 30.0 --ticks 2000 --timeout 20)
set_tests_properties(hil.skate_qemu_wire_budget PROPERTIES
                     LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil)
# Deterministic: two runs with faults give identical per-tick logs (tick cost included).
add_test(NAME hil.skate_qemu_deterministic
         COMMAND ${_hilq} twice $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --ticks 600 --fault-every 25 --timeout 20)
set_tests_properties(hil.skate_qemu_faults hil.skate_qemu_deterministic PROPERTIES
                     LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 20)
# A reset nobody asked for right after counted faults (nan and unrequested_reset in turn, status
# frames every 100 answers): the runner asks for the boot's counters just before QEMU's reset, so
# every nan is detected (without that request 1 of 8).
add_test(NAME hil.skate_qemu_unrequested_reset_counters
         COMMAND ${_hilq} run $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --ticks 400 --fault-every 25
                 --faults nan,unrequested_reset --timeout 20)
set_tests_properties(hil.skate_qemu_unrequested_reset_counters PROPERTIES LABELS "host;hil;qemu" TIMEOUT 120
                     SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 5)
# ... and every class was injected at least once (a "0/0" in the summary fails the test).
set_tests_properties(hil.skate_qemu_faults PROPERTIES FAIL_REGULAR_EXPRESSION "[a-z] 0/0 ")
# The fast byte path (--link semihost: the same frames over host FIFOs by semihosting) with faults:
# every fault detected, and two runs give identical logs (the soak's path, scripts/soak).
add_test(NAME hil.skate_qemu_semihost_deterministic
         COMMAND ${_hilq} twice $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --link semihost --ticks 2000 --fault-every 25 --timeout 20)
set_tests_properties(hil.skate_qemu_semihost_deterministic PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77
                     RESOURCE_LOCK qemu_hil COST 20)
# Record and replay (docs/hil.md "Record and replay"): a 2000-tick run with a fault every 25 (every
# class, resets included) recorded, replayed to the firmware and to the plant alone bit for bit,
# and a recording with one answer's byte flipped (the first answer from tick 1001 on) refused at that tick (exit 10). Over
# --link semihost to keep it cheap (the UART replays the same way, 2 x 18 s).
add_test(NAME hil.skate_qemu_record_replay
         COMMAND ${_hilq} replay $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} 1001 --link semihost --ticks 2000
                 --fault-every 25 --timeout 20)
set_tests_properties(hil.skate_qemu_record_replay PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77
                     RESOURCE_LOCK qemu_hil COST 20)
# PNG plots of a HIL run with faults (scripts/plots/hil.py on the runner's CSV, decimated; over the
# fast semihost link: the plots do not depend on the byte path, the suite's time does).
add_test(NAME hil.skate_qemu_plots
         COMMAND ${_hilq} plots $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} ${PROJECT_SOURCE_DIR}/scripts/plots/hil.py
                 --link semihost --ticks 300 --fault-every 25 --csv-every 2 --timeout 20)
set_tests_properties(hil.skate_qemu_plots PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 20)
# The serial-device path (termios) on QEMU's pseudo-terminal, with faults.
add_test(NAME hil.skate_serial_pty
         COMMAND ${_hilq} pty $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --ticks 300 --fault-every 25 --timeout 20)
set_tests_properties(hil.skate_serial_pty PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 20)
# The serial-device path through a faulty line (pty_fault_relay.py between two pseudo-terminals:
# bytes dropped, flipped and inserted both ways, seed 3, 0.2 % per byte, at most one per 1000
# bytes, within the first 20000 bytes each way, some 380 of the 600 ticks at wire version 3's 53
# bytes, so that the goodbye gets through): the run ends upright, never tripped, the faults
# counted by the firmware and the runner; then the same run killed leaves neither the relay nor
# QEMU behind.
add_test(NAME hil.skate_serial_faulty_line
         COMMAND ${_hilq} relay $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} 3 0.002 20000 --ticks 600 --timeout 20)
set_tests_properties(hil.skate_serial_faulty_line PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77
                     RESOURCE_LOCK qemu_hil COST 20)
# A sensor stuck for 6 ticks from tick 25 (docs/hil.md "Fault classes"): at NaN, beyond the wire
# range, beyond the controller's limit, each tick answered by name with its verdict; the safe
# state from the 4th stuck tick (tick 28: the runtime's stale_limit 3) and zero torque in every
# answer after it; the runner's exit 7 (tripped). A frozen reading is used (fresh) and trips nothing.
foreach(_stuck IN ITEMS stuck_nan:non_finite:stale stuck_out_of_range:out_of_range:stale
                        stuck_limit:held:out_of_range)
  string(REPLACE ":" ";" _s ${_stuck})
  list(GET _s 0 _class)
  list(GET _s 1 _verdict)
  list(GET _s 2 _reason)
  set(_line "safe state: from tick 28 [(]${_reason}; stuck tick 4 of ${_class}, 6 of 6 stuck ticks answered ${_verdict}[)], 12 answers after it, 0 of them with a torque")
  attractor_hil_stuck_test(${_class} 7 "${_line}")
  add_test(NAME hil.skate_serial_pty_${_class}
           COMMAND ${CMAKE_COMMAND} -E env HIL_EXPECT_RC=7 HIL_EXPECT_FW_RC=1 "HIL_EXPECT_LINE=${_line}"
                   ${_hilq} pty $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --ticks 40 --fault-every 25 --faults ${_class} --timeout 20)
  set_tests_properties(hil.skate_serial_pty_${_class} PROPERTIES LABELS "host;hil;qemu" TIMEOUT 120 SKIP_RETURN_CODE 77
                       RESOURCE_LOCK qemu_hil)
endforeach()
attractor_hil_stuck_test(stuck_frozen 0 "stuck_frozen 6/6 fresh")
# A firmware that never answers (an image without the link): a clear timeout message, exit 8.
add_test(NAME hil.firmware_silent
         COMMAND ${_hilq} silent $<TARGET_FILE:attractor-hil>
                 ${PROJECT_SOURCE_DIR}/build/fw-m4f/host-tests/target/link_protocol.mps2-an386.elf --ticks 5 --timeout 3)
set_tests_properties(hil.firmware_silent PROPERTIES LABELS "host;hil;qemu" TIMEOUT 120 SKIP_RETURN_CODE 77)
# The spherical robot on the link: 2 s of simulated time, a fault every 25 ticks, every class
# (the nine of hil.skate_qemu_faults, firmware resets included) injected and detected, tilt <
# 0.12 rad throughout (docs/spherical-robot.md), controller running.
set(ATTRACTOR_HIL_ROBOT_ELF
    ${PROJECT_SOURCE_DIR}/build/fw-m4f/apps/spherical-robot-hil/spherical-robot-hil.mps2-an386.elf
    CACHE FILEPATH "spherical-robot firmware image the HIL tests run in QEMU")
add_test(NAME hil.robot_qemu
         COMMAND ${_hilq} run $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ROBOT_ELF} --plant spherical-robot
                 --ticks 2000 --fault-every 25 --timeout 20)
set_tests_properties(hil.robot_qemu PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 20
                                               FAIL_REGULAR_EXPRESSION "[a-z] 0/0 ")
# The wheel pendulum on the link, the same run: every class injected and detected, tilt < 0.12 rad
# throughout (docs/reaction-wheel-pendulum.md), controller running.
set(ATTRACTOR_HIL_WHEEL_ELF
    ${PROJECT_SOURCE_DIR}/build/fw-m4f/apps/wheel-pendulum-hil/wheel-pendulum-hil.mps2-an386.elf
    CACHE FILEPATH "wheel-pendulum firmware image the HIL tests run in QEMU")
add_test(NAME hil.wheel_qemu
         COMMAND ${_hilq} run $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_WHEEL_ELF} --plant wheel-pendulum
                 --ticks 2000 --fault-every 25 --timeout 20)
set_tests_properties(hil.wheel_qemu PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 20
                                               FAIL_REGULAR_EXPRESSION "[a-z] 0/0 ")
# The second board with the uart_rx_wait capability (netduinoplus2: STM32F405 USART1): two runs
# with faults (every class, resets included: boot announcement and SYSRESETREQ on the STM32),
# identical logs, upright.
set(ATTRACTOR_HIL_NETDUINO_ELF
    ${PROJECT_SOURCE_DIR}/build/fw-m4f/apps/skate-rotor-hil/skate-rotor-hil.netduinoplus2.elf
    CACHE FILEPATH "skate HIL image for netduinoplus2 the HIL tests run in QEMU")
add_test(NAME hil.skate_qemu_netduinoplus2
         COMMAND ${_hilq} twice $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_NETDUINO_ELF} --machine netduinoplus2
                 --ticks 600 --fault-every 25 --timeout 20)
set_tests_properties(hil.skate_qemu_netduinoplus2 PROPERTIES
                     LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 20)
add_test(NAME hil.bad_plant COMMAND ${_x} 2 "--plant: 'wheel' is not one of skate.spherical-robot" -- $<TARGET_FILE:attractor-hil>
                                    --plant wheel --elf none.elf)
set_tests_properties(hil.bad_plant PROPERTIES LABELS "host;hil")
add_test(NAME hil.bad_options COMMAND ${_x} 2 "give exactly one of --elf and --serial" -- $<TARGET_FILE:attractor-hil> --ticks 5)
add_test(NAME hil.bad_fault_class COMMAND ${_x} 2 "--faults: 'corrupt,late' is not a list of classes" --
         $<TARGET_FILE:attractor-hil> --elf x.elf --faults corrupt,late)
set_tests_properties(hil.bad_options hil.bad_fault_class PROPERTIES LABELS "host;hil")
# The runner killed mid-run (SIGINT, SIGTERM, SIGHUP, SIGKILL; over the semihost link, whose
# FIFO names it must remove): its QEMU never survives it.
add_test(NAME hil.killed_runner_leaves_no_qemu
         COMMAND ${_hilq} signals $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --link semihost --ticks 1000000 --timeout 20)
set_tests_properties(hil.killed_runner_leaves_no_qemu PROPERTIES LABELS "host;hil;qemu" TIMEOUT 120 SKIP_RETURN_CODE 77
                     RESOURCE_LOCK qemu_hil)

# Input rules of attractor-hil, all checked before QEMU starts (the exit codes of
# hil/cli/exit_codes.hpp). Labels: host, hil, cli.
set(HIL $<TARGET_FILE:attractor-hil>)
function(attractor_hil_test name code regex)
  add_test(NAME hil.cli.${name} COMMAND ${_x} ${code} ${regex} ${ARGN})
  set_tests_properties(hil.cli.${name} PROPERTIES LABELS "host;hil;cli" TIMEOUT 60)
endfunction()
attractor_hil_test(help_exit_table 0 "8  attractor-hil: the firmware stopped answering" -- ${HIL} --help)
attractor_hil_test(help_wrong_firmware 0 "11 attractor-hil: wrong firmware" -- ${HIL} --help)
attractor_hil_test(status_every_range 5 "--status-every = 65536 is outside its range" -- ${HIL} --elf x.elf --status-every 65536)
attractor_hil_test(elf_missing 2 "--elf '${_tmp}/missing.elf': No such file" -- ${HIL} --elf ${_tmp}/missing.elf)
attractor_hil_test(elf_directory 2 "not a regular file" -- ${HIL} --elf ${_tmp})
attractor_hil_test(elf_text 2 "not an ELF file" -- ${HIL} --elf ${_tmp}/a_file)
attractor_hil_test(elf_empty_name 2 "--elf: '' is an empty value" -- sh -c "\"$0\" --elf ''" ${HIL})
attractor_hil_test(ticks_zero 5 "--ticks = 0 is outside its range" -- ${HIL} --elf x.elf --ticks 0)
attractor_hil_test(ticks_overflow 5 "--ticks = 99999999999999999999 is outside its range" -- ${HIL} --elf x.elf --ticks 99999999999999999999)
attractor_hil_test(ticks_fraction 5 "--ticks = 2.5 is not a whole number" -- ${HIL} --elf x.elf --ticks 2.5)
attractor_hil_test(baud_with_elf 2 "--baud does not apply with --elf" -- ${HIL} --elf x.elf --baud 115200)
attractor_hil_test(baud_wraps 5 "--baud = 4295082496 is outside its range" -- ${HIL} --serial /dev/null --baud 4295082496)
attractor_hil_test(baud_unknown 5 "--baud = 12345: one of" -- ${HIL} --serial /dev/null --baud 12345)
attractor_hil_test(link_with_serial 2 "--link does not apply with --serial" -- ${HIL} --serial /dev/null --link semihost)
attractor_hil_test(serial_not_a_tty 2 "--serial: /dev/null is not a serial device" -- ${HIL} --serial /dev/null)
attractor_hil_test(seed_without_noise 2 "--seed does not apply without --noise" -- ${HIL} --elf x.elf --seed 3)
attractor_hil_test(mismatch_key 2 "--mismatch: unknown parameter 'a' [(]one of m, l, I1" -- ${HIL} --elf x.elf --mismatch a=0.1)
attractor_hil_test(mismatch_range 5 "--mismatch: m = -1 is outside its range" -- ${HIL} --elf x.elf --mismatch m=-1)
attractor_hil_test(mismatch_percent_range 5 "--mismatch = -95 % is outside" -- ${HIL} --elf x.elf --mismatch -95)
attractor_hil_test(mismatch_plant_invalid 5 "--mismatch: the plant's parameters are invalid"
  -- ${HIL} --elf x.elf --plant spherical-robot --mismatch J1=9)
attractor_hil_test(faults_without_every 2 "--faults does not apply without --fault-every" -- ${HIL} --elf x.elf --faults nan)
attractor_hil_test(unknown_option 2 "not expected: --bogus" -- ${HIL} --elf x.elf --bogus)
attractor_hil_test(config_unknown_key 2 "unknown key 'bogus'" -- ${HIL} --config ${_cfg}/unknown_key.conf)
# ... and the ones that need a real image (skipped without the fw-m4f build)
function(attractor_hil_image_test name elf code regex)
  add_test(NAME hil.cli.${name} COMMAND ${_hilq} expect ${HIL} ${elf} ${code} ${regex} ${ARGN})
  set_tests_properties(hil.cli.${name} PROPERTIES LABELS "host;hil;cli" TIMEOUT 60 SKIP_RETURN_CODE 77)
endfunction()
# The wrong firmware, run in QEMU: its hello answer names its plant, refused before the first
# tick with exit 11 (the runner's check on the hello, firmware_identity.hpp; no ELF symbol check).
attractor_hil_image_test(robot_plant_on_skate_firmware ${ATTRACTOR_HIL_ELF} 11
  "wrong firmware: it controls the skate plant [(]its hello[)] but --plant is spherical-robot" --plant spherical-robot)
attractor_hil_image_test(skate_plant_on_robot_firmware ${ATTRACTOR_HIL_ROBOT_ELF} 11
  "wrong firmware: it controls the spherical-robot plant [(]its hello[)] but --plant is skate")
# ... over the fast byte path as well, the robot image with --plant skate.
attractor_hil_image_test(skate_plant_on_robot_firmware_semihost ${ATTRACTOR_HIL_ROBOT_ELF} 11
  "--plant is skate" --link semihost)
attractor_hil_image_test(csv_unwritable ${ATTRACTOR_HIL_ELF} 6 "--csv: cannot write" --csv ${_tmp}/a_file/x.csv)
attractor_hil_image_test(csv_dev_full ${ATTRACTOR_HIL_ELF} 6 "--csv: error writing '/dev/full'" --csv /dev/full --ticks 50 --link semihost)
# Host semihosting (host file access) only for the link that needs it: over the UART the
# firmware runs without it (its console lines dropped, stepped over by its HardFault handler),
# over --link semihost with it (its console lines appear, its exit code counts).
attractor_hil_image_test(uart_link_without_semihosting ${ATTRACTOR_HIL_ELF} 0 "firmware exit n/a [(]no semihosting[)]"
  --not "skate-hil: waiting" --ticks 50)
attractor_hil_image_test(semihost_link_with_semihosting ${ATTRACTOR_HIL_ELF} 0 "skate-hil: link on the host.s FIFOs"
  --link semihost --ticks 50)
# --record / --replay (docs/hil.md "Record and replay"): the rules and a file that is no
# recording, before anything starts; the file format itself: hil_cli_test (Recording.*, Replay.*).
attractor_hil_test(record_with_replay 2 "--record does not apply with --replay" -- ${HIL} --elf x.elf --record a.rec --replay b.rec)
attractor_hil_test(plant_only_without_replay 2 "--plant-only needs --replay FILE" -- ${HIL} --plant-only)
attractor_hil_test(replay_with_recorded_option 2 "--ticks does not apply with --replay .the recording.s value is used"
  -- ${HIL} --replay a.rec --plant-only --ticks 5)
attractor_hil_test(replay_missing 6 "--replay: cannot read '${_tmp}/missing.rec'" -- ${HIL} --replay ${_tmp}/missing.rec --plant-only)
attractor_hil_test(replay_foreign 2 "is not an attractor-hil recording" -- ${HIL} --replay ${_tmp}/a_file --plant-only)
attractor_hil_image_test(record_unwritable ${ATTRACTOR_HIL_ELF} 6 "--record: cannot write" --record ${_tmp}/a_file/x.rec)
# unrequested_reset needs QEMU's monitor and a firmware waiting in WFI (the UART link): refused by
# name over --link semihost and --serial (and left out of "all" there).
attractor_hil_test(unrequested_reset_semihost 2 "unrequested_reset needs QEMU.s UART link"
  -- ${HIL} --elf x.elf --link semihost --fault-every 25 --faults corrupt,unrequested_reset)
attractor_hil_test(unrequested_reset_serial 2 "unrequested_reset needs QEMU.s UART link"
  -- ${HIL} --serial /dev/null --fault-every 25 --faults unrequested_reset)
