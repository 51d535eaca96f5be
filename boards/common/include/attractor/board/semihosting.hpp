// SPDX-License-Identifier: Apache-2.0
// ARM semihosting (Arm "Semihosting for AArch32 and AArch64", v2): console output and exit
// codes under QEMU (-semihosting-config enable=on) or a debugger. Never used in the tick.
#pragma once

namespace attractor::semihosting {

// SYS_WRITE0 (0x04): write a NUL-terminated string to the host console.
void write0(const char* s);

// Whether a host takes the calls (QEMU with -semihosting-config, a debugger); without one the
// fault handler steps over each call as failed (boards/common/fault.cpp).
bool present();

// SYS_ELAPSED (0x30) over SYS_TICKFREQ (0x31): waits until `ms` of the host's time have passed
// (QEMU counts host nanoseconds, whatever the guest's clock does); returns at once when the host
// does not implement them.
void wait_host_ms(unsigned ms);

// SYS_EXIT_EXTENDED (0x20) with ADP_Stopped_ApplicationExit (0x20026): QEMU exits with `code`.
[[noreturn]] void exit(int code);

}  // namespace attractor::semihosting
