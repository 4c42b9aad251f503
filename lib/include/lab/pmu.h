/* SPDX-License-Identifier: MIT */
/*
 * Hardware counters around a bench loop: core cycles and retired instructions of the calling
 * thread (user and kernel), one perf_event_open group per process. Where there is no PMU (TCG
 * guests, VMs without a virtual PMU, perf_event_paranoid) the figures are NaN, never zeros.
 */
#ifndef LAB_PMU_H
#define LAB_PMU_H

#include <stddef.h>
#include <stdint.h>

/* Open the counters for the calling thread once; 0, or -1 when there is no PMU. */
int lab_pmu_open(void);
/* Why there are no counters ("no PMU: ..."), or NULL when there are. */
const char *lab_pmu_why(void);

/* Zero and start the counters (nothing without a PMU). */
void lab_pmu_start(void);
/* Stop them and give the counts (NaN each without a PMU or when a counter never ran). */
void lab_pmu_stop(double *cycles, double *instructions);

/*
 * The counts in a group read (PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING):
 * words = { nr, time_enabled, time_running, cycles, instructions }. Scaled up by
 * enabled/running when the kernel multiplexed the counters; NaN when they never ran or the
 * buffer is not that shape. Kept apart so that it can be tested without a PMU.
 */
void lab_pmu_decode(const uint64_t *words, size_t nwords, double *cycles, double *instructions);

#endif
