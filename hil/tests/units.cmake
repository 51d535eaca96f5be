# SPDX-License-Identifier: Apache-2.0
# Parser, --gains auto and round-trip statistics unit tests (GoogleTest), and the feedback systems'
# rules over every registered system (FeedbackRules), named tools.cli.<Suite>.<Test>.
gtest_discover_tests(hil_cli_test TEST_PREFIX tools.cli. PROPERTIES LABELS "host;cli")
# The feedback-system driver's runs on the sim entries, named tools.sim.<Suite>.<Test>.
gtest_discover_tests(hil_sim_test TEST_PREFIX tools.sim. DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "host;cli")
