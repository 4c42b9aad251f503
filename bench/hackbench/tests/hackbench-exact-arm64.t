#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hackbench-exact.t in the arm64 guest: icount boots repeat to the ns there too (-cpu max).
# Its images: require_image in hackbench-exact.t.
ARCH=arm64 exec bash "$(dirname "$0")/hackbench-exact.t"
