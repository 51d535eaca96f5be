// SPDX-License-Identifier: Apache-2.0
// The deterministic control tick, generic over a board and an application: the one include for
// apps, boards and tests. Each part is its own header:
//
//   rt/app.hpp              the App contract, rt::AppBase (types, optional members' defaults)
//   rt/optional_member.hpp  the one idiom for optional App/Board members (rt::has_member)
//   rt/config.hpp           rt::Config, rt::rate_hz
//   rt/report.hpp           rt::Report, rt::Stats
//   rt/engine.hpp           rt::Tick<App>: the board-independent engine (the two ISR entries)
//   rt/board_glue.hpp       the Board contract, interrupt trampolines, optional board members
//   rt/run.hpp              rt::run<Board>(app, cfg)
//   rt/report_text.hpp      rt::write_report, rt::counts_to_ns
#pragma once

#include "attractor/rt/app.hpp"
#include "attractor/rt/board_glue.hpp"
#include "attractor/rt/config.hpp"
#include "attractor/rt/engine.hpp"
#include "attractor/rt/optional_member.hpp"
#include "attractor/rt/report.hpp"
#include "attractor/rt/report_text.hpp"
#include "attractor/rt/run.hpp"
