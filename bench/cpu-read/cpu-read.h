/* SPDX-License-Identifier: MIT */
/* The CPU-number read methods: one bench case each, in table order. */
#ifndef LAB_CPU_READ_H
#define LAB_CPU_READ_H

#include "lab/harness.h"

extern const struct lab_case lab_cpu_read_cases[];
extern const int lab_cpu_read_ncases;

#endif
