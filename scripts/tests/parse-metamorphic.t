#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every bench's parse under metamorphic relations, on its newest committed run
# (parse-metamorphic.py says which): rows reversed, units renumbered, a row dropped, a side
# renamed, the result columns doubled; each must move the figure rows exactly as it says.
. "$(dirname "$0")/tap.sh"
exec python3 "$LAB/scripts/tests/parse-metamorphic.py" "$LAB/data"
