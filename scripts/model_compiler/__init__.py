# SPDX-License-Identifier: Apache-2.0
"""The model compiler behind scripts/attractor-model (docs/model-compiler.md)."""
