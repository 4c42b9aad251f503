# SPDX-License-Identifier: MIT
"""labreport: the report of data/ as one model. A section (a bench folder's report.py, or
an axis here: architectures, kernel releases) returns Table objects (model); render writes
them as text (<= 72 columns, mail-ready) and as Markdown; runs picks which runs are shown
and who made them; stats asks lab-ab for every A/B statistic; plots draws. Bench sections
import this package; it imports none of them (loader finds them by path)."""
