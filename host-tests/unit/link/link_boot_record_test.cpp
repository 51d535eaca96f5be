// SPDX-License-Identifier: Apache-2.0
// The boot record (rt/boot_record.hpp) the HIL firmware keeps across resets: power-on, a counted
// reset the host asked for, any other reset, and torn or random RAM read as power-on.
#include <gtest/gtest.h>

#include "attractor/rt/boot_record.hpp"

using namespace attractor;

TEST(BootRecord, PowerOnThenCountedResetsWithTheirReason) {
  rt::BootRecord rec{0, 0, 0, 0};  // QEMU's RAM at power-on
  rt::BootInfo b = rt::on_boot(rec);
  EXPECT_EQ(b.reason, rt::BootReason::power_on);
  EXPECT_EQ(b.resets, 0u);
  rt::mark_reset_request(rec);
  b = rt::on_boot(rec);
  EXPECT_EQ(b.reason, rt::BootReason::host_request);
  EXPECT_EQ(b.resets, 1u);
  b = rt::on_boot(rec);  // no request this time: a watchdog, a fault, a debugger
  EXPECT_EQ(b.reason, rt::BootReason::other_reset);
  EXPECT_EQ(b.resets, 2u);
  rec.request = rt::kResetRequest ^ 1u;  // a damaged request word is no request
  b = rt::on_boot(rec);
  EXPECT_EQ(b.reason, rt::BootReason::other_reset);
  EXPECT_EQ(b.resets, 3u);
  rec.resets = 1000;  // torn or random RAM: the check word does not match
  b = rt::on_boot(rec);
  EXPECT_EQ(b.reason, rt::BootReason::power_on);
  EXPECT_EQ(b.resets, 0u);
  rt::BootRecord garbage{rt::kBootMagic, 5, 0x12345678u, rt::kResetRequest};
  b = rt::on_boot(garbage);
  EXPECT_EQ(b.reason, rt::BootReason::power_on) << "a magic word alone is not a record";
}
