#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The arm guest: boots, is arm, runs every check (scripts/arch/tests/arch-guest.sh).
# Its images: require_image in arch-guest.sh.
ARCH=arm
. "$(dirname "$0")/arch-guest.sh"
