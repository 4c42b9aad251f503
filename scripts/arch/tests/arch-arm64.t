#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The arm64 guest: boots, is arm64, runs every check (scripts/arch/tests/arch-guest.sh).
# Its images: require_image in arch-guest.sh.
ARCH=arm64
. "$(dirname "$0")/arch-guest.sh"
