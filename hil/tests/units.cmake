# SPDX-License-Identifier: Apache-2.0
# Parser, --gains auto and round-trip statistics unit tests (GoogleTest), and the feedback systems'
# rules over every registered system (FeedbackRules), named tools.cli.<Suite>.<Test>.
gtest_discover_tests(hil_cli_test TEST_PREFIX tools.cli. PROPERTIES LABELS "host;cli")
