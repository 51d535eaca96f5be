# SPDX-License-Identifier: Apache-2.0
# attractor-hil: help, option rules and the HIL runs in QEMU.
add_test(NAME tools.hil_help COMMAND attractor-hil --help)
set_tests_properties(tools.hil_help PROPERTIES LABELS host)
# HIL in QEMU (needs the fw-m4f image; skipped, exit 77, without it). Labels: host, hil, qemu.
# A HIL run is two processes in lockstep that take turns (about one core): they hold the lock
# qemu_hil against each other but run beside the other tests; COST starts the long ones first.
set(ATTRACTOR_HIL_ELF ${PROJECT_SOURCE_DIR}/build/fw-m4f/apps/skate-rotor-hil/skate-rotor-hil.mps2-an386.elf
    CACHE FILEPATH "firmware image the HIL tests run in QEMU")
set(_hilq ${CMAKE_CURRENT_SOURCE_DIR}/tests/hil_qemu.sh)
# 2 s of simulated time, a fault every 25 ticks, every class in turn (corrupt, nan, out_of_range,
# drop, duplicate, reorder, delayed, bias, reset: about 9 each, 8 firmware resets with
# resynchronisation): all detected, skate upright (the runner's exit 0).
add_test(NAME hil.skate_qemu_faults
         COMMAND ${_hilq} run $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --ticks 2000 --fault-every 25 --timeout 20)
# Deterministic: two runs with faults give identical per-tick logs (tick cost included).
add_test(NAME hil.skate_qemu_deterministic
         COMMAND ${_hilq} twice $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --ticks 600 --fault-every 25 --timeout 20)
set_tests_properties(hil.skate_qemu_faults hil.skate_qemu_deterministic PROPERTIES
                     LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 20)
# ... and every class was injected at least once (a "0/0" in the summary fails the test).
set_tests_properties(hil.skate_qemu_faults PROPERTIES FAIL_REGULAR_EXPRESSION "[a-z] 0/0 ")
# The fast byte path (--link semihost: the same frames over host FIFOs by semihosting) with faults:
# every fault detected, and two runs give identical logs (the soak's path, scripts/soak).
add_test(NAME hil.skate_qemu_semihost_deterministic
         COMMAND ${_hilq} twice $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ELF} --link semihost --ticks 2000 --fault-every 25 --timeout 20)
set_tests_properties(hil.skate_qemu_semihost_deterministic PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77
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
# A firmware that never answers (an image without the link): a clear timeout message, exit 4.
add_test(NAME hil.firmware_silent
         COMMAND ${_hilq} silent $<TARGET_FILE:attractor-hil>
                 ${PROJECT_SOURCE_DIR}/build/fw-m4f/host-tests/target/link_protocol.mps2-an386.elf --ticks 5 --timeout 3)
set_tests_properties(hil.firmware_silent PROPERTIES LABELS "host;hil;qemu" TIMEOUT 120 SKIP_RETURN_CODE 77)
# The spherical robot on the link: 2 s of simulated time, a fault every 25 ticks, every class
# (the nine of hil.skate_qemu_faults, firmware resets included) injected and detected, tilt <
# 0.12 rad throughout (SPHERICAL_ROBOT.md), controller running.
set(ATTRACTOR_HIL_ROBOT_ELF
    ${PROJECT_SOURCE_DIR}/build/fw-m4f/apps/spherical-robot-hil/spherical-robot-hil.mps2-an386.elf
    CACHE FILEPATH "spherical-robot firmware image the HIL tests run in QEMU")
add_test(NAME hil.robot_qemu
         COMMAND ${_hilq} run $<TARGET_FILE:attractor-hil> ${ATTRACTOR_HIL_ROBOT_ELF} --plant spherical-robot
                 --ticks 2000 --fault-every 25 --timeout 20)
set_tests_properties(hil.robot_qemu PROPERTIES LABELS "host;hil;qemu" TIMEOUT 300 SKIP_RETURN_CODE 77 RESOURCE_LOCK qemu_hil COST 20
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
add_test(NAME hil.bad_plant COMMAND ${_x} 2 "--plant: skate or spherical-robot" -- $<TARGET_FILE:attractor-hil>
                                    --plant wheel --elf none.elf)
set_tests_properties(hil.bad_plant PROPERTIES LABELS "host;hil")
add_test(NAME hil.bad_options COMMAND ${_x} 2 "give exactly one of --elf and --serial" -- $<TARGET_FILE:attractor-hil> --ticks 5)
add_test(NAME hil.bad_fault_class COMMAND ${_x} 2 "--faults: 'corrupt,late' is not a list of classes" --
         $<TARGET_FILE:attractor-hil> --elf x.elf --faults corrupt,late)
set_tests_properties(hil.bad_options hil.bad_fault_class PROPERTIES LABELS "host;hil")
